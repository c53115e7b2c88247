"""The orders on file: each power's orders standing in the phase, kept in the state as its mails
arrive (``immediate``), so that every order form shows them, as a judge's does, and a reply that
returns the form with one line changed changes that one order. A receipt says which line replaced
an earlier order, and when a mail withdraws a draw vote by leaving it out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

DRAW = "draw"
NO_DRAW = "no draw"  # read from a mail, never on file: it withdraws the vote


def unit_key(line: str) -> str:
    """The unit or place an order line is about: ``A par`` for ``A par - bur``; ``waive``."""
    return " ".join(line.split()[:2])


def combine_lines(earlier: Sequence[str], later: Sequence[str]) -> tuple[str, ...]:
    """A later mail replaces the orders of the units it orders and the draw vote (kept only by a
    ``draw`` line of its own); the other units keep theirs. A mail with no order changes nothing."""
    if not later:
        return tuple(earlier)
    ordered = {unit_key(line) for line in later}
    kept = tuple(line for line in earlier if unit_key(line) not in ordered and line != DRAW)
    return kept + tuple(line for line in later if line != NO_DRAW)


def amendment_notes(on_file: Sequence[str], later: Sequence[str]) -> list[str]:
    """The receipt's word on each order this mail replaced, and on a draw vote it withdrew."""
    earlier = {unit_key(line): line for line in on_file if line != DRAW}
    notes = [
        f"“{line}” replaces your earlier order “{earlier[unit_key(line)]}”."
        for line in later
        if line not in (DRAW, NO_DRAW) and earlier.get(unit_key(line), line) != line
    ]
    if DRAW in on_file and NO_DRAW in later:
        notes.append("Your draw vote is withdrawn.")
    elif later and DRAW in on_file and DRAW not in later:
        notes.append("Your draw vote is withdrawn: this mail has no `draw` line (add one to keep it).")
    return notes


def on_file_of(on_file: Mapping[str, Sequence[str]], power: str) -> dict[str, str]:
    """A power's orders on file by unit (``A par`` → ``A par - bur``), the draw vote left out."""
    return {unit_key(line): line for line in on_file.get(power, ()) if line not in (DRAW, NO_DRAW)}
