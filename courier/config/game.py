"""One game's settings: its workbook's Config and Players tabs, checked cell by cell."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from email.utils import parseaddr
from typing import Any

from courier.backends.base import SheetSnapshot
from courier.config.deployment import GameSource
from courier.config.players_tab import check_names, check_row
from courier.config.schedule import Schedule, ScheduleError, parse_duration
from courier.config.unknown_keys import folded, unknown_config_keys
from courier.data import shipped_dir
from courier.errors import ConfigError
from courier.screenful import printable
from engine import find_ruleset
from engine.core import ConfigDefaults, OptionChecked, Ruleset, fold

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
# `news_every`: how long news (a gift, an absence) may wait for a mail going anyway (courier/state/news.py).
COMMAND_KEYS = frozenset({"press", "away", "away_limit", "organiser_secret", "news_every"})


BOT_DOMAIN = "bot.invalid"  # a bot seat's address: no mail is sent there, none is read from there


@dataclass(frozen=True)
class Player:
    name: str
    email: str
    nicknames: tuple[str, ...] = ()
    role: str = ""
    secret: str = ""
    own_name: str = ""  # a substitute's own name (`replace … as Emmett`): their mail greets them by it

    @property
    def greeted(self) -> str:
        """The name a mail to this seat's holder greets them by."""
        return self.own_name or self.name

    @property
    def label(self) -> str:
        """The seat as people are shown it: ``Emmett (for Darcy)`` for a substitute's (``holder_label``)."""
        return holder_label(self.name, self.own_name)

    @property
    def bot(self) -> bool:
        """A seat played by the game's bot (`Email` = `bot` in the Players tab)."""
        return is_bot_address(self.email)


def is_bot_address(address: str) -> bool:
    return address.lower().endswith("@" + BOT_DOMAIN)


def holder_label(seat: str, own_name: str) -> str:
    """The one rule for naming a seat whose substitute gave a name of their own (`replace … as
    Emmett`): ``Emmett (for Darcy)``, on the Ledger, in every mail, in `status`; else the seat."""
    return f"{own_name} (for {seat})" if own_name and own_name != seat else seat


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

    def shown(self, value: Any) -> Any:
        """A seat's name as the Ledger tab and every mail show it (its table, winners, ranking, the
        welcome's players): ``Darcy (bot)`` for a bot's seat, ``Emmett (for Darcy)`` for a
        substitute's; any other value (a number, a power, a nation) as it is."""
        if not isinstance(value, str):
            return value
        player = next((p for p in self.players if p.name == value), None)
        if player is None:
            return value
        return f"{value} (bot)" if player.bot else player.label

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
    if commands.get("away_limit"):  # read at every deadline: a mistake found then would stop the game
        try:
            parse_duration(commands["away_limit"])
        except ScheduleError as e:
            raise ConfigError(f"{where}: {_cell(snapshot, 'away_limit')} `away_limit`: {e}") from e
    if commands.get("news_every", "") not in ("", "0", "none", "no"):  # read at every tick: checked now
        try:
            parse_duration(commands["news_every"])
        except ScheduleError as e:
            raise ConfigError(f"{where}: {_cell(snapshot, 'news_every')} `news_every`: {e}") from e
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
    warnings = folded(
        unknown_config_keys(snapshot.config, ruleset, SHELL_KEYS | COMMAND_KEYS)
    ) + _untypable_secrets(players)
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
