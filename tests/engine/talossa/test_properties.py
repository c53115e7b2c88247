"""Talossan RISK invariants over random games (every plan drawn at random, seeded): a held land
always has a unit and a free one none, fallen countries hold nothing, the JSON reads back, and the
same seed replays to the same state."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.talossa import TALOSSA, TalossaState
from engine.talossa._state import Board

PLAYERS = ["Al", "Bea", "Cy", "Di"]


def play(seed: int, steps: int) -> TalossaState:
    state = TALOSSA.setup(PLAYERS, {}, random.Random(seed))
    for n in range(steps):
        if state.finished:
            break
        plans = {p: TALOSSA.default(state, p, random.Random(f"{seed}/{n}/{p}")) for p in sorted(state.alive)}
        state = TALOSSA.resolve(state, plans, random.Random(f"{seed}/{n}")).state
    return state


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 6))
def test_lands_units_and_countries_stay_consistent(seed: int, steps: int) -> None:
    state = play(seed, steps)
    board = Board(state)
    for key, holding in board.holdings.items():
        assert (holding.owner is None) == (holding.units == 0), key
        assert not (holding.stronghold and board.is_innerland(key) and not board.is_capital(key)), key
    for country in state.countries:
        assert country.stack >= 0 and country.conquer_ban >= 0
        assert not (country.fallen and board.lands_of(country.player))
    assert TALOSSA.from_json(TALOSSA.to_json(state)) == state


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10_000))
def test_the_same_seed_replays_to_the_same_game(seed: int) -> None:
    assert TALOSSA.to_json(play(seed, 3)) == TALOSSA.to_json(play(seed, 3))


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000))
def test_random_plans_have_six_actions_each_legal_when_drawn(seed: int) -> None:
    state = play(seed, 2)
    for player in state.alive:
        plan = TALOSSA.default(state, player, random.Random(seed))
        assert len(plan.orders) <= 6 and not plan.errors
        reread = TALOSSA.parse(state, player, "\n".join(plan.orders))
        assert reread.orders == plan.orders
