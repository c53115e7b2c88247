"""A nation's order mail as text: reading it, line by line (the order forms are ``_view``'s)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from engine.core import LineError, Submission
from engine.monarchs._orders import Order, Orders, check_orders, read_line
from engine.monarchs._position import Position

HOLD = "hold"
HOLD_WORDS = frozenset({"hold", "no orders", "no moves", "pass", "nothing"})


def is_blank(line: str) -> bool:
    return not line.strip() or line.strip().startswith("#")


def read_orders(
    nation: str, position: Position, lines: list[str]
) -> tuple[Orders, list[LineError], list[str], bool]:
    """(orders that stand, errors, notes, whether the player said ``hold``)."""
    hold = any(line.strip().lower().rstrip(".!") in HOLD_WORDS for line in lines)
    read: list[tuple[str, Order | LineError]] = [
        (line, read_line(line)) for line in lines if line.strip().lower().rstrip(".!") not in HOLD_WORDS
    ]
    orders, errors, notes = check_orders(nation, position.armies, read)
    return orders, errors, notes, hold


def orders_submission(
    player: str, orders: Orders, errors: list[LineError], notes: list[str], hold: bool
) -> Submission:
    # “hold” with a boost alone stays: it says the moves standing from an earlier mail go (combine).
    lines = (HOLD, *orders.lines()) if hold and not orders.moves else orders.lines()
    if hold and orders.moves:
        notes = [*notes, "“hold” was ignored: the moves and boost in this mail stand."]
    return Submission(player, lines, tuple(errors), tuple(notes))


def boost_added(earlier: Submission | None, later: Submission) -> Submission | None:
    """A mail whose only order is a boost keeps the moves standing from an earlier one and boosts
    beside them (``hold`` with the boost clears them); ``None`` when that is not the case."""
    moves = [line for line in earlier.orders if _is_move(line)] if earlier is not None else []
    if not moves or not later.orders or not all(line.startswith("boost ") for line in later.orders):
        return None
    note = (
        f"This mail has only a boost, so it joins your moves from before ({'; '.join(moves)}); "
        "to drop those moves, send “hold” with the boost."
    )
    return dataclasses.replace(later, orders=(*moves, *later.orders), notes=(*later.notes, note))


def _is_move(line: str) -> bool:
    return line[:1].isdigit()  # canonical lines: “5 C5 D4”, “boost G9”, “hold”


def orders_from_lines(nation: str, position: Position, lines: tuple[str, ...]) -> Orders:
    """Standing canonical lines → orders, checked again against the map (illegal lines drop out)."""
    orders, _, _, _ = read_orders(nation, position, [line for line in lines if line != HOLD])
    return orders


def orders_by_nation(standing: Mapping[str, tuple[str, ...]], position: Position) -> dict[str, Orders]:
    return {nation: orders_from_lines(nation, position, lines) for nation, lines in standing.items()}
