"""Invariants of the adjudicator under random legal play: no unit is duplicated or lost except
by dislodgement, and the same orders always give the same result, whatever order they come in."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.diplomacy import (
    STANDARD,
    AdjustmentOrder,
    Build,
    Convoy,
    Hold,
    Move,
    MovementOrder,
    Position,
    Retreat,
    RetreatOrder,
    Support,
    Unit,
    adjudicate_movement,
    adjustment_due,
    check_movement_orders,
    free_home_centres,
    resolve_adjustments,
    resolve_movement,
    resolve_retreats,
    retreat_options,
)

MAP = STANDARD.map
COASTAL = sorted(k for k, p in MAP.provinces.items() if p.kind == "coast")


def random_order(rng: random.Random, position: Position, unit: Unit) -> MovementOrder:
    roll = rng.random()
    others = [u for u in position.units if u != unit]
    if roll < 0.4:
        return Move(unit, rng.choice(MAP.neighbours(unit.type, unit.location)))
    if roll < 0.65 and others:
        friend = rng.choice(others)
        targets = [t for t in MAP.neighbours(friend.type, friend.location) if t != unit.location]
        target = rng.choice(targets).split("/")[0] if targets and rng.random() < 0.6 else None
        return Support(unit, friend.province, target)
    if roll < 0.8 and unit.type == "F" and MAP.province(unit.location).kind == "sea":
        armies = [u for u in others if u.type == "A" and MAP.province(u.location).kind == "coast"]
        if armies:
            return Convoy(unit, rng.choice(armies).province, rng.choice(COASTAL))
    if roll < 0.9 and unit.type == "A" and MAP.province(unit.location).kind == "coast":
        return Move(unit, rng.choice(COASTAL), via_convoy=rng.random() < 0.3)
    return Hold(unit)


def random_orders(rng: random.Random, position: Position) -> dict[Unit, MovementOrder]:
    return {u: random_order(rng, position, u) for u in position.units if rng.random() < 0.9}


def play(rng: random.Random, phases: int) -> Position:
    """A position reached by random play from the start."""
    position = STANDARD.start()
    for _ in range(phases):
        kind = position.phase.kind
        if kind == "movement":
            position = resolve_movement(MAP, position, random_orders(rng, position)).position
        elif kind == "retreat":
            retreats: dict[Unit, RetreatOrder] = {}
            for d in position.dislodged:
                options = retreat_options(MAP, position, d)
                if options:
                    retreats[d.unit] = Retreat(d.unit, rng.choice(options))
            position = resolve_retreats(MAP, position, retreats).position
        else:
            builds: list[AdjustmentOrder] = []
            for power in position.powers:
                if adjustment_due(MAP, position, power) > 0:
                    builds += [Build(power, "A", sc) for sc in free_home_centres(MAP, position, power)]
            position = resolve_adjustments(MAP, position, builds).position
    return position


def _check_conservation(position: Position, orders: dict[Unit, MovementOrder]) -> None:
    result = resolve_movement(MAP, position, orders)
    provinces = [u.province for u in result.units]
    assert len(provinces) == len(set(provinces)), "two units in one province"
    assert len(result.units) + len(result.dislodged) == len(position.units)
    assert {d.unit for d in result.dislodged} <= set(position.units)
    assert all(MAP.can_hold(u.type, u.location) for u in result.units)
    assert {d.unit.province for d in result.dislodged} <= set(provinces), "dislodged without an attacker"
    assert len(result.results) == len(set(orders.values()))


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_random_orders_on_the_start_position(rng: random.Random) -> None:
    position = STANDARD.start()
    _check_conservation(position, random_orders(rng, position))


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=1, max_value=12))
def test_random_orders_after_random_play(rng: random.Random, phases: int) -> None:
    position = play(rng, phases)
    while position.phase.kind != "movement":
        position = play_one_quiet_phase(position)
    _check_conservation(position, random_orders(rng, position))


def play_one_quiet_phase(position: Position) -> Position:
    if position.phase.kind == "retreat":
        return resolve_retreats(MAP, position, {}).position
    return resolve_adjustments(MAP, position, []).position


def movement_phase(rng: random.Random, phases: int) -> tuple[Position, dict[Unit, MovementOrder]]:
    """A movement phase reached by random play, and random orders for it."""
    position = play(rng, phases)
    while position.phase.kind != "movement":
        position = play_one_quiet_phase(position)
    return position, random_orders(rng, position)


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=0, max_value=8))
def test_resolution_is_deterministic_and_order_independent(rng: random.Random, phases: int) -> None:
    position, orders = movement_phase(rng, phases)
    first = resolve_movement(MAP, position, orders)
    shuffled = list(orders.items())
    rng.shuffle(shuffled)
    second = resolve_movement(MAP, position, dict(shuffled))
    assert first.units == second.units
    assert first.dislodged == second.dislodged
    assert first.contested == second.contested
    assert first.position == second.position
    assert sorted(map(repr, first.results)) == sorted(map(repr, second.results))


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=0, max_value=8))
def test_checking_then_adjudicating_is_resolving(rng: random.Random, phases: int) -> None:
    position, orders = movement_phase(rng, phases)
    checked = check_movement_orders(MAP, position, orders)
    assert [order for order, _ in checked.outcomes] == list(orders.values())
    assert adjudicate_movement(MAP, checked) == resolve_movement(MAP, position, orders)


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=0, max_value=12))
def test_a_resolved_position_reads_back_from_its_json(rng: random.Random, phases: int) -> None:
    from engine.diplomacy._json import position_from_json, position_to_json

    position = play(rng, phases)
    data = position_to_json(STANDARD, position)
    variant, again = position_from_json(data)
    assert variant is STANDARD
    assert position_to_json(STANDARD, again) == data
    assert sorted(again.units) == sorted(position.units) and again.dislodged == position.dislodged
