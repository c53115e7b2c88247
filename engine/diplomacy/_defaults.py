"""What the rules do for what nobody ordered, so that the report lists it as a judge's does: a unit
without an order holds, a dislodged unit without one disbands, a build not ordered is waived, and a
power that disbands too few loses units by civil disorder."""

from __future__ import annotations

from collections.abc import Sequence

from engine.diplomacy._map import Map
from engine.diplomacy._orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, Support, Waive
from engine.diplomacy._phases import adjustment_due
from engine.diplomacy._position import Position


def unordered(position: Position, orders: Sequence[Order]) -> list[Hold | Disband]:
    """The holds (movement) and disbands (retreats) the rules give units nobody ordered, to be
    adjudicated with the orders given: a hold may be dislodged."""
    kind = position.phase.kind
    silent: list[Hold | Disband] = []
    if kind == "movement":
        moving = {o.unit.province for o in orders if isinstance(o, (Hold, Move, Support, Convoy))}
        silent += [Hold(u) for u in position.units if u.province not in moving]
    elif kind == "retreat":
        retreating = {o.unit.province for o in orders if isinstance(o, (Retreat, Disband))}
        silent += [Disband(d.unit) for d in position.dislodged if d.unit.province not in retreating]
    return silent


def unordered_adjustments(
    map: Map, position: Position, orders: Sequence[Order], after: Position
) -> list[tuple[str, str]]:
    """(power, order) for each build waived because it was not ordered, and each unit lost by
    civil disorder (``after``: the position the adjustments left)."""
    if position.phase.kind != "adjustment":
        return []
    done: list[tuple[str, str]] = []
    remaining = set(after.units)
    disbanded = {o.unit.province for o in orders if isinstance(o, Disband)}
    for power in position.powers:
        due = adjustment_due(map, position, power)
        given = sum(1 for o in orders if isinstance(o, (Build, Waive)) and o.power == power)
        done += [(power, str(Waive(power)))] * max(0, due - given)
        done += [
            (power, str(Disband(u)))
            for u in position.units_of(power)
            if u not in remaining and u.province not in disbanded
        ]
    return done
