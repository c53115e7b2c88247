"""Confirmation codes: what stands between a forged From line and a command that changes who holds a
seat or ends a game (the table's ``guarded`` commands).

Anyone can write another's address in a From line, and the default auth mode (`no-fail`) believes
it unless the receiving server saw a failure. So a guarded command given by mail without further
proof (a trusted DKIM/DMARC pass, or the organiser's secret) is not applied: its text waits under a
code mailed only to the registered address, and applies when that address answers `confirm CODE`.
A forger never sees the code; the real organiser or player learns of the attempt. A player's
`resign` always takes this road: the code is also its "are you sure?".

Pending codes live in the game's control entry (``confirming``): code → who asked, their address,
the text, when. A code is used once, holds for ``LIFETIME`` and at most ``MOST_PENDING`` wait per
game (the oldest go first), so forged mail cannot fill the journal."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from courier.commands.step import Refused, Step
from courier.journal.interface import Journal
from courier.state.control import control

LIFETIME = timedelta(days=3)
MOST_PENDING = 20
# No 0/O, 1/I/L: a code copied by hand from a phone still reads.
_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
_LENGTH = 6


def ask(step: Step, *, who: str, address: str, text: str) -> str:
    """Keep ``text`` until ``address`` confirms it; the code to mail to that address (and only there)."""
    code = "".join(secrets.choice(_ALPHABET) for _ in range(_LENGTH))
    waiting = _live(step)
    waiting[code] = {"who": who, "address": address.lower(), "text": text, "at": step.tick.now.isoformat()}
    kept = sorted(waiting.items(), key=lambda item: str(item[1]["at"]))[-MOST_PENDING:]
    step.control(confirming=dict(kept))
    return code


def take(step: Step, code: str, *, who: str, address: str) -> str:
    """The text a code stands for, given by the one it was mailed to; used up. Refused otherwise
    (the same words whether the code is unknown, expired or someone else's: a guess learns nothing)."""
    waiting = _live(step)
    found = waiting.get(code.strip().upper())
    if found is None or found["who"] != who or found["address"] != address.lower():
        step.control(confirming=waiting)
        raise Refused(
            f"no command waits for the code {code.strip()!r} from you (a code holds for"
            f" {LIFETIME.days} days and is used once); give the command again for a new one"
        )
    del waiting[code.strip().upper()]
    step.control(confirming=waiting)
    return str(found["text"])


def waits(journal: Journal, game: str, codes: set[str], *, who: str) -> bool:
    """Whether one of these codes waits in this game for ``who`` (to route a `confirm` mail)."""
    waiting = control(journal, game).get("confirming", {})
    return any(waiting.get(code, {}).get("who") == who for code in codes)


def peek(journal: Journal, game: str, code: str) -> str:
    """The text a code stands for, left waiting ("" if none): what a `confirm` will apply."""
    return str(control(journal, game).get("confirming", {}).get(code, {}).get("text", ""))


def asking(code: str, lines: list[str], *, why: str) -> list[str]:
    """The answer that carries the code: what waits, why, and the one line to send back."""
    return [
        f"Nothing was done yet: {why}",
        "Waiting: " + "; ".join(lines) + ".",
        f"To do it, reply to this mail with the line `confirm {code}`. The code was mailed only to your"
        f" address; it holds for {LIFETIME.days} days and is used once. If you did not send this, ignore"
        " this mail: nothing changes.",
    ]


def _live(step: Step) -> dict[str, dict[str, Any]]:
    waiting: dict[str, dict[str, Any]] = control(step.tick.journal, step.row.id).get("confirming", {})
    now = step.tick.now
    return {c: w for c, w in waiting.items() if datetime.fromisoformat(w["at"]) + LIFETIME > now}
