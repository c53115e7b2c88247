"""Gifts take effect on receipt: from the giver's Supply into the receiver's Spoils, announced to all."""

from __future__ import annotations

import dataclasses

from engine.core import Event, Submission
from engine.truce._events import GiftFailed, GiftGiven
from engine.truce._parse import Order, read_order
from engine.truce._state import TruceState


def apply_gifts(state: TruceState, submission: Submission) -> tuple[TruceState, tuple[Event, ...]]:
    events: list[Event] = []
    for line in submission.orders:
        order = read_order(line, state.spellings())
        if isinstance(order, Order) and order.kind == "gift" and order.target is not None:
            state, event = give(state, submission.player, order.target, order.coins)
            events.append(event)
    return state, tuple(events)


def give(state: TruceState, giver: str, receiver: str, coins: int) -> tuple[TruceState, Event]:
    """One gift, if the giver still has the coins (the Supply may have changed since parsing).
    A failed gift is told to the giver alone."""
    has = state.player(giver).supply
    if giver == receiver or coins < 1 or coins > has or state.finished:
        why = _refusal(state, giver, receiver, coins)
        failed = GiftFailed(
            giver=giver, receiver=receiver, coins=coins, reason=why, audience=frozenset({giver})
        )
        return state, failed
    players = {p.name: p for p in state.players}
    players[giver] = dataclasses.replace(players[giver], supply=has - coins)
    players[receiver] = dataclasses.replace(players[receiver], spoils=players[receiver].spoils + coins)
    return state.with_players(players), GiftGiven(giver=giver, receiver=receiver, coins=coins)


def _refusal(state: TruceState, giver: str, receiver: str, coins: int) -> str:
    if state.finished:
        return "the game is over"
    if giver == receiver:
        return "you cannot give coins to yourself"
    if coins < 1:
        return "a gift must be at least 1 coin"
    has = state.player(giver).supply
    return f"you had only {has} coin{'s' if has != 1 else ''} in your Supply"
