"""What a reply may echo of a player's mail: printable text only, a screenful at most.

A mail of 10,000 gift lines or one 1 MB line must not come back as a megabyte receipt, and control
characters (NUL, terminal escapes, bidi overrides) from a mail are never echoed to anyone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.core import LineError

MAX_PROBLEMS = 20  # lines not understood, quoted one by one
MAX_ORDERS = 100  # orders echoed (understood, or standing)
LINE_CHARS = 120

# C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides and isolates.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    return _CONTROL.sub("", text)


def shorten(text: str, limit: int = LINE_CHARS) -> str:
    """One line of at most ``limit`` characters, printable, marked where it was cut."""
    line = " ".join(printable(text).split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def problems(errors: Sequence[LineError]) -> tuple[list[LineError], str | None]:
    """The first screenful of mistakes, each quote cut, and a note counting the rest."""
    shown = [
        LineError(shorten(e.line), shorten(e.reason, 2 * LINE_CHARS), e.suggestion and shorten(e.suggestion))
        for e in errors[:MAX_PROBLEMS]
    ]
    more = len(errors) - len(shown)
    return shown, (f"…and {more} more lines not understood." if more else None)


def orders(lines: Sequence[str]) -> list[str]:
    shown = [shorten(line, 2 * LINE_CHARS) for line in lines[:MAX_ORDERS]]
    more = len(lines) - len(shown)
    return [*shown, f"…and {more} more."] if more else shown


def notes(lines: Sequence[str]) -> list[str]:
    return [shorten(line, 4 * LINE_CHARS) for line in lines[:MAX_PROBLEMS]]
