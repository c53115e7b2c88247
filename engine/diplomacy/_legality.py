"""Is a movement order legal on this map and board? A legal order comes back normalised (the unit
as it stands on the board, a fleet's destination with its coast); an illegal one comes back as an
``Illegal`` reason, and the unit holds (DATC 4.E.1). Coasts are read as leniently as the DATC
prefers: a missing coast is filled in when only one is reachable (4.B.2), the coast written for the
ordered unit is ignored (4.B.5), a wrong destination coast is illegal (4.B.3)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache

from engine.diplomacy._board import MapIndex, map_index
from engine.diplomacy._map import Map
from engine.diplomacy._orders import Convoy, Hold, Move, MovementOrder, Support, Unit
from engine.diplomacy._position import Position
from engine.diplomacy._results import Illegal


def check_movement_order(map: Map, position: Position, order: MovementOrder) -> MovementOrder | Illegal:
    return check_order(map_index(map), position, order)


def check_order(index: MapIndex, position: Position, order: MovementOrder) -> MovementOrder | Illegal:
    """``check_movement_order`` on an indexed map. An order already in normal form comes back as is."""
    unit = _board_unit(index, position, order.unit)
    if isinstance(unit, Illegal):
        return unit
    if isinstance(order, Move):
        return _check_move(index, position, unit, order)
    if isinstance(order, Support):
        return _check_support(index, position, unit, order)
    if isinstance(order, Convoy):
        return _check_convoy(index, position, unit, order)
    return order if order.unit.location == unit.location else Hold(unit)


def _board_unit(index: MapIndex, position: Position, ordered: Unit) -> Unit | Illegal:
    """The unit the order addresses, as it stands (its real coast, whatever coast was written)."""
    unit = position.unit_in(index.place(ordered.location))
    if unit is None:
        return Illegal("no such unit")
    if unit.power != ordered.power:
        return Illegal("not your unit")
    if unit.type != ordered.type:
        return Illegal("wrong unit type")
    return unit


def fleet_destination(map: Map, origin: str, destination: str) -> str | Illegal:
    """The exact location a fleet at ``origin`` moves to when ordered to ``destination``."""
    return _fleet_destination(map_index(map), origin, destination)


def _fleet_destination(index: MapIndex, origin: str, destination: str) -> str | Illegal:
    province = index.locations.get(destination)
    if province is None:
        return Illegal("unknown place")
    if index.kind[province] == "land":
        return Illegal("fleet cannot go inland")
    if "/" in destination:
        return destination if index.fleet_adjacent(origin, destination) else Illegal("coast not reachable")
    reachable = [loc for loc in index.fleet_locations[province] if index.fleet_adjacent(origin, loc)]
    if len(reachable) > 1:
        return Illegal("coast not specified")
    return reachable[0] if reachable else Illegal("not adjacent")


def _check_move(index: MapIndex, position: Position, unit: Unit, order: Move) -> Move | Illegal:
    target = index.place(order.destination)
    if target not in index.kind:
        return Illegal("unknown place")
    origin = index.locations[unit.location]
    if target == origin:
        return Illegal("move to own province")
    if unit.type == "F":
        if order.via_convoy:
            return Illegal("only armies are convoyed")
        coast = order.destination.partition("/")[2]
        destination = _fleet_destination(index, unit.location, f"{target}/{coast}" if coast else target)
        if isinstance(destination, Illegal):
            return destination
    else:
        reason = _army_move_problem(index, position, origin, target)
        if reason:
            return Illegal(reason)
        destination = target
    if order.unit.location == unit.location and order.destination == destination:
        return order  # already in normal form (power and type match: see _board_unit)
    return Move(unit, destination, order.via_convoy)


def _army_move_problem(
    index: MapIndex, position: Position, origin: str, target: str, *, without: str = ""
) -> str:
    """Why an army at ``origin`` could not move to ``target`` on this board ("" if it could): over
    land, or along fleets at sea (other than the one in ``without``) (DATC 4.E.1)."""
    if index.kind[target] == "sea":
        return "army cannot go to sea"
    if index.army_adjacent(origin, target):
        return ""
    fleets = tuple(loc for loc in _fleets_at_sea(index, position) if index.locations[loc] != without)
    return "" if _fleets_on_routes(index, fleets, origin, target) else "not adjacent"


def _fleets_at_sea(index: MapIndex, position: Position) -> tuple[str, ...]:
    return tuple(loc for loc in position.fleets_at if index.kind[index.locations[loc]] == "sea")


@lru_cache(maxsize=4096)
def _fleets_on_routes(index: MapIndex, fleets: tuple[str, ...], origin: str, target: str) -> frozenset[str]:
    """The fleets of every convoy chain from ``origin`` to ``target`` (none if there is none).
    Memoized: the same fleets face the same question for a move and its supports, and again in
    the phases after."""
    return frozenset(fleet for chain in _convoy_chains(index, fleets, origin, target) for fleet in chain)


def _convoy_chains(
    index: MapIndex, fleets: Sequence[str], origin: str, target: str
) -> Iterator[tuple[str, ...]]:
    """Every chain of fleets that could carry an army from ``origin`` to ``target`` with no fleet
    to spare: each fleet touches only its neighbours in the chain, the first the origin and the
    last the destination. A fleet in none of them is not needed by any convoy (DATC 6.G.19)."""
    if index.kind[origin] != "coast" or index.kind[target] != "coast":
        return

    def extend(chain: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
        if index.fleet_reaches(chain[-1], target):
            yield chain
            return
        for fleet in fleets:
            if (
                fleet not in chain
                and index.fleet_adjacent(chain[-1], fleet)
                and not index.fleet_reaches(fleet, origin)
                and not any(index.fleet_adjacent(earlier, fleet) for earlier in chain[:-1])
            ):
                yield from extend((*chain, fleet))

    for first in fleets:
        if index.fleet_reaches(first, origin):
            yield from extend((first,))


def _check_support(index: MapIndex, position: Position, unit: Unit, order: Support) -> Support | Illegal:
    supported = index.place(order.supported)
    mover = position.unit_in(supported)
    if mover is None:
        return Illegal("no unit to support")
    if supported == index.locations[unit.location]:
        return Illegal("cannot support itself")
    if order.destination is None:
        target = supported
    else:
        target = index.place(order.destination)
        if target not in index.kind:
            return Illegal("unknown place")
        if target == supported:
            return Illegal("support to own province")
    if not index.reaches(unit, target):
        return Illegal("cannot reach")
    if order.destination is None:
        return _support(order, unit, supported, None)
    if mover.type == "F" and not index.fleet_reaches(mover.location, target):
        return Illegal("supported unit cannot go there")
    if mover.type == "A" and _army_move_problem(
        index, position, supported, target, without=index.locations[unit.location]
    ):
        return Illegal("supported unit cannot go there")
    # A coast written in the support must match the move's; none matches any (DATC 4.B.4).
    coast = order.destination.partition("/")[2]
    return _support(order, unit, supported, f"{target}/{coast}" if coast else target)


def _support(order: Support, unit: Unit, supported: str, destination: str | None) -> Support:
    if (
        order.unit.location == unit.location
        and order.supported == supported
        and order.destination == destination
    ):
        return order  # already in normal form
    return Support(unit, supported, destination, order.supported_type)


def _check_convoy(index: MapIndex, position: Position, unit: Unit, order: Convoy) -> Convoy | Illegal:
    if unit.type != "F" or index.kind[index.locations[unit.location]] != "sea":
        return Illegal("only fleets at sea convoy")
    army_province = index.place(order.army)
    army = position.unit_in(army_province)
    if army is None or army.type != "A":
        return Illegal("no army to convoy")
    destination = index.place(order.destination)
    if index.kind.get(destination) != "coast":
        return Illegal("cannot convoy there")
    if destination == army_province:
        return Illegal("move to own province")
    if unit.location not in _fleets_on_routes(
        index, _fleets_at_sea(index, position), army_province, destination
    ):
        return Illegal("not on a convoy route")
    if (
        order.unit.location == unit.location
        and order.army == army_province
        and order.destination == destination
    ):
        return order  # already in normal form
    return Convoy(unit, army_province, destination)
