"""Who a round still waits for, said once for `courier status`, the reminders, early resolution and
the Ledger: a player is awaited while the game awaits them and no valid orders of theirs stand. A
mail in which nothing could be used (only mistakes, a greeting, or a Truce gift, which took effect on
receipt and leaves no action standing) is no orders: its writer is still reminded and waited for."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from courier.journal.interface import GameRow, Journal
from courier.state.control import away, kicked
from engine.core import Ruleset, Standing


def with_orders(journal: Journal, row: GameRow) -> dict[str, datetime]:
    """The players with valid orders standing in the open round, and when their last mail came."""
    standing = journal.standing(row.id, row.phase_key)
    return {player: received for player, (orders, received) in standing.items() if orders.get("orders")}


def awaited(
    journal: Journal, ruleset: Ruleset, row: GameRow, state: Any, *, now: datetime, bots: Iterable[str]
) -> list[str]:
    """Who the round waits for, sorted: awaited by the game, with no valid orders standing and none
    the game keeps for them (``Standing``), and neither gone (kicked, resigned), away nor played by
    the bot. Nobody once the game is over, however it ended."""
    if row.finished:
        return []
    waiting = set(ruleset.awaiting(state)) - with_orders(journal, row).keys()
    waiting -= kicked(row) | away(journal, row.id, now) | set(bots)
    if isinstance(ruleset, Standing):
        waiting = {p for p in waiting if ruleset.standing(state, p) is None}
    return sorted(waiting)


def phase_shown(ruleset: Ruleset, state: Any, row: GameRow) -> str:
    """The phase as the Ledger and `courier status` name it: a game the organiser ended says so (its
    state still stands in the round it was ended in)."""
    label = ruleset.phase(state).label
    if row.finished and ruleset.outcome(state) is None:
        return f"Game over (ended by the organiser during {label})"
    return label
