"""The shape of ``courier.toml``, checked when it loads: a value of the wrong kind (``state_dir =
5``, ``inbox = "x"``) or a mail backend missing what it needs is one line naming the key and the fix,
never a Python error from deep inside a tick. What to check comes from courier/config/schema.py."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from courier.backends.kinds import Role, kinds_of
from courier.config.schema import AUTH, GAME, TABLES, TOP
from courier.errors import ConfigError


def check_shape(data: Mapping[str, Any], path: Path) -> None:
    for key, setting in TOP.settings.items():
        if setting.checked and key in data and not setting.shape.fits(data[key]):
            raise ConfigError(f"{path}: `{key}` must be {setting.shape.words}, not {data[key]!r}")
    for table in TABLES:
        if table.role is not None and table.role.kind_key and table.name in data:
            _check_backend(data[table.name], table.role, path)
    for number, game in enumerate(data.get("game", []), start=1):
        if not isinstance(game, dict):
            raise ConfigError(f'{path}: [[game]] number {number} must be a table with id = "…"')
        for key, setting in GAME.settings.items():
            if setting.checked and key in game and not setting.shape.fits(game[key]):
                where = f"{path}: [[game]] number {number}"
                raise ConfigError(f"{where}: `{key}` must be {setting.shape.words}, not {game[key]!r}")
    auth = data.get("auth", {})
    for key, setting in AUTH.settings.items():
        if setting.checked and key in auth and not setting.shape.fits(auth[key]):
            raise ConfigError(f"{path}: [auth] {key} must be {setting.shape.words}")


def _check_backend(table: Mapping[str, Any], role: Role, path: Path) -> None:
    """The kind must be known, and the keys it requires present (its other keys: when it opens)."""
    kinds = {kind.name: kind for kind in kinds_of(role)}
    name = table.get(role.kind_key, role.default_kind)
    if name not in kinds:
        choices = " or ".join(repr(known) for known in kinds)
        raise ConfigError(f"{path}: [{role.table}] {role.kind_key} = {name!r}: use {choices}")
    for key in kinds[name].required:
        if not isinstance(table.get(key), str) or not table[key].strip():
            raise ConfigError(f"{path}: [{role.table}] {role.kind_key} = {name!r} needs `{key}` (text)")
