"""The board a movement phase is adjudicated on: one legal order per occupied province (units
without a legal order hold), and the lookups the order modules share. Decisions are keyed by the
province of the ordered unit. Every lookup is an index built once per board, so each decision
reads what it needs in constant time; ``MapIndex`` does the same once per map."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.diplomacy._map import Map, Modifiers, ProvinceKind
from engine.diplomacy._orders import Convoy, Hold, Move, MovementOrder, Support, Unit, province_of
from engine.diplomacy._results import Illegal

# --- the map, indexed ----------------------------------------------------------------------------

MoveKey = tuple[str, str, str, bool]  # unit type, location, destination as written, via convoy
MoveVerdict = tuple[str, bool] | Illegal  # the destination, and whether only a convoy goes there
SupportKey = tuple[str, str, str, str | None]  # unit type, location, supported, destination
# The supported province, why the support is illegal whatever stands there (None if it is not),
# the province supported into, and the destination in normal form (None for a hold).
SupportVerdict = tuple[str, Illegal | None, str, str | None]


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
    centre_at: Mapping[str, str]  # every location in a supply centre -> the centre
    seas_touching: Mapping[str, tuple[str, ...]]  # province -> the sea provinces next to it
    sea_neighbours: Mapping[str, tuple[str, ...]]  # sea province -> the sea provinces next to it
    # What legality can tell from the map alone, per order as written (see _legality): the same
    # orders recur every phase, so only their board-dependent part is checked again.
    move_verdicts: dict[MoveKey, MoveVerdict] = field(default_factory=dict)
    support_verdicts: dict[SupportKey, SupportVerdict] = field(default_factory=dict)

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

    def reaches(self, unit_type: str, location: str, province: str) -> bool:
        """Can a unit of this type at ``location`` move to some location of ``province`` (what
        support needs)? An army stands on a province, never on a coast."""
        reach = self.army_neighbours if unit_type == "A" else self.fleet_reach
        return province in reach.get(location, frozenset())


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
    seas = {key for key, p in map.provinces.items() if p.kind == "sea"}  # no coasts: location = province
    reach = {loc: {p for p in map.provinces if n & fleet_at[p]} for loc, n in fleet.items()}
    locations = {
        loc: province_of(loc)
        for loc in [*map.provinces, *(f"{key}/{c}" for key, p in map.provinces.items() for c in p.coasts)]
    }
    return MapIndex(
        army_neighbours={p: frozenset(n) for p, n in army.items()},
        fleet_neighbours={loc: frozenset(n) for loc, n in fleet.items()},
        fleet_reach={loc: frozenset(provinces) for loc, provinces in reach.items()},
        fleet_locations={key: map.fleet_locations(key) for key in map.provinces},
        kind={key: p.kind for key, p in map.provinces.items()},
        locations=locations,
        places={
            place: map.aliases.get(province_of(place), province_of(place))
            for place in [*map.aliases, *locations]
        },
        aliases=map.aliases,
        centre_at={loc: p for loc, p in locations.items() if map.provinces[p].supply_center},
        seas_touching={p: tuple(sorted(s for s in seas if p in reach.get(s, ()))) for p in map.provinces},
        sea_neighbours={s: tuple(sorted(n for n in fleet.get(s, ()) if n in seas)) for s in seas},
    )


# --- the board -----------------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class Board:
    """The orders by province, and every relation between them the decisions read, indexed. A
    province nobody moves into has no ``moves_into`` entry; one nobody backs, no ``backers``."""

    index: MapIndex
    orders: Mapping[str, MovementOrder]  # province -> legal, normalised order (Hold if none)
    power: Mapping[str, str]  # province -> the power of the unit in it
    targets: Mapping[str, str]  # origin of each move -> the province it moves to
    moves_into: Mapping[str, list[str]]  # province -> origins of the moves into it
    backers: Mapping[str, list[str]]  # province -> supporters of its move, or of its staying put
    matched: frozenset[str]  # supports whose unit does what they support
    by_convoy: frozenset[str]  # origins of armies whose move goes by convoy
    opponents: Mapping[str, str]  # origin -> the origin of the move swapping with it over land
    convoys: Mapping[str, list[str]]  # origin of each convoyed army -> fleets convoying it there, sorted
    immune: frozenset[str]  # provinces whose unit cannot be dislodged (Star Trek)
    rage: Mapping[str, int]  # province -> 1 if its unit's power is in a rage (Star Trek), else absent
    # Convoyed moves whose fleets nobody attacks: whether they have a route (see _convoy.fix_routes).
    routes: dict[str, bool] = field(default_factory=dict)
    paradox: set[str] = field(default_factory=set)  # convoyed armies held by the Szykman rule


def make_board(
    index: MapIndex, modifiers: Modifiers, units: tuple[Unit, ...], legal: Mapping[str, MovementOrder]
) -> Board:
    """The board for these units and their legal orders (by province); the others hold. Orders
    are kept in the units' order, which fixes the order of every list below."""
    locations, army_neighbours = index.locations, index.army_neighbours
    orders: dict[str, MovementOrder] = {}
    power: dict[str, str] = {}
    targets: dict[str, str] = {}
    moves_into: dict[str, list[str]] = {}
    convoyed: set[str] = set()
    supports: list[str] = []
    convoy_orders: list[str] = []
    for unit in units:
        province = locations[unit.location]
        order = orders[province] = legal.get(province) or Hold(unit)
        power[province] = unit.power
        if type(order) is Move:
            target = targets[province] = locations[order.destination]
            if target in moves_into:
                moves_into[target].append(province)
            else:
                moves_into[target] = [province]
            # A move to a province not next to it, or one ordered "via convoy", goes by convoy.
            if unit.type == "A" and (order.via_convoy or target not in army_neighbours.get(province, ())):
                convoyed.add(province)
        elif type(order) is Support:
            supports.append(province)
        elif type(order) is Convoy:
            convoy_orders.append(province)
    if convoy_orders:
        convoyed |= _own_convoys(orders, targets, convoy_orders)
    by_convoy = frozenset(convoyed)
    backers, matched = _backers(orders, targets, supports)
    return Board(
        index=index,
        orders=orders,
        power=power,
        targets=targets,
        moves_into=moves_into,
        backers=backers,
        matched=matched,
        by_convoy=by_convoy,
        opponents={
            origin: target
            for origin, target in targets.items()
            if targets.get(target) == origin and origin not in by_convoy and target not in by_convoy
        },
        convoys=_convoys(orders, targets, by_convoy, convoy_orders) if by_convoy else {},
        immune=modifiers.immune,
        rage={p: 1 for p, owner in power.items() if owner in modifiers.raging} if modifiers.raging else {},
    )


def _own_convoys(
    orders: Mapping[str, MovementOrder], targets: Mapping[str, str], convoy_orders: list[str]
) -> set[str]:
    """Army moves next door that a fleet of the army's own power is ordered to convoy: they go by
    convoy too, with no fallback over land (DATC 4.A.3, 2023 rules)."""
    convoyed = set()
    for fleet in convoy_orders:
        convoy = orders[fleet]
        assert isinstance(convoy, Convoy)
        move = orders.get(convoy.army)
        if (
            type(move) is Move
            and move.unit.type == "A"
            and move.unit.power == convoy.unit.power
            and targets[convoy.army] == convoy.destination
        ):
            convoyed.add(convoy.army)
    return convoyed


def _backers(
    orders: Mapping[str, MovementOrder], targets: Mapping[str, str], supports: list[str]
) -> tuple[dict[str, list[str]], frozenset[str]]:
    """The supporters of each move and of each unit not moving, in board order, and the supports
    so matched. A support to hold counts for any unit that does not move; a support to move only
    for that very move."""
    backers: dict[str, list[str]] = {}
    matched = []
    for province in supports:
        support = orders[province]
        assert isinstance(support, Support)
        supported = support.supported
        if support.destination is None:
            if supported not in orders or supported in targets:
                continue
        else:
            move = orders.get(supported)
            # The destinations match at province level, and at the coast if the support names one.
            destination = support.destination
            if type(move) is not Move or destination != (
                move.destination if "/" in destination else targets[supported]
            ):
                continue
        if supported in backers:
            backers[supported].append(province)
        else:
            backers[supported] = [province]
        matched.append(province)
    return backers, frozenset(matched)


def _convoys(
    orders: Mapping[str, MovementOrder],
    targets: Mapping[str, str],
    by_convoy: frozenset[str],
    convoy_orders: list[str],
) -> dict[str, list[str]]:
    """The fleets ordered to convoy each convoyed army where it is going, by province."""
    convoys: dict[str, list[str]] = {army: [] for army in by_convoy}
    for province in convoy_orders:
        order = orders[province]
        assert isinstance(order, Convoy)
        if order.army in by_convoy and targets[order.army] == order.destination:
            convoys[order.army].append(province)
    for fleets in convoys.values():
        fleets.sort()
    return convoys
