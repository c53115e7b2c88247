"""The board a movement phase is adjudicated on: one legal order per occupied province (units
without a legal order hold), and the lookups the order modules share. Decisions are keyed by the
province of the ordered unit."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.diplomacy._map import Map
from engine.diplomacy._orders import Convoy, Hold, Move, MovementOrder, Support, Unit, province_of


@dataclass
class Board:
    map: Map
    orders: Mapping[str, MovementOrder]  # province -> legal, normalised order (Hold if none)
    by_convoy: frozenset[str]  # provinces of armies whose move goes by convoy
    paradox: set[str] = field(default_factory=set)  # convoyed armies held by the Szykman rule

    def unit(self, province: str) -> Unit | None:
        order = self.orders.get(province)
        return None if order is None else order.unit

    def move_from(self, province: str) -> Move | None:
        order = self.orders.get(province)
        return order if isinstance(order, Move) else None

    def target(self, origin: str) -> str:
        """The province the unit at ``origin`` moves to."""
        move = self.move_from(origin)
        assert move is not None
        return province_of(move.destination)

    def moves_into(self, province: str) -> list[str]:
        """Origins of every move aimed at ``province``."""
        return [
            p
            for p, o in self.orders.items()
            if isinstance(o, Move) and province_of(o.destination) == province
        ]

    def head_to_head(self, origin: str) -> str | None:
        """The province of the unit that swaps places with ``origin`` over land, if any: such units
        fight each other directly. A convoyed move never takes part in one."""
        target = self.target(origin)
        back = self.move_from(target)
        if back is None or province_of(back.destination) != origin:
            return None
        return None if origin in self.by_convoy or target in self.by_convoy else target

    def supports_for_move(self, origin: str) -> list[str]:
        """Provinces of units ordered to support the move from ``origin`` (coasts do not matter)."""
        move = self.move_from(origin)
        assert move is not None
        return [
            p
            for p, o in self.orders.items()
            if isinstance(o, Support)
            and o.supported == origin
            and o.destination
            and _same_place(o.destination, move.destination)
        ]

    def supports_for_hold(self, province: str) -> list[str]:
        if self.move_from(province) is not None:
            return []
        return [
            p
            for p, o in self.orders.items()
            if isinstance(o, Support) and o.supported == province and o.destination is None
        ]

    def convoys_for(self, origin: str) -> list[str]:
        """Provinces of fleets ordered to convoy the army at ``origin`` where it is going."""
        if origin not in self.by_convoy:
            return []
        target = self.target(origin)
        return [
            p
            for p, o in self.orders.items()
            if isinstance(o, Convoy) and o.army == origin and o.destination == target
        ]


def board_orders(units: tuple[Unit, ...], legal: Mapping[str, MovementOrder]) -> dict[str, MovementOrder]:
    return {u.province: legal.get(u.province, Hold(u)) for u in units}


def convoyed_moves(map: Map, orders: Mapping[str, MovementOrder]) -> frozenset[str]:
    """Armies moving by convoy: any move to a province not next to it, and a move next door that
    is ordered "via convoy" or that one of its own power's fleets is ordered to convoy (DATC 4.A.3,
    2023 rules). Such a move has no fallback over land."""
    convoyed = set()
    for province, order in orders.items():
        if not isinstance(order, Move) or order.unit.type != "A":
            continue
        target = province_of(order.destination)
        own_fleet_convoys = any(
            isinstance(o, Convoy)
            and o.army == province
            and o.destination == target
            and o.unit.power == order.unit.power
            for o in orders.values()
        )
        if order.via_convoy or own_fleet_convoys or not map.adjacent("A", province, target):
            convoyed.add(province)
    return frozenset(convoyed)


def _same_place(supported: str, moved: str) -> bool:
    """A support's destination matches a move's at province level, and at the coast if it names one."""
    return supported == moved if "/" in supported else supported == province_of(moved)
