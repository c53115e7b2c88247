"""Is a movement order legal on this map and board? A legal order comes back normalised (the unit
as it stands on the board, a fleet's destination with its coast); an illegal one comes back as an
``Illegal`` reason, and the unit holds (DATC 4.E.1). Coasts are read as leniently as the DATC
prefers: a missing coast is filled in when only one is reachable (4.B.2), the coast written for the
ordered unit is ignored (4.B.5), a wrong destination coast is illegal (4.B.3).

Most of an order's legality follows from the map alone. That part is worked out once per map and
order as written (``MapIndex.verdicts``); only what depends on the board (which units stand where,
and the fleets that could convoy an army) is checked each time."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from engine.diplomacy._board import MapIndex, MoveVerdict, SupportVerdict, map_index
from engine.diplomacy._map import Map
from engine.diplomacy._orders import Convoy, Hold, Move, MovementOrder, Support, Unit
from engine.diplomacy._position import Position
from engine.diplomacy._results import Duplicate, Illegal

K = TypeVar("K")
V = TypeVar("V")
_VERDICTS_KEPT = 100_000  # orders as written per map; players' typos must not grow it without end

_NO_SUCH_UNIT = Illegal("no such unit")
_NOT_YOURS = Illegal("not your unit")
_WRONG_TYPE = Illegal("wrong unit type")
_NO_UNIT_TO_SUPPORT = Illegal("no unit to support")
_CANNOT_GO = Illegal("supported unit cannot go there")
_NOT_ADJACENT = Illegal("not adjacent")


@dataclass(frozen=True, slots=True)
class CheckedOrders:
    """A movement phase's orders checked against its position (``check_movement_orders``): each
    order as given, with its unit's province if it is legal or the reason it is not, and the legal
    orders (normalised) by province. ``adjudicate_movement`` takes it from there."""

    position: Position
    outcomes: tuple[tuple[MovementOrder, str | Illegal | Duplicate], ...]
    legal: Mapping[str, MovementOrder]


_DUPLICATE = Duplicate()


def check_movement_orders(
    map: Map, position: Position, orders: Mapping[Unit, MovementOrder]
) -> CheckedOrders:
    """Check every order; the first order given for a unit stands, a second is a ``Duplicate``."""
    index = map_index(map)
    outcomes: list[tuple[MovementOrder, str | Illegal | Duplicate]] = []  # a list: no order is hashed
    legal: dict[str, MovementOrder] = {}
    for order in orders.values():
        outcome = check_order(index, position, order)
        if isinstance(outcome, Illegal):
            outcomes.append((order, outcome))
            continue
        province = index.locations[outcome.unit.location]
        if province in legal:
            outcomes.append((order, _DUPLICATE))
        else:
            legal[province] = outcome
            outcomes.append((order, province))
    return CheckedOrders(position, tuple(outcomes), legal)


def check_movement_order(map: Map, position: Position, order: MovementOrder) -> MovementOrder | Illegal:
    return check_order(map_index(map), position, order)


def check_order(index: MapIndex, position: Position, order: MovementOrder) -> MovementOrder | Illegal:
    """``check_movement_order`` on an indexed map. An order already in normal form comes back as is."""
    ordered = order.unit
    province = index.places.get(ordered.location)
    unit = position.by_province.get(index.place(ordered.location) if province is None else province)
    if unit is None:
        return _NO_SUCH_UNIT
    if unit.power != ordered.power:
        return _NOT_YOURS
    if unit.type != ordered.type:
        return _WRONG_TYPE
    if isinstance(order, Move):
        return _check_move(index, position, unit, order)
    if isinstance(order, Support):
        return _check_support(index, position, unit, order)
    if isinstance(order, Convoy):
        return _check_convoy(index, position, unit, order)
    return order if ordered.location == unit.location else Hold(unit)


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


# --- moves ---------------------------------------------------------------------------------------


def _check_move(index: MapIndex, position: Position, unit: Unit, order: Move) -> Move | Illegal:
    key = (unit.type, unit.location, order.destination, order.via_convoy)
    verdict = index.move_verdicts.get(key)
    if verdict is None:
        verdict = _remember(index.move_verdicts, key, _move_verdict(index, *key))
    if isinstance(verdict, Illegal):
        return verdict
    destination, by_convoy_only = verdict
    if by_convoy_only and not _convoyable(index, position, index.locations[unit.location], destination):
        return _NOT_ADJACENT
    if order.unit.location == unit.location and order.destination == destination:
        return order  # already in normal form (power and type match: see check_order)
    return Move(unit, destination, order.via_convoy)


def _remember(verdicts: dict[K, V], key: K, verdict: V) -> V:
    if len(verdicts) >= _VERDICTS_KEPT:
        verdicts.clear()
    verdicts[key] = verdict
    return verdict


def _move_verdict(
    index: MapIndex, unit_type: str, location: str, written: str, via_convoy: bool
) -> MoveVerdict:
    """A move's legality on the map: illegal, or the destination and whether only a convoy can
    take the army there (legal if the board has fleets for a route)."""
    target = index.place(written)
    if target not in index.kind:
        return Illegal("unknown place")
    origin = index.locations[location]
    if target == origin:
        return Illegal("move to own province")
    if unit_type == "F":
        if via_convoy:
            return Illegal("only armies are convoyed")
        coast = written.partition("/")[2]
        destination = _fleet_destination(index, location, f"{target}/{coast}" if coast else target)
        return destination if isinstance(destination, Illegal) else (destination, False)
    if index.kind[target] == "sea":
        return Illegal("army cannot go to sea")
    return target, not index.army_adjacent(origin, target)


def _army_move_problem(
    index: MapIndex, position: Position, origin: str, target: str, *, without: str = ""
) -> str:
    """Why an army at ``origin`` could not move to ``target`` on this board ("" if it could): over
    land, or along fleets at sea (other than the one in ``without``) (DATC 4.E.1)."""
    if index.kind[target] == "sea":
        return "army cannot go to sea"
    if index.army_adjacent(origin, target):
        return ""
    return "" if _convoyable(index, position, origin, target, without=without) else "not adjacent"


def _convoyable(index: MapIndex, position: Position, origin: str, target: str, *, without: str = "") -> bool:
    """Could the fleets at sea on this board (but the one in ``without``) carry an army from
    ``origin`` to ``target``? Breadth first over the fleets: the shortest chain, if there is one,
    has no fleet to spare, so this agrees with ``_convoy_chains`` at a fraction of its cost."""
    if index.kind[origin] != "coast" or index.kind[target] != "coast":
        return False
    fleets = position.fleets
    frontier = [sea for sea in index.seas_touching[origin] if sea in fleets and sea != without]
    seen = set(frontier)
    for sea in frontier:  # grows as the search goes
        if target in index.fleet_reach[sea]:
            return True
        for step in index.sea_neighbours[sea]:
            if step not in seen and step in fleets and step != without:
                seen.add(step)
                frontier.append(step)
    return False


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


# --- supports ------------------------------------------------------------------------------------


def _check_support(index: MapIndex, position: Position, unit: Unit, order: Support) -> Support | Illegal:
    key = (unit.type, unit.location, order.supported, order.destination)
    verdict = index.support_verdicts.get(key)
    if verdict is None:
        verdict = _remember(index.support_verdicts, key, _support_verdict(index, *key))
    supported, problem, target, destination = verdict
    mover = position.by_province.get(supported)
    if mover is None:
        return _NO_UNIT_TO_SUPPORT
    if problem is not None:
        return problem
    if destination is not None:
        if mover.type == "F":
            if not index.fleet_reaches(mover.location, target):
                return _CANNOT_GO
        elif _army_move_problem(index, position, supported, target, without=index.locations[unit.location]):
            return _CANNOT_GO
    if (
        order.unit.location == unit.location
        and order.supported == supported
        and order.destination == destination
    ):
        return order  # already in normal form
    return Support(unit, supported, destination, order.supported_type)


def _support_verdict(
    index: MapIndex, unit_type: str, location: str, written: str, written_destination: str | None
) -> SupportVerdict:
    """A support's legality on the map, apart from the supported unit (see ``SupportVerdict``)."""
    supported = index.place(written)
    if supported == index.locations[location]:
        return supported, Illegal("cannot support itself"), supported, None
    target = supported if written_destination is None else index.place(written_destination)
    if written_destination is not None:
        if target not in index.kind:
            return supported, Illegal("unknown place"), target, None
        if target == supported:
            return supported, Illegal("support to own province"), target, None
    if not index.reaches(unit_type, location, target):
        return supported, Illegal("cannot reach"), target, None
    if written_destination is None:
        return supported, None, target, None
    # A coast written in the support must match the move's; none matches any (DATC 4.B.4).
    coast = written_destination.partition("/")[2]
    return supported, None, target, f"{target}/{coast}" if coast else target


# --- convoys -------------------------------------------------------------------------------------


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
