"""Veneer combat arithmetic: interception and the return of lent defenders, from known-answer
files in tests/data/veneer/, plus invariants over every small case."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.veneer import intercept, split_returns
from engine.veneer._combat import needs_decision
from tests.helpers.paths import DATA as TEST_DATA

DATA = TEST_DATA / "veneer"


def _cases(name: str) -> list[str]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def _pairs(text: str) -> list[tuple[str, int]]:
    return [(k, int(v)) for k, v in (item.split("=") for item in text.split())] if text != "-" else []


@pytest.mark.parametrize("case", _cases("interception.txt"))
def test_interception_known_answers(case: str) -> None:
    given_, expected = case.split("->")
    numbers = [int(n) for n in given_.split()]
    defenders, attackers, strength = (*numbers, 2) if len(numbers) == 2 else numbers
    result = intercept(attackers, defenders, strength)
    assert (result.attackers_lost, result.defenders_lost, result.survivors) == tuple(
        int(n) for n in expected.split()
    )


def test_the_seeds_examples() -> None:
    assert intercept(1, 1).survivors == 0 and intercept(1, 1).defenders_lost == 0  # 1 vs 1
    assert intercept(2, 1).defenders_lost == 1  # 1 vs 2: both attackers and the defender
    assert intercept(3, 1).survivors == 1  # 1 vs 3: one gets through
    assert intercept(2, 2).defenders_lost == 1  # 2 vs 2: one defender takes both


@pytest.mark.parametrize("case", _cases("returns.txt"))
def test_returns_known_answers(case: str) -> None:
    loans_text, available, rest = (part.strip() for part in case.split("|"))
    chosen_text, expected = (part.strip() for part in rest.split("->"))
    chosen = dict(_pairs(chosen_text)) or None
    assert split_returns(_pairs(loans_text), int(available), chosen) == _pairs(expected)


def test_only_a_shortfall_between_two_lenders_needs_a_decision() -> None:
    assert needs_decision([("Barney", 2), ("Darcy", 1)], 2)
    assert not needs_decision([("Barney", 2), ("Darcy", 1)], 3)
    assert not needs_decision([("Barney", 3)], 1)
    assert not needs_decision([("Barney", 1), ("Darcy", 1)], 0)  # nothing left: nothing to decide


@given(st.integers(0, 12), st.integers(0, 12), st.integers(1, 4))
def test_interception_never_creates_or_loses_attackers(attackers: int, defenders: int, strength: int) -> None:
    r = intercept(attackers, defenders, strength)
    assert r.attackers_lost + r.survivors == attackers
    assert 0 <= r.defenders_lost <= defenders
    assert r.survivors == max(0, attackers - strength * defenders)


@given(st.lists(st.integers(0, 5), min_size=1, max_size=4), st.integers(0, 15), st.lists(st.integers(0, 6)))
def test_returns_give_back_as_many_as_possible_never_more_than_lent(
    lent: list[int], available: int, choice: list[int]
) -> None:
    loans = [(f"P{i}", n) for i, n in enumerate(lent)]
    chosen = {f"P{i}": n for i, n in enumerate(choice)}
    back = split_returns(loans, available, chosen)
    assert sum(n for _, n in back) == min(available, sum(lent))
    assert all(0 <= got <= owed for (_, got), (_, owed) in zip(back, loans, strict=True))
