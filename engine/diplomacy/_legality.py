"""Is a movement order legal on this map and board? A legal order comes back normalised (the unit
as it stands on the board, a fleet's destination with its coast); an illegal one comes back as an
``Illegal`` reason, and the unit holds (DATC 4.E.1). Coasts are read as leniently as the DATC
prefers: a missing coast is filled in when only one is reachable (4.B.2), the coast written for the
ordered unit is ignored (4.B.5), a wrong destination coast is illegal (4.B.3)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.diplomacy._map import Map
from engine.diplomacy._orders import Convoy, Hold, Move, MovementOrder, Support, Unit, province_of
from engine.diplomacy._position import Position
from engine.diplomacy._results import Illegal


def check_movement_order(map: Map, position: Position, order: MovementOrder) -> MovementOrder | Illegal:
    unit = board_unit(map, position, order.unit)
    if isinstance(unit, Illegal):
        return unit
    if isinstance(order, Hold):
        return Hold(unit)
    if isinstance(order, Move):
        return _check_move(map, position, unit, order)
    if isinstance(order, Support):
        return _check_support(map, position, unit, order)
    return _check_convoy(map, position, unit, order)


def board_unit(map: Map, position: Position, ordered: Unit) -> Unit | Illegal:
    """The unit the order addresses, as it stands (its real coast, whatever coast was written)."""
    province = map.aliases.get(ordered.province, ordered.province)
    unit = position.unit_in(province)
    if unit is None:
        return Illegal("no such unit")
    if unit.power != ordered.power:
        return Illegal("not your unit")
    if unit.type != ordered.type:
        return Illegal("wrong unit type")
    return unit


def fleet_destination(map: Map, origin: str, destination: str) -> str | Illegal:
    """The exact location a fleet at ``origin`` moves to when ordered to ``destination``."""
    if not map.is_location(destination):
        return Illegal("unknown place")
    if map.province(destination).kind == "land":
        return Illegal("fleet cannot go inland")
    if "/" in destination:
        return destination if map.adjacent("F", origin, destination) else Illegal("coast not reachable")
    reachable = map.fleet_destinations(origin, destination)
    if len(reachable) > 1:
        return Illegal("coast not specified")
    return reachable[0] if reachable else Illegal("not adjacent")


def _check_move(map: Map, position: Position, unit: Unit, order: Move) -> Move | Illegal:
    target = map.aliases.get(province_of(order.destination), province_of(order.destination))
    if target not in map.provinces:
        return Illegal("unknown place")
    if target == unit.province:
        return Illegal("move to own province")
    if unit.type == "F":
        if order.via_convoy:
            return Illegal("only armies are convoyed")
        coast = order.destination.partition("/")[2]
        destination = fleet_destination(map, unit.location, f"{target}/{coast}" if coast else target)
        return destination if isinstance(destination, Illegal) else Move(unit, destination)
    reason = army_move_problem(map, position, unit.province, target)
    return Illegal(reason) if reason else Move(unit, target, order.via_convoy)


def army_move_problem(map: Map, position: Position, origin: str, target: str, *, without: str = "") -> str:
    """Why an army at ``origin`` could not move to ``target`` on this board ("" if it could): over
    land, or along fleets at sea (other than the one in ``without``) (DATC 4.E.1)."""
    if map.provinces[target].kind == "sea":
        return "army cannot go to sea"
    if map.adjacent("A", origin, target):
        return ""
    fleets = [loc for loc in _fleets_at_sea(map, position) if province_of(loc) != without]
    return "" if any(convoy_chains(map, fleets, origin, target)) else "not adjacent"


def _fleets_at_sea(map: Map, position: Position) -> list[str]:
    return sorted(
        u.location for u in position.units if u.type == "F" and map.province(u.location).kind == "sea"
    )


def convoy_chains(map: Map, fleets: list[str], origin: str, target: str) -> Iterator[tuple[str, ...]]:
    """Every chain of fleets that could carry an army from ``origin`` to ``target`` with no fleet
    to spare: each fleet touches only its neighbours in the chain, the first the origin and the
    last the destination. A fleet in none of them is not needed by any convoy (DATC 6.G.19)."""
    if map.provinces[origin].kind != "coast" or map.provinces[target].kind != "coast":
        return

    def extend(chain: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
        if map.reaches_province("F", chain[-1], target):
            yield chain
            return
        for fleet in fleets:
            if (
                fleet not in chain
                and map.adjacent("F", chain[-1], fleet)
                and not map.reaches_province("F", fleet, origin)
                and not any(map.adjacent("F", earlier, fleet) for earlier in chain[:-1])
            ):
                yield from extend((*chain, fleet))

    for first in fleets:
        if map.reaches_province("F", first, origin):
            yield from extend((first,))


def _check_support(map: Map, position: Position, unit: Unit, order: Support) -> Support | Illegal:
    supported = map.aliases.get(province_of(order.supported), province_of(order.supported))
    if position.unit_in(supported) is None:
        return Illegal("no unit to support")
    if supported == unit.province:
        return Illegal("cannot support itself")
    if order.destination is None:
        target = supported
    else:
        target = map.aliases.get(province_of(order.destination), province_of(order.destination))
        if target not in map.provinces:
            return Illegal("unknown place")
        if target == supported:
            return Illegal("support to own province")
    if not map.reaches_province(unit.type, unit.location, target):
        return Illegal("cannot reach")
    if order.destination is None:
        return Support(unit, supported, None, order.supported_type)
    mover = position.unit_in(supported)
    assert mover is not None
    if mover.type == "F" and not map.reaches_province("F", mover.location, target):
        return Illegal("supported unit cannot go there")
    if mover.type == "A" and army_move_problem(map, position, supported, target, without=unit.province):
        return Illegal("supported unit cannot go there")
    # A coast written in the support must match the move's; none matches any (DATC 4.B.4).
    coast = order.destination.partition("/")[2]
    return Support(unit, supported, f"{target}/{coast}" if coast else target, order.supported_type)


def _check_convoy(map: Map, position: Position, unit: Unit, order: Convoy) -> Convoy | Illegal:
    if unit.type != "F" or map.province(unit.location).kind != "sea":
        return Illegal("only fleets at sea convoy")
    army_province = map.aliases.get(province_of(order.army), province_of(order.army))
    army = position.unit_in(army_province)
    if army is None or army.type != "A":
        return Illegal("no army to convoy")
    destination = map.aliases.get(province_of(order.destination), province_of(order.destination))
    if destination not in map.provinces or map.provinces[destination].kind != "coast":
        return Illegal("cannot convoy there")
    if destination == army_province:
        return Illegal("move to own province")
    chains = convoy_chains(map, _fleets_at_sea(map, position), army_province, destination)
    if not any(unit.location in chain for chain in chains):
        return Illegal("not on a convoy route")
    return Convoy(unit, army_province, destination)
