"""The top of a Star Trek player's mail (issue 30): their faction's own result of the phase in one
line, and what the open phase asks of it. Under the fog of war it says only what the faction knows
of itself: its centres, its units, its own orders' results (the events the player may see)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Event
from engine.diplomacy import adjustment_due
from engine.startrek._events import OrderResolved
from engine.startrek._factions import MAP
from engine.startrek._parse import unit_text
from engine.startrek._state import StarTrekState

__all__ = ["asked", "headline"]

SHOWN = 2  # failed orders named in the line; the report lists them all
WORDS = {"succeeds": "succeeded", "fails": "failed", "illegal": "was illegal"}
SEASONS = {"spring": "Spring", "fall": "Fall", "winter": "Fall"}


def headline(state: StarTrekState, events: Sequence[Event], viewer: str) -> str | None:
    """ "You hold 6 centres and 5 units; 3 of 4 orders succeeded (F vulcan - qonos failed)"."""
    faction = state.factions.get(viewer)
    if faction is None:
        return None
    position = state.position
    centres, units = len(position.centres_of(faction)), len(position.units_of(faction))
    parts = [f"You hold {_count(centres, 'centre')} and {_count(units, 'unit')}"]
    dislodged = [unit_text(d.unit) for d in position.dislodged if d.unit.power == faction]
    if dislodged:
        parts.append(f"dislodged: {', '.join(dislodged)}")
    mine = [e for e in events if isinstance(e, OrderResolved) and e.faction == faction]
    results = {e.order: e.result for e in mine if e.given}
    parts.append(_orders(list(results.items())))
    # What the rules did for a ship nobody ordered is no order of the player's (as Diplomacy's).
    defaulted = list(dict.fromkeys(e.order for e in mine if not e.given))
    more = f" and {len(defaulted) - SHOWN} more" if len(defaulted) > SHOWN else ""
    parts.append(f"no order given: {', '.join(defaulted[:SHOWN])}{more}" if defaulted else "")
    return "; ".join(p for p in parts if p) + "."  # a sentence, at the top of the mail


def _orders(results: Sequence[tuple[str, str]]) -> str:
    if not results:
        return ""
    if len(results) == 1:
        order, result = results[0]
        return f"{order} {WORDS.get(result, 'failed')}"
    failed = [order for order, result in results if result != "succeeds"]
    if not failed:
        return f"all {len(results)} orders succeeded"
    named = ", ".join(failed[:SHOWN]) + (f" and {len(failed) - SHOWN} more" if len(failed) > SHOWN else "")
    return f"{len(results) - len(failed)} of {len(results)} orders succeeded ({named} failed)"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def asked(state: StarTrekState, player: str) -> str | None:
    """ "Orders for Spring 2370", "Retreats due: ship vulcan", "Builds: 2", "Disbands: 1"; nothing in an
    intelligence window (its orders stand; the informed may amend them)."""
    faction = state.factions.get(player)
    if faction is None or state.result is not None or state.held is not None:
        return None
    position = state.position
    match position.phase.kind:
        case "retreat":
            mine = [unit_text(d.unit) for d in position.dislodged if d.unit.power == faction]
            return f"Retreats due: {', '.join(mine)}" if mine else None
        case "adjustment":
            due = adjustment_due(MAP, position, faction)
            return f"Builds: {due}" if due > 0 else f"Disbands: {-due}" if due < 0 else None
    return f"Orders for {SEASONS[position.phase.season]} {position.phase.year}"
