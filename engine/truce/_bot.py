"""A simple, sensible Truce player: defends when attacked last round, loots a large Stash, backs
the victim of the leader, punishes a looter, else supports someone. It decides from ``TruceView``
only: what the Ledger shows (every Supply, last round's actions, the Stash) and its own Spoils,
never another player's Spoils.
A large Stash is looted, or the richest rival is attacked in case it loots."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.truce._state import Result, TruceState

LARGE_STASH = 3


@dataclass(frozen=True)
class TruceView:
    me: str
    supply: int  # my Supply now
    stash: int
    supplies: tuple[tuple[str, int], ...]  # every player's Supply, as the Ledger shows it
    last: tuple[Result, ...]  # last round's public results


def view_of(state: TruceState, player: str) -> TruceView:
    return TruceView(
        me=player,
        supply=state.player(player).supply,
        stash=state.stash,
        supplies=tuple((p.name, p.supply) for p in state.players),
        last=state.last,
    )


def bot_orders(view: TruceView, rng: random.Random) -> str:
    others = [(name, supply) for name, supply in view.supplies if name != view.me]
    attacked = [r.player for r in view.last if r.valid and r.action == "attack" and r.target == view.me]
    if view.supply < 1:  # attack, defend and loot need a coin
        return f"support {_richest_but_one(others, rng)}"
    if attacked:
        return "defend"
    if view.stash >= LARGE_STASH:  # others may loot too: a looter is hit by any attack
        return (
            "loot" if rng.random() < 0.6 else f"attack {max(others, key=lambda o: (o[1], rng.random()))[0]}"
        )
    leader = max(others, key=lambda o: (o[1], rng.random()))[0]
    victim = next((r.target for r in view.last if r.player == leader and r.action == "attack"), None)
    if victim and victim != view.me:
        return f"support {victim}"
    looters = [r.player for r in view.last if r.valid and r.action == "loot" and r.player != view.me]
    if looters:
        return f"attack {rng.choice(sorted(looters))}"
    if rng.random() < 0.3:  # keep the others honest
        return "defend"
    return f"support {_richest_but_one(others, rng)}"


def _richest_but_one(others: list[tuple[str, int]], rng: random.Random) -> str:
    """A counterweight to the leader: the second richest other player (ties by the dice)."""
    ranked = sorted(others, key=lambda o: (-o[1], rng.random()))
    return ranked[1][0] if len(ranked) > 1 else ranked[0][0]
