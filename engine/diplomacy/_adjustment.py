"""The adjustment phase: builds on owned, empty home centres and disbands, each power up to the
number it is due, orders taken in the order given (DATC 4.D.4, 4.D.6). A power that disbands too
few loses units by civil disorder, the 2023 way (DATC 4.D.8): farthest from any of its centres
first, distance counted in steps over land or sea whatever the unit type; on a tie fleets before
armies, then by province name."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.diplomacy._map import Map
from engine.diplomacy._orders import AdjustmentOrder, Build, Disband, Unit, Waive
from engine.diplomacy._phases import STANDARD_SEASONS, adjustment_due, after_adjustments
from engine.diplomacy._position import Position, Season
from engine.diplomacy._results import AdjustmentResult, Duplicate, Illegal, NoneAllowed, OrderResult, Reason


def resolve_adjustments(
    map: Map,
    position: Position,
    orders: Sequence[AdjustmentOrder],
    *,
    seasons: Sequence[Season] = STANDARD_SEASONS,
) -> AdjustmentResult:
    due = {power: adjustment_due(map, position, power) for power in position.powers}
    done = dict.fromkeys(due, 0)
    built: list[Unit] = []
    removed: list[Unit] = []
    results = []
    for order in orders:
        power = order.unit.power if isinstance(order, Disband) else order.power
        outcome: Reason | None = _check(map, position, order, built, removed)
        if outcome is None and done.get(power, 0) >= abs(due.get(power, 0)):
            outcome = NoneAllowed()
        if outcome is None and isinstance(order, Build) == (due.get(power, 0) < 0):
            outcome = NoneAllowed()  # a build when disbands are due, or the reverse
        if outcome is None:
            done[power] += 1
            if isinstance(order, Build):
                built.append(Unit(order.power, order.type, order.location))
            elif isinstance(order, Disband):
                removed.append(_unit_at(position, order.unit))
        results.append(OrderResult(order, outcome is None, outcome))
    for power, count in due.items():
        if count < 0 and done[power] < -count:
            removed += civil_disorder(map, position, power, -count - done[power], exclude=removed)
    units = tuple(sorted([u for u in position.units if u not in removed] + built))
    after = after_adjustments(replace(position, units=units), seasons=seasons)
    return AdjustmentResult(tuple(results), tuple(built), tuple(removed), after)


def _check(
    map: Map, position: Position, order: AdjustmentOrder, built: list[Unit], removed: list[Unit]
) -> Illegal | Duplicate | None:
    if isinstance(order, Waive):
        return None
    if isinstance(order, Disband):
        unit = position.unit_in(order.unit.province)
        if unit is None or unit.power != order.unit.power or unit.type != order.unit.type:
            return Illegal("no such unit")
        return Duplicate() if unit in removed else None
    return _check_build(map, position, order, built)


def _check_build(map: Map, position: Position, order: Build, built: list[Unit]) -> Illegal | Duplicate | None:
    if not map.is_location(order.location):
        return Illegal("unknown place")
    province = map.province(order.location)
    if province.home_of != order.power:
        return Illegal("not a home centre")
    if province.key not in position.centres_of(order.power):
        return Illegal("centre not owned")
    if position.unit_in(province.key) is not None:
        return Illegal("occupied")
    if any(u.province == province.key for u in built):
        return Duplicate()
    if order.type == "F" and province.kind == "land":
        return Illegal("fleet cannot be built inland")
    if order.type == "F" and province.coasts and "/" not in order.location:
        return Illegal("coast not specified")
    if order.type == "A" and "/" in order.location:
        return Illegal("army on a coast")
    return None


def _unit_at(position: Position, ordered: Unit) -> Unit:
    unit = position.unit_in(ordered.province)
    assert unit is not None
    return unit


def civil_disorder(
    map: Map, position: Position, power: str, count: int, *, exclude: list[Unit]
) -> list[Unit]:
    """The ``count`` units a power loses when it does not order enough disbands."""
    distances = _distances(map, position.centres_of(power))
    candidates = [u for u in position.units_of(power) if u not in exclude]
    far = len(map.provinces)
    candidates.sort(
        key=lambda u: (-distances.get(u.province, far), u.type != "F", map.provinces[u.province].name)
    )
    return candidates[:count]


def _distances(map: Map, sources: frozenset[str]) -> dict[str, int]:
    """Steps from the nearest of ``sources`` to every province, over any edge of the map."""
    edges: dict[str, set[str]] = {}
    for a, b in map.army_edges | map.fleet_edges:
        edges.setdefault(a.split("/")[0], set()).add(b.split("/")[0])
    distance = dict.fromkeys(sources, 0)
    frontier = sorted(sources)
    while frontier:
        nxt = []
        for province in frontier:
            for other in sorted(edges.get(province, ())):
                if other not in distance:
                    distance[other] = distance[province] + 1
                    nxt.append(other)
        frontier = nxt
    return distance
