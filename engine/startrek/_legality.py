"""What a receipt says at once of a movement order the adjudicator will throw out (issue 30 QA:
players ordered moves along lanes that do not exist and learnt it only from the results, "illegal:
not adjacent"). The same check the turn makes (``engine.diplomacy``'s legality on Star Trek's map)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.diplomacy import (
    Convoy,
    Hold,
    Illegal,
    Move,
    MovementOrder,
    Order,
    Position,
    Support,
    Unit,
    check_movement_orders,
)
from engine.startrek._factions import MAP
from engine.startrek._parse import display, explain

__all__ = ["illegal_notes"]


def illegal_notes(position: Position, orders: Sequence[Order]) -> list[str]:
    """``ship risa - bajor: illegal (not adjacent); the unit will hold`` for each such order."""
    if position.phase.kind != "movement":
        return []
    movement: dict[Unit, MovementOrder] = {
        o.unit: o for o in orders if isinstance(o, (Hold, Move, Support, Convoy))
    }
    checked = check_movement_orders(MAP, position, movement)
    return [
        f"{display(order)}: illegal ({explain(outcome.reason)}); the unit will hold"
        for order, outcome in checked.outcomes
        if isinstance(outcome, Illegal)
    ]
