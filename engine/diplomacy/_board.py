"""The board a movement phase is adjudicated on: one legal order per occupied province (units
without a legal order hold), and the lookups the order modules share. Decisions are keyed by the
province of the ordered unit. Every lookup is an index built once per board, so each decision
reads what it needs in constant time; ``MapIndex`` does the same once per map."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.diplomacy._map import Map, ProvinceKind
from engine.diplomacy._orders import Convoy, Hold, Move, MovementOrder, Support, Unit, province_of

# --- the map, indexed ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one per map
class MapIndex:
    """A map's adjacency as neighbour sets (the map stores edge pairs), and the province of every
    place a player may write, so the hot paths look each up in one step."""

    army_neighbours: Mapping[str, frozenset[str]]  # province -> provinces
    fleet_neighbours: Mapping[str, frozenset[str]]  # location -> locations
    fleet_reach: Mapping[str, frozenset[str]]  # location -> provinces with a coast a fleet there reaches
    fleet_locations: Mapping[str, tuple[str, ...]]  # province -> where a fleet can stand in it
    kind: Mapping[str, ProvinceKind]
    locations: Mapping[str, str]  # every location on the map (coasts spelt out) -> its province
    places: Mapping[str, str]  # the same and every alias -> the province key it names
    aliases: Mapping[str, str]

    def place(self, written: str) -> str:
        """The province key a written location names, aliases resolved; the coast does not matter."""
        key = self.places.get(written)
        if key is None:  # an unknown place or coast: strip the coast as written
            bare = province_of(written)
            key = self.aliases.get(bare, bare)
        return key

    def army_adjacent(self, origin: str, target: str) -> bool:
        return target in self.army_neighbours.get(origin, frozenset())

    def fleet_adjacent(self, origin: str, destination: str) -> bool:
        return destination in self.fleet_neighbours.get(origin, frozenset())

    def fleet_reaches(self, origin: str, province: str) -> bool:
        """Can a fleet at ``origin`` reach some coast of ``province``?"""
        return province in self.fleet_reach.get(origin, frozenset())

    def reaches(self, unit: Unit, province: str) -> bool:
        """Can ``unit`` move to some location of ``province`` (what support needs)?"""
        if unit.type == "A":  # an army stands on a province, never on a coast
            return province in self.army_neighbours.get(unit.location, frozenset())
        return province in self.fleet_reach.get(unit.location, frozenset())


# Maps are frozen but hold dicts, so they cannot key a dict themselves. A variant may copy its map
# for one phase with other modifiers (Star Trek), so key by the parts the index is built from;
# each entry keeps those parts alive, so their ids stay theirs.
_MAP_INDEXES: dict[tuple[int, ...], tuple[tuple[object, ...], MapIndex]] = {}
_MAP_INDEXES_KEPT = 16


def map_index(map: Map) -> MapIndex:
    entry = _MAP_INDEXES.get((id(map.provinces), id(map.army_edges), id(map.fleet_edges), id(map.aliases)))
    if entry is None:
        if len(_MAP_INDEXES) >= _MAP_INDEXES_KEPT:
            _MAP_INDEXES.clear()
        parts = (map.provinces, map.army_edges, map.fleet_edges, map.aliases)
        entry = _MAP_INDEXES[tuple(id(part) for part in parts)] = (parts, _index_map(map))
    return entry[1]


def _index_map(map: Map) -> MapIndex:
    army: dict[str, set[str]] = {}
    fleet: dict[str, set[str]] = {}
    for a, b in map.army_edges:
        army.setdefault(a, set()).add(b)
    for a, b in map.fleet_edges:
        fleet.setdefault(a, set()).add(b)
    fleet_at = {key: frozenset(map.fleet_locations(key)) for key in map.provinces}
    locations = [*map.provinces, *(f"{key}/{c}" for key, p in map.provinces.items() for c in p.coasts)]
    return MapIndex(
        army_neighbours={p: frozenset(n) for p, n in army.items()},
        fleet_neighbours={loc: frozenset(n) for loc, n in fleet.items()},
        fleet_reach={loc: frozenset(p for p in map.provinces if n & fleet_at[p]) for loc, n in fleet.items()},
        fleet_locations={key: map.fleet_locations(key) for key in map.provinces},
        kind={key: p.kind for key, p in map.provinces.items()},
        locations={loc: province_of(loc) for loc in locations},
        places={
            place: map.aliases.get(province_of(place), province_of(place))
            for place in [*map.aliases, *locations]
        },
        aliases=map.aliases,
    )


# --- the board -----------------------------------------------------------------------------------


@dataclass
class Board:
    """The orders by province, and every relation between them the decisions read, indexed."""

    map: Map
    index: MapIndex
    orders: Mapping[str, MovementOrder]  # province -> legal, normalised order (Hold if none)
    targets: Mapping[str, str]  # origin of each move -> the province it moves to
    moves_into: Mapping[str, list[str]]  # each target and ordered province -> origins of moves into it
    by_convoy: frozenset[str]  # origins of armies whose move goes by convoy
    opponents: Mapping[str, str]  # origin -> the origin of the move swapping with it over land
    move_supports: Mapping[str, list[str]]  # origin of each move -> provinces of its supporters
    hold_supports: Mapping[str, list[str]]  # each province not moving -> supporters of its hold
    matched: frozenset[str]  # supports whose unit does what they support
    convoys: Mapping[str, list[str]]  # origin of each convoyed army -> fleets convoying it there
    paradox: set[str] = field(default_factory=set)  # convoyed armies held by the Szykman rule


def make_board(map: Map, units: tuple[Unit, ...], legal: Mapping[str, MovementOrder]) -> Board:
    """The board for these units and their legal orders (by province); the others hold."""
    index = map_index(map)
    province = index.locations
    orders: dict[str, MovementOrder] = {}
    for unit in units:
        orders[province[unit.location]] = legal.get(province[unit.location]) or Hold(unit)
    targets = {p: province[o.destination] for p, o in orders.items() if isinstance(o, Move)}
    moves_into: dict[str, list[str]] = {p: [] for p in orders}
    for origin, target in targets.items():
        moves_into.setdefault(target, []).append(origin)
    by_convoy = _convoyed_moves(index, orders, targets)
    move_supports, hold_supports = _supports(orders, targets)
    return Board(
        map=map,
        index=index,
        orders=orders,
        targets=targets,
        moves_into=moves_into,
        by_convoy=by_convoy,
        opponents={
            origin: target
            for origin, target in targets.items()
            if targets.get(target) == origin and origin not in by_convoy and target not in by_convoy
        },
        move_supports=move_supports,
        hold_supports=hold_supports,
        matched=frozenset(
            p for supporters in [*move_supports.values(), *hold_supports.values()] for p in supporters
        ),
        convoys=_convoys(orders, targets, by_convoy),
    )


def _convoyed_moves(
    index: MapIndex, orders: Mapping[str, MovementOrder], targets: Mapping[str, str]
) -> frozenset[str]:
    """Armies moving by convoy: any move to a province not next to it, and a move next door that
    is ordered "via convoy" or that one of its own power's fleets is ordered to convoy (DATC 4.A.3,
    2023 rules). Such a move has no fallback over land."""
    own_convoys = {(o.army, o.destination, o.unit.power) for o in orders.values() if isinstance(o, Convoy)}
    convoyed = set()
    for origin, target in targets.items():
        move = orders[origin]
        assert isinstance(move, Move)
        if move.unit.type == "A" and (
            move.via_convoy
            or (origin, target, move.unit.power) in own_convoys
            or not index.army_adjacent(origin, target)
        ):
            convoyed.add(origin)
    return frozenset(convoyed)


def _supports(
    orders: Mapping[str, MovementOrder], targets: Mapping[str, str]
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The supporters of each move and of each unit not moving, in board order. A support to hold
    counts for any unit that does not move; a support to move only for that very move."""
    for_move: dict[str, list[str]] = {origin: [] for origin in targets}
    for_hold: dict[str, list[str]] = {p: [] for p in orders if p not in targets}
    for province, order in orders.items():
        if not isinstance(order, Support):
            continue
        if order.destination is None:
            if order.supported in for_hold:
                for_hold[order.supported].append(province)
        elif order.supported in targets:
            move = orders[order.supported]
            assert isinstance(move, Move)
            if _same_place(order.destination, move.destination):
                for_move[order.supported].append(province)
    return for_move, for_hold


def _convoys(
    orders: Mapping[str, MovementOrder], targets: Mapping[str, str], by_convoy: frozenset[str]
) -> dict[str, list[str]]:
    """The fleets ordered to convoy each convoyed army where it is going, in board order."""
    convoys: dict[str, list[str]] = {army: [] for army in by_convoy}
    for province, order in orders.items():
        if isinstance(order, Convoy) and order.army in by_convoy and targets[order.army] == order.destination:
            convoys[order.army].append(province)
    return convoys


def _same_place(supported: str, moved: str) -> bool:
    """A support's destination matches a move's at province level, and at the coast if it names one."""
    return supported == moved if "/" in supported else supported == province_of(moved)
