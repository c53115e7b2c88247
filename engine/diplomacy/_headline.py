"""The top of a Diplomacy player's mail (issue 30): their power's own result of the phase in one
line, and what the open phase asks of it. Diplomacy hides nothing once a phase is resolved."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.core import Event
from engine.diplomacy._events import OrderDefaulted, OrderResolved
from engine.diplomacy._phases import adjustment_due
from engine.diplomacy._variant import find_variant

if TYPE_CHECKING:
    from engine.diplomacy._position import Position
    from engine.diplomacy._ruleset import DiplomacyState

__all__ = ["asked", "defaults_said", "headline", "orders_said", "units_said"]

SHOWN = 2  # failed orders named in the line; the report lists them all
WORDS = {"succeeds": "succeeded", "fails": "failed", "illegal": "was illegal"}


def headline(state: DiplomacyState, events: Sequence[Event], viewer: str) -> str | None:
    """ "You hold 6 centres and 5 units; 3 of 4 orders succeeded (F bre - mao failed)"."""
    power = state.powers.get(viewer)
    if power is None:
        return None
    results = [(e.order, e.result) for e in events if isinstance(e, OrderResolved) and e.power == power]
    # What the rules did for units and builds nobody ordered is no order of the player's to succeed.
    defaulted = [e.order for e in events if isinstance(e, OrderDefaulted) and e.power == power]
    said = (units_said(state.position, power), orders_said(results), defaults_said(defaulted))
    return "; ".join(filter(None, said)) + "."  # a sentence, at the top of the mail


def units_said(position: Position, power: str) -> str:
    """ "You hold 6 centres and 5 units", and any unit of the power dislodged."""
    centres, units = len(position.centres_of(power)), len(position.units_of(power))
    held = f"You hold {_count(centres, 'centre')} and {_count(units, 'unit')}"
    dislodged = [str(d.unit) for d in position.dislodged if d.unit.power == power]
    return f"{held}; dislodged: {', '.join(dislodged)}" if dislodged else held


def orders_said(results: Sequence[tuple[str, str]]) -> str:
    """ "3 of 4 orders succeeded (F bre - mao failed)"; "" with no orders."""
    if not results:
        return ""
    failed = [order for order, result in results if result != "succeeds"]
    if len(results) == 1:
        order, result = results[0]
        return f"{order} {WORDS.get(result, 'failed')}"
    if not failed:
        return f"all {len(results)} orders succeeded"
    done = f"{len(results) - len(failed)} of {len(results)} orders succeeded"
    named = ", ".join(failed[:SHOWN]) + (f" and {len(failed) - SHOWN} more" if len(failed) > SHOWN else "")
    return f"{done} ({named} failed)"


def defaults_said(orders: Sequence[str]) -> str:
    """ "no order given: A con H, A smy H and 1 more"; "" when every unit and build was ordered."""
    if not orders:
        return ""
    more = f" and {len(orders) - SHOWN} more" if len(orders) > SHOWN else ""
    return f"no order given: {', '.join(orders[:SHOWN])}{more}"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def asked(state: DiplomacyState, player: str) -> str | None:
    """ "Orders for Spring 1901", "Retreats due: A par", "Builds: 2", "Disbands: 1"."""
    power = state.powers.get(player)
    if power is None or state.result is not None:
        return None
    position = state.position
    match position.phase.kind:
        case "retreat":
            mine = [str(d.unit) for d in position.dislodged if d.unit.power == power]
            return f"Retreats due: {', '.join(mine)}" if mine else None
        case "adjustment":
            due = adjustment_due(find_variant(state.variant).map, position, power)
            return f"Builds: {due}" if due > 0 else f"Disbands: {-due}" if due < 0 else None
    return f"Orders for {position.phase.season.title()} {position.phase.year}"
