"""Commands by mail (one a line) and by CLI (the same line, journalled as JSON): the organiser's
(pause, resume, extend, process, rollback, replace, kick, end, message) and the players' (status,
help, resign, away, press). Only reading here; ``organiser.py`` and ``players.py`` apply them.

A mail is a command mail when its first line starts with a command word; a line that reads as no
command makes the whole mail a mistake, answered with what was wrong, and nothing changes."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from email.utils import parseaddr
from zoneinfo import ZoneInfo

from courier.config.schedule import parse_duration

ORGANISER_VERBS = (
    "pause",
    "resume",
    "extend",
    "process",
    "rollback",
    "replace",
    "kick",
    "bot",
    "end",
    "message",
)
PLAYER_VERBS = ("status", "help", "resign", "away", "press")

ORGANISER_SYNTAX = (
    "pause",
    "resume  (or: resume until 2026-12-28 20:00)",
    "extend 24h  (or: extend until 2026-12-28 20:00)",
    "process now",
    "rollback to round 3  (or a phase, e.g. rollback to S1902M)",
    "replace Darcy with emmett@example.org  (or: … as Emmett)",
    "kick Darcy",
    "bot Darcy  (the game's bot plays the seat from the next deadline)",
    "end game",
    "message all: the text, which may go on over the following lines",
)
PLAYER_SYNTAX = (
    "status",
    "help",
    "resign  (then: resign confirm)",
    "away until 2026-12-01",
    "press to Barney: …   press to Barney, Darcy: …   press to all: …",
)

_FIRST_WORD = re.compile(r"^\s*([a-z]+)\b", re.I)


class CommandError(ValueError):
    """A command line that cannot be read; the message quotes it and says what would be read."""


@dataclass(frozen=True)
class Command:
    verb: str
    line: str  # as written, for the confirmation
    name: str = ""  # a seat (kick, replace)
    names: tuple[str, ...] = ()  # press addressees ("all" for everyone)
    email: str = ""  # replace … with ADDRESS
    new_name: str = ""  # replace … as NEWNAME
    duration: timedelta | None = None  # extend 24h
    until: str = ""  # "2026-12-28 20:00", read in the game's zone when applied
    round: str = ""  # rollback to round N (digits) or a phase key
    text: str = ""  # message all / press
    confirm: bool = False  # resign confirm


_Reader = Callable[[str, str], Command]


def first_verb(text: str) -> str | None:
    """The command word a mail starts with, if it starts with one (any case)."""
    for line in text.splitlines():
        if line.strip():
            match = _FIRST_WORD.match(line)
            word = match.group(1).lower() if match else ""
            return word if word in ORGANISER_VERBS + PLAYER_VERBS else None
    return None


def parse_commands(text: str) -> list[Command]:
    """Every command of a mail, in order. Raises CommandError on the first line that is none.
    ``message all:`` and ``press to …:`` take the rest of the mail as their text."""
    lines = text.splitlines()
    commands: list[Command] = []
    for number, raw in enumerate(lines):
        line = raw.strip()
        if not line:
            continue
        command = parse_line(line)
        if command.verb in ("message", "press"):
            rest = "\n".join(lines[number + 1 :]).strip()
            text_all = "\n".join(t for t in (command.text, rest) if t)
            if not text_all:
                raise CommandError(f"“{line}”: nothing to send; write the text after the colon")
            commands.append(Command(**{**command.__dict__, "text": text_all}))
            break
        commands.append(command)
    return commands


def parse_line(line: str) -> Command:
    match = _FIRST_WORD.match(line)
    verb = match.group(1).lower() if match else ""
    rest = line[match.end() :].strip() if match else line
    reader = _READERS.get(verb)
    if reader is None:
        known = ", ".join(ORGANISER_VERBS + PLAYER_VERBS)
        raise CommandError(f"“{line}” is no command; the commands are {known} (write `help` for more)")
    return reader(line, rest)


def _bare(verb: str, *allowed: str) -> _Reader:
    def read(line: str, rest: str) -> Command:
        if verb != "help" and rest.lower().rstrip(".!?") not in ("", *allowed):  # "Help! what now?" is help
            raise CommandError(f"“{line}”: `{verb}` takes nothing after it here")
        return Command(verb, line)

    return read


def _resume(line: str, rest: str) -> Command:
    if not rest:
        return Command("resume", line)
    until = _until(line, rest)
    return Command("resume", line, until=until)


def _extend(line: str, rest: str) -> Command:
    if rest.lower().startswith("until"):
        return Command("extend", line, until=_until(line, rest))
    try:
        duration = parse_duration(rest)
    except ValueError as e:
        raise CommandError(f"“{line}”: {e}, or extend until 2026-12-28 20:00") from None
    if duration <= timedelta(0):
        raise CommandError(f"“{line}”: extend by a positive time, e.g. extend 24h")
    return Command("extend", line, duration=duration)


def _rollback(line: str, rest: str) -> Command:
    match = re.fullmatch(r"(?:to\s+)?(?:round\s+)?(\S+)", rest, re.I)
    if not match:
        raise CommandError(f"“{line}”: write e.g. rollback to round 3")
    return Command("rollback", line, round=match.group(1))


def _replace(line: str, rest: str) -> Command:
    # The address bare or as a mail client writes it: "Emmett <emmett@example.org>".
    match = re.fullmatch(r"(.+?)\s+with\s+([^<\s]*\s*<[^>]+>|\S+)(?:\s+as\s+(.+))?", rest, re.I)
    address = parseaddr(match.group(2))[1].lower() if match else ""
    if not match or "@" not in address:
        raise CommandError(f"“{line}”: write e.g. replace Darcy with emmett@example.org as Emmett")
    new_name = (match.group(3) or "").strip()
    return Command("replace", line, name=match.group(1).strip(), email=address, new_name=new_name)


def _kick(line: str, rest: str) -> Command:
    if not rest:
        raise CommandError(f"“{line}”: say whom, e.g. kick Darcy")
    return Command("kick", line, name=rest.rstrip("."))


def _bot(line: str, rest: str) -> Command:
    if not rest:
        raise CommandError(f"“{line}”: say whose seat, e.g. bot Darcy")
    return Command("bot", line, name=rest.rstrip("."))


def _message(line: str, rest: str) -> Command:
    match = re.fullmatch(r"(?:to\s+)?all\s*:?\s*(.*)", rest, re.I | re.S)
    if not match:
        raise CommandError(f"“{line}”: write e.g. message all: the text")
    return Command("message", line, text=match.group(1).strip())


def _resign(line: str, rest: str) -> Command:
    if rest.lower().rstrip(".!") not in ("", "confirm", "confirmed"):
        raise CommandError(f"“{line}”: write `resign`, then `resign confirm` when asked")
    return Command("resign", line, confirm=bool(rest))


def _away(line: str, rest: str) -> Command:
    return Command("away", line, until=_until(line, rest))


def _press(line: str, rest: str) -> Command:
    match = re.fullmatch(r"to\s+([^:]+?)\s*:\s*(.*)", rest, re.I | re.S)
    if not match:
        raise CommandError(f"“{line}”: write e.g. press to Barney: the text (or press to all: …)")
    names = tuple(n.strip() for n in re.split(r",|\band\b", match.group(1)) if n.strip())
    return Command("press", line, names=names, text=match.group(2).strip())


def _until(line: str, rest: str) -> str:
    match = re.fullmatch(r"until\s+(\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2})?)", rest.strip(), re.I)
    if not match:
        raise CommandError(f"“{line}”: write the time as until 2026-12-28 20:00 (or until 2026-12-28)")
    try:
        until_time(match.group(1), ZoneInfo("UTC"))
    except ValueError:
        raise CommandError(f"“{line}”: {match.group(1)} is no date and time") from None
    return match.group(1)


def until_time(text: str, zone: ZoneInfo) -> datetime:
    """``2026-12-28 20:00`` in the game's zone; a date alone means the end of that day (23:59)."""
    if len(text) == 10:
        day = datetime.fromisoformat(text)
        return datetime.combine(day.date(), time(23, 59), tzinfo=zone)
    return datetime.fromisoformat(text.replace("T", " ")).replace(tzinfo=zone)


_READERS: dict[str, _Reader] = {
    "pause": _bare("pause", "game"),
    "resume": _resume,
    "extend": _extend,
    "process": _bare("process", "now", "the round now"),
    "rollback": _rollback,
    "replace": _replace,
    "kick": _kick,
    "bot": _bot,
    "end": _bare("end", "game", "the game"),
    "message": _message,
    "status": _bare("status"),
    "help": _bare("help"),
    "resign": _resign,
    "away": _away,
    "press": _press,
}
