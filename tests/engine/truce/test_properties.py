"""Invariants of random Truce games: coins are conserved except where the rules remove them."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import Event, event_to_json
from engine.truce import TRUCE, CoinsRemoved, Player, Result, TruceState

NAMES = ["Agatha", "Barney", "Celeste", "Darcy", "Émile", "Freja", "Gus", "Hilda"]
# Weighted towards support and attack, so that chains, loops and successful attacks are common.
ACTIONS = [*["attack {}"] * 3, *["support {}"] * 4, "defend", "loot", "loot", "pass", "", "dance with {}"]


@st.composite
def games(draw: st.DrawFn) -> tuple[list[str], int, int, list[Any]]:
    players = NAMES[: draw(st.integers(3, 8))]
    rounds = draw(st.integers(1, 4))
    stash = draw(st.integers(0, 3))
    name = st.sampled_from(players)
    order = st.tuples(st.sampled_from(ACTIONS), name).map(lambda t: t[0].format(t[1]))
    gift = st.tuples(name, st.integers(0, 4), name)
    turn = st.tuples(st.lists(gift, max_size=4), st.dictionaries(name, order, min_size=len(players) // 2))
    return players, rounds, stash, draw(st.lists(turn, min_size=rounds, max_size=rounds))


def _total(state: TruceState) -> int:
    return state.stash + sum(p.supply + p.spoils for p in state.players)


def _play(game: tuple[list[str], int, int, list[Any]]) -> tuple[list[TruceState], list[Event]]:
    players, rounds, stash, turns = game
    state = TRUCE.setup(players, {"rounds": rounds, "initial_stash": stash}, random.Random(1))
    states, log = [state], list[Event]()
    for gifts, orders in turns:
        for giver, coins, receiver in gifts:
            submission = TRUCE.parse(state, giver, f"gift {coins} to {receiver}")
            before = _total(state)
            state, events = TRUCE.immediate(state, submission)
            assert _total(state) == before
            log += events
            states.append(state)
        submissions = {p: TRUCE.parse(state, p, text) for p, text in orders.items()}
        before = _total(state)
        resolution = TRUCE.resolve(state, submissions, random.Random(1))
        state = resolution.state
        removed = sum(e.coins for e in resolution.events if isinstance(e, CoinsRemoved))
        added = 0 if state.finished else 1
        assert _total(state) == before - removed + added
        assert all(p.spoils == 0 for p in state.players)
        log += resolution.events
        states.append(state)
    assert state.finished and TRUCE.outcome(state) is not None
    return states, log


@settings(max_examples=150, deadline=None)
@given(games())
def test_random_games_conserve_coins_and_replay_identically(
    game: tuple[list[str], int, int, list[Any]],
) -> None:
    states, log = _play(game)
    for state in states:
        assert all(p.supply >= 0 and p.spoils >= 0 for p in state.players) and state.stash >= 0
        assert TRUCE.from_json(json.loads(json.dumps(TRUCE.to_json(state)))) == state
    assert all(e.coins > 0 for e in log if isinstance(e, CoinsRemoved))
    replay_states, replay_log = _play(game)
    assert replay_states == states
    assert [event_to_json(e) for e in replay_log] == [event_to_json(e) for e in log]


results = st.builds(
    Result,
    player=st.sampled_from(NAMES),
    action=st.sampled_from(["attack", "support", "defend", "loot", "pass"]),
    target=st.none() | st.sampled_from(NAMES),
    valid=st.booleans(),
    reason=st.none() | st.text(max_size=10),
    supporters=st.integers(0, 7),
    succeeded=st.none() | st.booleans(),
    gained=st.integers(0, 20),
)
states = st.builds(
    TruceState,
    players=st.lists(
        st.builds(Player, st.text(min_size=1, max_size=8), st.integers(0, 50), st.integers(0, 50)), max_size=8
    ).map(tuple),
    stash=st.integers(0, 30),
    round=st.integers(1, 16),
    rounds=st.integers(1, 15),
    nicknames=st.lists(
        st.tuples(st.text(min_size=1), st.lists(st.text(min_size=1)).map(tuple)), unique_by=lambda t: t[0]
    ).map(tuple),
    last=st.lists(results, max_size=8).map(tuple),
)


@given(states)
def test_state_json_round_trips_exactly(state: TruceState) -> None:
    data = json.loads(json.dumps(TRUCE.to_json(state)))
    assert TRUCE.from_json(data) == state
    assert TRUCE.to_json(TRUCE.from_json(data)) == data
