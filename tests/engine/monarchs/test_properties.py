"""Invariants of the Game of Monarchs under random legal orders: every nation keeps 23 regiments,
no hex ever holds two nations, an occupied hex belongs to its occupant, home bases never change
hands, and a resolved turn replays to the same result."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.monarchs import HEXES, HOMES, NATIONS, Position, resolve_turn
from tests.helpers.monarchs import random_orders


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 12))
def test_regiments_are_kept_and_never_share_a_hex(seed: int, turns: int) -> None:
    rng = random.Random(seed)
    position = Position.start()
    for turn in range(turns):
        orders = {n: random_orders(position, n, rng) for n in NATIONS}
        result = resolve_turn(position, orders, rng, last=turn == turns - 1)
        again = resolve_turn(position, orders, random.Random(0), last=False)
        assert {n: again.position.regiments_of(n) for n in NATIONS} == dict.fromkeys(NATIONS, 23)
        position = result.position
        assert {n: position.regiments_of(n) for n in NATIONS} == dict.fromkeys(NATIONS, 23)
        for hex_name, (nation, count) in position.armies.items():
            assert count > 0 and position.owners[hex_name] == nation
        assert all(position.owners[HOMES[n]] == n for n in NATIONS)
        assert sum(result.defeated.values()) == sum(result.lost.values())
        factor = 2 if turn == turns - 1 else 1
        held = sum(1 for h in HEXES if position.owners[h] is not None)
        assert sum(result.points.values()) == factor * held


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_the_same_draws_give_the_same_turn(seed: int) -> None:
    rng = random.Random(seed)
    position = Position.start()
    orders = {n: random_orders(position, n, rng) for n in NATIONS}
    first = resolve_turn(position, orders, random.Random(seed))
    second = resolve_turn(position, orders, random.Random(seed))
    assert first == second
    assert Position.from_json(first.position.to_json()) == first.position
