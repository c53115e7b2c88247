"""The deployment file (``courier.toml``): where the journal, the mail and each game live.

Secrets never live here: passwords and keys come from environment variables or files the TOML names.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from courier.config.schedule import parse_duration
from courier.config.schema import AUTH, BACKUPS, BUDGETS, TOP, Table
from courier.config.settings_shape import check_shape
from courier.config.unknown_keys import folded, unknown_deployment_keys
from courier.errors import ConfigError


@dataclass(frozen=True)
class GameSource:
    """Where one game's settings live: a local .xlsx workbook or a Google Sheet (by key)."""

    id: str
    organiser: str
    workbook: Path | None = None
    sheet: str | None = None
    seed: str | None = None  # fixed by the operator (demo, tests); else drawn at game start
    base_dir: Path | None = None  # where the deployment file is: `*_file` options are found from here


@dataclass(frozen=True)
class BackupPolicy:
    """``[backups]``: copies of the journal kept in ``state_dir/backups`` before each resolution
    (the keys and their defaults: ``schema.BACKUPS``)."""

    keep: int = BACKUPS.default("keep")  # at most this many copies
    days: int = BACKUPS.default("days")  # none older than this many days (the newest is always kept)


@dataclass(frozen=True)
class MailBudgets:
    """``[budgets]``: how much mail one address's input may cause, and one address may receive, in a
    clock hour and a UTC day (courier/state/budgets.py; the keys and defaults: ``schema.BUDGETS``)."""

    per_sender_hour: int = BUDGETS.default("per_sender_hour")
    per_sender_day: int = BUDGETS.default("per_sender_day")
    per_recipient_hour: int = BUDGETS.default("per_recipient_hour")
    per_recipient_day: int = BUDGETS.default("per_recipient_day")


@dataclass(frozen=True)
class Deployment:
    """``courier.toml`` as loaded: every key and its default is in courier/config/schema.py."""

    path: Path
    state_dir: Path
    domain: str
    sender: str
    reply_to: str | None
    organiser: str
    templates: Path | None
    # An organiser's own quote patterns (same shape as config/quotes.toml), read as well as Courier's.
    quote_patterns: Path | None
    inbox: dict[str, Any]
    outbox: dict[str, Any]
    games: tuple[GameSource, ...]
    sheets: dict[str, Any]
    # Authentication-Results headers are believed only from these servers (empty: from any).
    trusted_authserv_ids: tuple[str, ...]
    # [auth] require = "pass": mail counts only when those servers show DKIM or DMARC pass for it.
    require_pass: bool
    backups: BackupPolicy
    # A tick finding the last one longer ago than this, with deadlines passed in between, resolves
    # nothing and moves those deadlines instead (courier/tick/outage.py). Zero: catch up at once.
    stale_after: timedelta
    # A game failing in this many ticks in a row is set aside (courier/state/quarantine.py).
    quarantine_after: int
    # Keys nobody reads (a misspelling): the tick tells the organiser once.
    warnings: tuple[str, ...] = ()
    # How the journal is kept: a kind of courier/journal/opener.py's table.
    journal_kind: str = "sqlite"
    # What one sender's input may cause, and one address receive (courier/state/budgets.py).
    budgets: MailBudgets = MailBudgets()

    @property
    def backup_dir(self) -> Path:
        return self.state_dir / "backups"

    @property
    def journal_path(self) -> Path:
        return self.state_dir / "journal.sqlite"

    @property
    def lock_path(self) -> Path:
        return self.state_dir / "tick.lock"


def load_deployment(path: Path) -> Deployment:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file; `courier init` writes a starter one") from None
    except UnicodeDecodeError as e:
        raise ConfigError(
            f"{path}: not UTF-8 text (byte {e.object[e.start]:#x} at position {e.start}); save it as UTF-8"
        ) from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot be read: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from e
    check_shape(data, path)
    base = path.resolve().parent

    def local(value: str) -> Path:
        return (base / value).resolve()

    organiser = _address(data, "organiser", path)
    games = tuple(_game_source(g, path, organiser, local) for g in TOP.get(data, "game"))
    if len({g.id for g in games}) != len(games):
        raise ConfigError(f"{path}: two [[game]] entries share an id")
    return Deployment(
        path=path,
        state_dir=local(TOP.get(data, "state_dir")),
        domain=TOP.get(data, "domain"),
        sender=_required(data, "from", path),
        reply_to=data.get("reply_to"),
        organiser=organiser,
        templates=local(data["templates"]) if "templates" in data else None,
        quote_patterns=local(data["quote_patterns"]) if "quote_patterns" in data else None,
        inbox=_with_local_path(TOP.get(data, "inbox"), local),
        outbox=_with_inbox_token(_with_local_path(TOP.get(data, "outbox"), local), TOP.get(data, "inbox")),
        games=games,
        sheets=_with_local_path(TOP.get(data, "sheets"), local, key="credentials_file"),
        trusted_authserv_ids=tuple(AUTH.get(TOP.get(data, "auth"), "trusted_authserv_ids")),
        require_pass=_require_pass(TOP.get(data, "auth"), path),
        backups=_backup_policy(TOP.get(data, "backups"), path),
        stale_after=_stale_after(TOP.get(data, "stale_after"), path),
        quarantine_after=_whole_number(data, "quarantine_after", path),
        warnings=tuple(f"{path}: {w}" for w in folded(unknown_deployment_keys(data))),
        journal_kind=TOP.get(data, "journal"),
        budgets=MailBudgets(**_whole_numbers(BUDGETS, TOP.get(data, "budgets"), path)),
    )


def _with_inbox_token(outbox: dict[str, Any], inbox: Mapping[str, Any]) -> dict[str, Any]:
    """XOAUTH2 for SMTP from the same credentials as the inbox: an [outbox] with auth = "xoauth2"
    and no oauth2_token_* of its own uses the [inbox]'s (one Gmail account reads and sends)."""
    token_keys = ("oauth2_token_env", "oauth2_token_file", "oauth2_token_command")
    if outbox.get("auth") != "xoauth2" or any(key in outbox for key in token_keys):
        return outbox
    return {**outbox, **{key: inbox[key] for key in token_keys if key in inbox}}


def _whole_number(table: Mapping[str, Any], key: str, path: Path) -> int:
    value = TOP.get(table, key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ConfigError(f"{path}: `{key}` must be a whole number of at least 1, not {value!r}")
    return value


def _require_pass(auth: Mapping[str, Any], path: Path) -> bool:
    require = AUTH.get(auth, "require")
    if require not in ("pass", "no-fail"):
        raise ConfigError(f'{path}: [auth] require must be "pass" or "no-fail", not {require!r}')
    if require == "pass" and not auth.get("trusted_authserv_ids"):
        raise ConfigError(
            f'{path}: [auth] require = "pass" needs trusted_authserv_ids (your receiving server\'s id, '
            'e.g. ["mx.google.com"]): anyone can write an Authentication-Results header'
        )
    return bool(require == "pass")


def _stale_after(value: object, path: Path) -> timedelta:
    if value in (0, "0"):
        return timedelta(0)
    try:
        return parse_duration(str(value))
    except ValueError as e:
        raise ConfigError(f"{path}: stale_after: {e} (0 turns the outage guard off)") from None


def _backup_policy(table: Mapping[str, Any], path: Path) -> BackupPolicy:
    return BackupPolicy(**_whole_numbers(BACKUPS, table, path))


def _whole_numbers(schema: Table, table: Mapping[str, Any], path: Path) -> dict[str, int]:
    """Every key of a table whose settings are all whole numbers of at least 1, defaults filled in."""
    values = {key: schema.get(table, key) for key in schema.settings}
    for key, value in values.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ConfigError(
                f"{path}: {schema.title} {key} must be a whole number of at least 1, not {value!r}"
            )
    return values


def _game_source(table: Mapping[str, Any], path: Path, organiser: str, local: Any) -> GameSource:
    game_id = _required(table, "id", path)
    if ("workbook" in table) == ("sheet" in table):
        raise ConfigError(f"{path}: [[game]] {game_id} needs either `workbook` (a file) or `sheet` (a key)")
    return GameSource(
        id=game_id,
        organiser=table.get("organiser", organiser),
        workbook=local(table["workbook"]) if "workbook" in table else None,
        sheet=table.get("sheet"),
        seed=table.get("seed"),
        base_dir=path.resolve().parent,
    )


def _required(table: Mapping[str, Any], key: str, path: Path) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{path}: `{key}` is missing or empty")
    return value.strip()


def _address(table: Mapping[str, Any], key: str, path: Path) -> str:
    value = _required(table, key, path)
    if "@" not in parseaddr(value)[1]:
        raise ConfigError(f"{path}: `{key}` = {value!r} is not a mail address")
    return value


def _with_local_path(table: Mapping[str, Any], local: Any, key: str = "path") -> dict[str, Any]:
    """Paths in the config are relative to the config file."""
    return {**table, key: local(table[key])} if key in table else dict(table)
