"""Reading one command line (a mail's, or the line a CLI command stands for) into a ``Command``:
one reader per verb, each saying what it expected when a line does not read. Which verbs there are,
whose they are and which reader reads each is ``table.py``'s to say; ``organiser.py`` and
``players.py`` apply the commands."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from email.utils import parseaddr
from zoneinfo import ZoneInfo

from courier.config.schedule import LONGEST, UTC_ZONE, parse_duration

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
    text: str = ""  # message all / press; confirm's code


Reader = Callable[[str, str], Command]
"""Reads one line: (the line as written, what follows its command word) → the command."""


def command_word(line: str) -> tuple[str, str]:
    """The word a line starts with (in lower case; "" if none) and what follows it."""
    match = _FIRST_WORD.match(line)
    if not match:
        return "", line
    return match.group(1).lower(), line[match.end() :].strip()


def read_bare(verb: str, *allowed: str) -> Reader:
    def read(line: str, rest: str) -> Command:
        said = rest.lower().rstrip(".!?…")
        bare = re.sub(r"^the\s+", "", said)  # "pause the game…" is "pause game"
        if verb != "help" and said not in ("", *allowed) and bare not in allowed:  # "Help!" is help
            raise CommandError(f"“{line}”: `{verb}` takes nothing after it here")
        return Command(verb, line)

    return read


def read_resume(line: str, rest: str) -> Command:
    if not rest:
        return Command("resume", line)
    until = _until(line, rest)
    return Command("resume", line, until=until)


def read_extend(line: str, rest: str) -> Command:
    if rest.lower().startswith("until"):
        return Command("extend", line, until=_until(line, rest))
    try:
        duration = parse_duration(rest)
    except ValueError as e:
        raise CommandError(f"“{line}”: {e}, or extend until 2026-12-28 20:00") from None
    if duration <= timedelta(0):
        raise CommandError(f"“{line}”: extend by a positive time, e.g. extend 24h")
    return Command("extend", line, duration=duration)


def read_rollback(line: str, rest: str) -> Command:
    match = re.fullmatch(r"(?:to\s+)?(?:round\s+)?(\S+)", rest, re.I)
    if not match:
        raise CommandError(f"“{line}”: write e.g. rollback to round 3")
    return Command("rollback", line, round=match.group(1))


def read_replace(line: str, rest: str) -> Command:
    # The address bare or as a mail client writes it: "Emmett <emmett@example.org>".
    match = re.fullmatch(r"(.+?)\s+with\s+([^<\s]*\s*<[^>]+>|\S+)(?:\s+as\s+(.+))?", rest, re.I)
    address = parseaddr(match.group(2))[1].lower() if match else ""
    if not match or "@" not in address:
        raise CommandError(f"“{line}”: write e.g. replace Darcy with emmett@example.org as Emmett")
    new_name = (match.group(3) or "").strip()
    return Command("replace", line, name=match.group(1).strip(), email=address, new_name=new_name)


# "change address to new@example.org" (a player's own), "change my address to …", "change address of
# Darcy to …" (the organiser's); the address bare or as a mail client writes it.
_CHANGE = re.compile(
    r"(?:my\s+)?(?:e-?mail\s+)?address\s+(?:(?:of|for)\s+(?P<name>.+?)\s+)?to\s+(?P<address>[^<\s]*\s*<[^>]+>|\S+)",
    re.I,
)


def read_change(line: str, rest: str) -> Command:
    match = _CHANGE.fullmatch(rest.rstrip("."))
    address = parseaddr(match.group("address"))[1].lower() if match else ""
    if not match or "@" not in address:
        raise CommandError(f"“{line}”: write e.g. change address to new@example.org")
    return Command("change", line, name=(match.group("name") or "").strip(), email=address)


def read_kick(line: str, rest: str) -> Command:
    if not rest:
        raise CommandError(f"“{line}”: say whom, e.g. kick Darcy")
    return Command("kick", line, name=rest.rstrip("."))


def read_bot(line: str, rest: str) -> Command:
    if not rest:
        raise CommandError(f"“{line}”: say whose seat, e.g. bot Darcy")
    return Command("bot", line, name=rest.rstrip("."))


def read_message(line: str, rest: str) -> Command:
    match = re.fullmatch(r"(?:to\s+)?all\s*:?\s*(.*)", rest, re.I | re.S)
    if not match:
        raise CommandError(f"“{line}”: write e.g. message all: the text")
    return Command("message", line, text=match.group(1).strip())


def read_resign(line: str, rest: str) -> Command:
    # "resign confirm" (the old two-step) reads as `resign`: its answer carries the code to confirm.
    if rest.lower().rstrip(".!") not in ("", "confirm", "confirmed"):
        raise CommandError(f"“{line}”: write `resign`, then `confirm CODE` with the code in our answer")
    return Command("resign", line)


def read_confirm(line: str, rest: str) -> Command:
    match = re.fullmatch(r"([A-Za-z0-9]{4,12})[.!]?", rest.strip())
    if not match:
        raise CommandError(f"“{line}”: write `confirm` and the code from our mail, e.g. confirm K7P2QX")
    return Command("confirm", line, text=match.group(1).upper())


def read_away(line: str, rest: str) -> Command:
    return Command("away", line, until=_until(line, rest))


def read_press(line: str, rest: str) -> Command:
    # The text follows a colon, or starts on the next line ("press to Germany", then the message).
    match = re.fullmatch(r"to\s+([^:]+?)\s*(?::\s*(.*))?", rest, re.I | re.S)
    if not match:
        raise CommandError(f"“{line}”: write press to a player's name: the text (or press to all: …)")
    names = tuple(n.strip() for n in re.split(r",|\band\b", match.group(1)) if n.strip())
    return Command("press", line, names=names, text=(match.group(2) or "").strip())


def _until(line: str, rest: str) -> str:
    match = re.fullmatch(r"until\s+(\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2})?)", rest.strip(), re.I)
    if not match:
        raise CommandError(f"“{line}”: write the time as until 2026-12-28 20:00 (or until 2026-12-28)")
    try:
        until_time(match.group(1), ZoneInfo("UTC"))
    except ValueError:
        raise CommandError(f"“{line}”: {match.group(1)} is no date and time") from None
    return match.group(1)


def check_reach(command: Command, now: datetime, zone: ZoneInfo = UTC_ZONE) -> None:
    """A time a command names (``until …``) lies at most ``LONGEST`` ahead of ``now``: checked when
    the command is given (by CLI, in UTC) and when it applies (in the game's zone). Raises
    ``CommandError``; a time already passed is each command's own to refuse."""
    if command.until and until_time(command.until, zone) - now > LONGEST:
        raise CommandError(f"“{command.line}”: {command.until} is more than {LONGEST.days} days ahead")


def until_time(text: str, zone: ZoneInfo) -> datetime:
    """``2026-12-28 20:00`` in the game's zone; a date alone means the end of that day (23:59)."""
    if len(text) == 10:
        day = datetime.fromisoformat(text)
        return datetime.combine(day.date(), time(23, 59), tzinfo=zone)
    return datetime.fromisoformat(text.replace("T", " ")).replace(tzinfo=zone)
