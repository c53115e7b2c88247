"""The orders on file: each player's lines standing in the phase, kept in the state as their mails
arrive (``immediate``), so that every order form shows them: a form copied back, as the mail says,
no longer reverts a `vote yes` to the form's `vote no` (issue 29, as Diplomacy and Star Trek do).
A mail replaces the orders whole (``engine.core.Game.combine``); its receipt says which line
replaced an earlier one and which earlier line no longer stands. Private; cleared at resolution."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from engine.veneer._state import VeneerState

_ONE_PER_PHASE = ("choose", "vote", "intercept")


def filed(state: VeneerState, player: str) -> tuple[str, ...]:
    return dict(state.on_file).get(player, ())


def file_orders(state: VeneerState, player: str, orders: Sequence[str]) -> VeneerState:
    """``orders`` stand for ``player`` now (a mail with none changes nothing)."""
    if not orders:
        return state
    kept = tuple((p, lines) for p, lines in state.on_file if p != player)
    return dataclasses.replace(state, on_file=(*kept, (player, tuple(orders))))


def slot(line: str) -> str:
    """What an order line is about, canonical text read: ``vote``, ``buy attacker``, ``attack Darcy``."""
    words = line.split()
    verb = words[0] if words else ""
    if verb in _ONE_PER_PHASE:
        return verb
    if verb in ("buy", "reassign"):
        return f"{verb} {words[-1].rstrip('s')}"
    if verb == "attack":
        return line.rsplit(" with ", 1)[0]
    if verb in ("lend", "return") and " to " in line:
        return f"{verb} {line.split(' to ', 1)[1]}"
    return line


def replaced_notes(earlier: Sequence[str], later: Sequence[str]) -> list[str]:
    """The receipt's word on each earlier line a mail replaced or dropped (none when the mail has no
    order: the earlier ones stand)."""
    if not later:
        return []
    before = {slot(line): line for line in earlier}
    now = {slot(line) for line in later}
    notes = [
        f"“{line}” replaces your earlier order “{before[slot(line)]}”."
        for line in later
        if before.get(slot(line), line) != line
    ]
    notes += [
        f"Your earlier order “{line}” no longer stands: a mail replaces your orders whole "
        "(write it again to keep it)."
        for key, line in before.items()
        if key not in now
    ]
    return notes
