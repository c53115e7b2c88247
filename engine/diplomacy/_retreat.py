"""The retreat phase: each dislodged unit retreats to an adjacent empty province that is not
contested and not the attacker's origin (unless that attacker came by convoy, DATC 4.A.5), or
disbands. Two retreats to one province both disband; a unit without a valid order disbands."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

from engine.diplomacy._legality import fleet_destination
from engine.diplomacy._map import Map
from engine.diplomacy._orders import Disband, Retreat, RetreatOrder, Unit, province_of
from engine.diplomacy._phases import STANDARD_SEASONS, end_of_season
from engine.diplomacy._position import DislodgedUnit, Position, Season
from engine.diplomacy._results import Bounced, Duplicate, Illegal, OrderResult, RetreatResult


def retreat_options(map: Map, position: Position, dislodged: DislodgedUnit) -> tuple[str, ...]:
    """Where a dislodged unit may retreat (locations, coasts spelt out for fleets)."""
    unit = dislodged.unit
    occupied = {u.province for u in position.units}
    closed = occupied | position.contested
    if not dislodged.via_convoy:
        closed = closed | {dislodged.attacker_from}
    return tuple(loc for loc in map.neighbours(unit.type, unit.location) if province_of(loc) not in closed)


def resolve_retreats(
    map: Map,
    position: Position,
    orders: Mapping[Unit, RetreatOrder],
    *,
    seasons: Sequence[Season] = STANDARD_SEASONS,
) -> RetreatResult:
    results: dict[RetreatOrder, OrderResult] = {}
    moving: dict[RetreatOrder, tuple[Unit, Unit]] = {}  # valid retreats: order -> (unit, unit after)
    ordered: set[Unit] = set()
    for order in orders.values():
        dislodged = _find(map, position, order.unit)
        if isinstance(dislodged, Illegal):
            results[order] = OrderResult(order, False, dislodged)
        elif dislodged.unit in ordered:
            results[order] = OrderResult(order, False, Duplicate())
        elif isinstance(order, Disband):
            ordered.add(dislodged.unit)
            results[order] = OrderResult(order, True)
        else:
            ordered.add(dislodged.unit)
            target = _destination(map, position, dislodged, order)
            if isinstance(target, Illegal):
                results[order] = OrderResult(order, False, target)
            else:
                moving[order] = (dislodged.unit, Unit(dislodged.unit.power, dislodged.unit.type, target))
    crowded = Counter(new.province for _, new in moving.values())
    retreated: list[tuple[Unit, Unit]] = []
    for order, (old, new) in moving.items():
        if crowded[new.province] > 1:
            others = tuple(o.province for o, n in moving.values() if n.province == new.province and o != old)
            results[order] = OrderResult(order, False, Bounced(others))
        else:
            results[order] = OrderResult(order, True)
            retreated.append((old, new))
    survivors = {old for old, _ in retreated}
    disbanded = tuple(d.unit for d in position.dislodged if d.unit not in survivors)
    after = end_of_season(map, _position_with(position, [new for _, new in retreated]), seasons=seasons)
    return RetreatResult(
        results=tuple(results[o] for o in orders.values()),
        retreated=tuple(sorted(new for _, new in retreated)),
        disbanded=disbanded,
        position=after,
    )


def _position_with(position: Position, arrivals: list[Unit]) -> Position:
    return replace(position, units=tuple(sorted(position.units + tuple(arrivals))), dislodged=())


def _find(map: Map, position: Position, ordered: Unit) -> DislodgedUnit | Illegal:
    province = map.aliases.get(ordered.province, ordered.province)
    found = next((d for d in position.dislodged if d.unit.province == province), None)
    if found is None:
        return Illegal("no dislodged unit")
    if found.unit.power != ordered.power:
        return Illegal("not your unit")
    if found.unit.type != ordered.type:
        return Illegal("wrong unit type")
    return found


def _destination(map: Map, position: Position, dislodged: DislodgedUnit, order: Retreat) -> str | Illegal:
    unit = dislodged.unit
    if unit.type == "F":
        target = fleet_destination(map, unit.location, order.destination)
        if isinstance(target, Illegal):
            return target
    else:
        target = map.aliases.get(province_of(order.destination), province_of(order.destination))
    if target not in retreat_options(map, position, dislodged):
        return Illegal("cannot retreat there")
    return target
