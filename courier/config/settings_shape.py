"""The shape of ``courier.toml``, checked when it loads: a value of the wrong kind (``state_dir =
5``, ``inbox = "x"``) or a mail backend missing what it needs is one line naming the key and the fix,
never a Python error from deep inside a tick."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from courier.errors import ConfigError

_TEXT = ("text", str)
_TABLE = ("a table ([name] with keys below it)", dict)
TOP: Mapping[str, tuple[str, type | tuple[type, ...]]] = {
    "state_dir": ('text (a folder, e.g. "state")', str),
    "domain": _TEXT,
    "from": _TEXT,
    "reply_to": _TEXT,
    "organiser": _TEXT,
    "templates": ("text (a folder)", str),
    "stale_after": ('a duration such as "6h", or 0', (str, int)),
    "quarantine_after": ("a whole number", int),
    "inbox": _TABLE,
    "outbox": _TABLE,
    "sheets": _TABLE,
    "auth": _TABLE,
    "backups": _TABLE,
    "game": ("a list of [[game]] tables", list),
}
# For each mail table: the backend types, and the keys each one needs.
BACKENDS: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "inbox": {"maildir": ("path",), "imap": ("host", "username")},
    "outbox": {"files": ("path",), "smtp": ("host",)},
}


def check_shape(data: Mapping[str, Any], path: Path) -> None:
    for key, (kind, types) in TOP.items():
        if key in data and (not isinstance(data[key], types) or isinstance(data[key], bool)):
            raise ConfigError(f"{path}: `{key}` must be {kind}, not {data[key]!r}")
    for table, backends in BACKENDS.items():
        if table in data:
            _check_backend(data[table], table, backends, path)
    for number, game in enumerate(data.get("game", []), start=1):
        if not isinstance(game, dict):
            raise ConfigError(f'{path}: [[game]] number {number} must be a table with id = "…"')
        for key in ("id", "workbook", "sheet", "seed", "organiser"):
            if key in game and not isinstance(game[key], str):
                raise ConfigError(
                    f"{path}: [[game]] number {number}: `{key}` must be text, not {game[key]!r}"
                )
    ids = data.get("auth", {}).get("trusted_authserv_ids", [])
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise ConfigError(
            f'{path}: [auth] trusted_authserv_ids must be a list of text, e.g. ["mx.google.com"]'
        )


def _check_backend(
    table: Mapping[str, Any], name: str, types: Mapping[str, tuple[str, ...]], path: Path
) -> None:
    kind = table.get("type", next(iter(types)))
    if kind not in types:
        raise ConfigError(f"{path}: [{name}] type = {kind!r}: use " + " or ".join(repr(t) for t in types))
    for key in types[kind]:
        if not isinstance(table.get(key), str) or not table[key].strip():
            raise ConfigError(f"{path}: [{name}] type = {kind!r} needs `{key}` (text)")
