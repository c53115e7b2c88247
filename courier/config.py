"""Deployment settings (a TOML file) and each game's settings (its workbook's Config and Players tabs).

Secrets never live here: passwords and keys come from environment variables or files the TOML names.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from courier.backends.base import SheetSnapshot
from courier.data import shipped_dir
from courier.errors import ConfigError
from courier.players_tab import check_names, check_row
from courier.schedule import Schedule, ScheduleError, parse_duration
from courier.screenful import printable
from courier.settings_shape import check_shape
from courier.unknown_keys import unknown_config_keys, unknown_deployment_keys
from engine import find_ruleset
from engine.core import ConfigDefaults, OptionChecked, Ruleset, fold

__all__ = [
    "ConfigError",
    "Deployment",
    "GameConfig",
    "GameSource",
    "Player",
    "game_config",
    "load_deployment",
]


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
    """``[backups]``: copies of the journal kept in ``state_dir/backups`` before each resolution."""

    keep: int = 50  # at most this many copies
    days: int = 30  # none older than this many days (the newest is always kept)


@dataclass(frozen=True)
class Deployment:
    path: Path
    state_dir: Path
    domain: str
    sender: str
    reply_to: str | None
    organiser: str
    templates: Path | None
    inbox: dict[str, Any]
    outbox: dict[str, Any]
    games: tuple[GameSource, ...]
    sheets: dict[str, Any] = field(default_factory=dict)
    # Authentication-Results headers are believed only from these servers (empty: from any).
    trusted_authserv_ids: tuple[str, ...] = ()
    # [auth] require = "pass": mail counts only when those servers show DKIM or DMARC pass for it.
    require_pass: bool = False
    backups: BackupPolicy = field(default_factory=BackupPolicy)
    # A tick finding the last one longer ago than this, with deadlines passed in between, resolves
    # nothing and moves those deadlines instead (courier/outage.py). Zero: catch up at once.
    stale_after: timedelta = timedelta(hours=6)
    # A game failing in this many ticks in a row is set aside (courier/quarantine.py).
    quarantine_after: int = 5
    # Keys nobody reads (a misspelling): the tick tells the organiser once.
    warnings: tuple[str, ...] = ()

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
    games = tuple(_game_source(g, path, organiser, local) for g in data.get("game", []))
    if len({g.id for g in games}) != len(games):
        raise ConfigError(f"{path}: two [[game]] entries share an id")
    return Deployment(
        path=path,
        state_dir=local(data.get("state_dir", "state")),
        domain=data.get("domain", "courier.invalid"),
        sender=_required(data, "from", path),
        reply_to=data.get("reply_to"),
        organiser=organiser,
        templates=local(data["templates"]) if "templates" in data else None,
        inbox=_with_local_path(data.get("inbox", {"type": "maildir", "path": "mail/inbox"}), local),
        outbox=_with_local_path(data.get("outbox", {"type": "files", "path": "mail/sent"}), local),
        games=games,
        sheets=_with_local_path(data.get("sheets", {}), local, key="credentials_file"),
        trusted_authserv_ids=tuple(data.get("auth", {}).get("trusted_authserv_ids", ())),
        require_pass=_require_pass(data.get("auth", {}), path),
        backups=_backup_policy(data.get("backups", {}), path),
        stale_after=_stale_after(data.get("stale_after", "6h"), path),
        quarantine_after=_whole_number(data, "quarantine_after", 5, path),
        warnings=tuple(f"{path}: {w}" for w in unknown_deployment_keys(data)),
    )


def _whole_number(table: Mapping[str, Any], key: str, default: int, path: Path) -> int:
    value = table.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ConfigError(f"{path}: `{key}` must be a whole number of at least 1, not {value!r}")
    return value


def _require_pass(auth: Mapping[str, Any], path: Path) -> bool:
    require = auth.get("require", "no-fail")
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
    values = {key: table.get(key, getattr(BackupPolicy, key)) for key in ("keep", "days")}
    for key, value in values.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ConfigError(f"{path}: [backups] {key} must be a whole number of at least 1, not {value!r}")
    return BackupPolicy(**values)


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


def _with_local_path(table: dict[str, Any], local: Any, key: str = "path") -> dict[str, Any]:
    """Paths in the config are relative to the config file."""
    return {**table, key: local(table[key])} if key in table else dict(table)


# --- one game's settings, from its workbook -------------------------------------------------------

# Keys of the Config tab that the shell reads itself; every other key is a game option.
SHELL_KEYS = frozenset(
    {
        "game",
        "timezone",
        "start",
        "deadlines",
        "duration",
        "weekdays",
        "reminders",
        "early_resolution",
        "settle",
        "outage_grace",
        "absent",
    }
)
# Keys the commands read (press, absence, the organiser's secret): the shell's, read every tick.
COMMAND_KEYS = frozenset({"press", "away", "away_limit", "organiser_secret"})


BOT_DOMAIN = "bot.invalid"  # a bot seat's address: no mail is sent there, none is read from there


@dataclass(frozen=True)
class Player:
    name: str
    email: str
    nicknames: tuple[str, ...] = ()
    role: str = ""
    secret: str = ""

    @property
    def bot(self) -> bool:
        """A seat played by the game's bot (`Email` = `bot` in the Players tab)."""
        return is_bot_address(self.email)


def is_bot_address(address: str) -> bool:
    return address.lower().endswith("@" + BOT_DOMAIN)


@dataclass(frozen=True)
class GameConfig:
    id: str
    ruleset: Ruleset
    schedule: Schedule
    players: tuple[Player, ...]
    options: dict[str, Any] = field(default_factory=dict)
    absent: str = "default"  # `absent = bot`: every seat that sends nothing is played by the bot
    # What the organiser should fix though the game runs (a misspelt key, an untypable secret).
    warnings: tuple[str, ...] = ()
    commands: dict[str, str] = field(default_factory=dict)  # COMMAND_KEYS as the Config tab has them

    def player_by_email(self, email: str) -> Player | None:
        if is_bot_address(email):  # nobody writes as a bot
            return None
        return next((p for p in self.players if p.email == email.lower()), None)

    @property
    def bots(self) -> list[str]:
        return [p.name for p in self.players if p.bot]

    def bot_plays(self, player: str) -> bool:
        """Whether the bot plays this seat when it sends nothing (read at each deadline, so a seat
        given to the bot mid-game, a player who vanished, is played from the next deadline)."""
        return player in self.bots or self.absent == "bot"


def game_config(source: GameSource, snapshot: SheetSnapshot) -> GameConfig:
    """Validate one game's Config and Players tabs; every problem is one clear ConfigError that
    names the cell to fix."""
    where = f"game {source.id}"
    config = snapshot.config
    try:
        ruleset = find_ruleset(config.get("game", ""))
    except KeyError as e:
        raise ConfigError(f"{where}: {_cell(snapshot, 'game')} `game`: {e.args[0]}") from None
    # A game may bring defaults for its own keys (Star Trek: the intelligence window's 2 h clock).
    config = {**(ruleset.default_config if isinstance(ruleset, ConfigDefaults) else {}), **config}
    try:
        schedule = Schedule.from_config(config)
    except ScheduleError as e:
        named = re.search(r"`(\w+)`", str(e))
        cell = snapshot.config_cells.get(named.group(1)) if named else None
        raise ConfigError(f"{where}: {cell + ': ' if cell else ''}{e}") from e
    players = _players(where, snapshot)
    options = {
        k: option_value(v)
        for k, v in config.items()
        if k not in SHELL_KEYS | COMMAND_KEYS and not k.endswith("_duration")
    }
    commands = {k: str(v).strip() for k, v in config.items() if k in COMMAND_KEYS}
    for key in [k for k in options if k.endswith("_file")]:  # `deck_file = my-deck.toml` → option `deck`
        name = str(options.pop(key))
        data, text = read_data_file(source, snapshot, key, name)
        _check_data(ruleset, key.removesuffix("_file"), data, f"game {source.id}: {name}", text)
        options[key.removesuffix("_file")] = data
    nicknames = {p.name: list(p.nicknames) for p in players if p.nicknames}
    if nicknames:
        options["nicknames"] = nicknames
    roles = {p.name: p.role for p in players if p.role}
    if roles:  # a Diplomacy power, a Monarchs nation: the game decides what a role means
        options["roles"] = roles
    warnings = unknown_config_keys(snapshot.config, ruleset, SHELL_KEYS | COMMAND_KEYS) + _untypable_secrets(
        players
    )
    absent = config.get("absent", "default").strip().lower() or "default"
    if absent not in ("default", "bot"):
        raise ConfigError(
            f"{where}: {_cell(snapshot, 'absent')} `absent` must be `bot` or `default`, not {absent!r}"
        )
    return GameConfig(
        source.id,
        ruleset,
        schedule,
        players,
        options,
        absent,
        tuple(f"{where}: {w}" for w in warnings),
        commands,
    )


def _untypable_secrets(players: Sequence[Player]) -> list[str]:
    """A secret is given as one line `secret: …`; one with a line break or control character cannot be."""
    return [
        f"{p.name}'s Secret cannot be typed on one line of a mail, so their orders can never count"
        for p in players
        if "\n" in p.secret.strip() or "\r" in p.secret or printable(p.secret) != p.secret
    ]


def _check_data(ruleset: Ruleset, option: str, data: Any, where: str, text: str) -> None:
    """Let the game judge its data file now (optional ``check_option``), each problem with the line of
    the card or entry it names, so the organiser's one mail says exactly what to fix."""
    problems = ruleset.check_option(option, data) if isinstance(ruleset, OptionChecked) else []
    if problems:
        raise ConfigError(f"{where}: " + "; ".join(_with_line(text, p) for p in problems))


def _with_line(text: str, problem: str) -> str:
    for quoted in re.findall(r"[“\"]([^”\"]+)[”\"]", problem):
        for number, line in enumerate(text.splitlines(), start=1):
            if re.search(rf"""^\s*"?name"?\s*[=:]\s*["']{re.escape(quoted)}["']""", line):
                return f"line {number}: {problem}"
    return problem


def read_data_file(source: GameSource, snapshot: SheetSnapshot, key: str, name: str) -> tuple[Any, str]:
    """A game's data file (a Veneer deck, a map) named in the Config tab: TOML or JSON, found next to
    the deployment file, else among the examples Courier ships in config/."""
    candidates = [
        p
        for p in ((source.base_dir / name) if source.base_dir else None, shipped_dir("config") / name)
        if p is not None
    ]
    where = f"game {source.id}: {_cell(snapshot, key)} `{key}`"
    path = next((p for p in candidates if p.is_file()), None)
    if path is None:
        raise ConfigError(f"{where}: no file {name!r} next to the config file or in Courier's config/")
    try:
        text = path.read_text(encoding="utf-8")
        return (tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)), text
    except (OSError, tomllib.TOMLDecodeError, json.JSONDecodeError) as e:
        raise ConfigError(f"{where}: {path} cannot be read: {e}") from e


def _cell(snapshot: SheetSnapshot, key: str) -> str:
    return snapshot.config_cells.get(key, "Config")


def _players(where: str, snapshot: SheetSnapshot) -> tuple[Player, ...]:
    players: list[Player] = []
    numbers = snapshot.player_rows or list(range(2, len(snapshot.players) + 2))
    for number, row in zip(numbers, snapshot.players, strict=True):
        check_row(where, number, row)
        name, email = row.get("name", "").strip(), parseaddr(row.get("email", ""))[1].lower()
        if email == "bot" and name:  # the game's bot plays this seat
            email = f"{re.sub(r'[^a-z0-9]+', '-', fold(name)).strip('-') or 'seat'}-{number}@{BOT_DOMAIN}"
        nicks = tuple(n.strip() for n in row.get("nickname", "").split(",") if n.strip())
        players.append(Player(name, email, nicks, row.get("role", "").strip(), row.get("secret", "")))
    check_names(where, [(n, p.name, p.nicknames) for n, p in zip(numbers, players, strict=True)])
    if len({p.email for p in players}) != len(players):
        raise ConfigError(f"{where}: two players share a mail address")
    if len(players) < 2:
        raise ConfigError(f"{where}: the Players tab lists fewer than two players")
    return tuple(players)


def option_value(text: str) -> Any:
    """Config cells are text; options that look like numbers or yes/no become them."""
    value = text.strip()
    if value.lower() in ("yes", "true", "on"):
        return True
    if value.lower() in ("no", "false", "off"):
        return False
    try:
        return int(value)
    except ValueError:
        return value
