"""Alliances: offered by the active player in its END, formed when the other accepts (by writing
the same line before the offer lapses after the next END of either), broken by either alone."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from engine.core import Event
from engine.veneer._events import AllianceBroken, AllianceFormed, AllianceOffered
from engine.veneer._orders import Order
from engine.veneer._parse import check_orders
from engine.veneer._state import Offer, VeneerState


def settle_alliances(
    state: VeneerState, orders: Mapping[str, Sequence[Order]], events: list[Event]
) -> VeneerState:
    """The active player's alliance lines first, then the others' in seating order."""
    players = sorted(orders, key=lambda p: (p != state.active, state.names.index(p)))
    for player in players:
        for order in check_orders(state, player, [o for o in orders[player] if o.verb in ("ally", "break")])[
            0
        ]:
            state = (
                _ally(state, player, order, events)
                if order.verb == "ally"
                else _break(state, player, order, events)
            )
    return state


def _ally(state: VeneerState, player: str, order: Order, events: list[Event]) -> VeneerState:
    other = order.name
    if any(o.sender == other and o.receiver == player for o in state.offers):
        events.append(AllianceFormed(first=other, second=player))
        offers = tuple(o for o in state.offers if {o.sender, o.receiver} != {player, other})
        return dataclasses.replace(state.with_alliances((*state.alliances, (player, other))), offers=offers)
    if any(o.sender == player and o.receiver == other for o in state.offers):
        return state
    events.append(AllianceOffered(sender=player, receiver=other, audience=frozenset({player, other})))
    return dataclasses.replace(state, offers=(*state.offers, Offer(player, other, state.turn)))


def _break(state: VeneerState, player: str, order: Order, events: list[Event]) -> VeneerState:
    events.append(AllianceBroken(first=player, second=order.name, reason=f"{player} broke it"))
    return state.with_alliances(p for p in state.alliances if set(p) != {player, order.name})
