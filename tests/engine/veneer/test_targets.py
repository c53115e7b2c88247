"""Veneer's secret targets (rulings 2026-11-24): dealt uniformly at random among every assignment
where each player targets 2 and is targeted by 2, never itself; listed alphabetically; and nothing
in one player's mail tells anything about the others' targets."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import timedelta
from pathlib import Path

import pytest

from engine.veneer import VENEER
from engine.veneer import _setup as setup
from tests.conftest import Table, write
from tests.helpers.clock import at
from tests.helpers.veneer import PLAYERS, current, table

Pattern = tuple[tuple[str, tuple[str, ...]], ...]


def every_valid_pattern(players: Sequence[str]) -> set[Pattern]:
    """By brute force: each player picks two others; keep the picks where everyone is picked twice."""
    choices = [list(itertools.combinations([q for q in players if q != p], 2)) for p in players]
    return {
        tuple(zip(players, picks, strict=True))
        for picks in itertools.product(*choices)
        if Counter(q for pair in picks for q in pair) == dict.fromkeys(players, 2)
    }


def dealt(players: Sequence[str], seed: int) -> Pattern:
    targets = setup.deal_targets(players, random.Random(seed))
    return tuple((p, targets[p]) for p in players)


@pytest.mark.parametrize(("n", "deals"), [(4, 2_000), (5, 8_000)])
def test_every_valid_assignment_is_dealt_about_equally_often(n: int, deals: int) -> None:
    players = PLAYERS[:n]
    valid = every_valid_pattern(players)
    assert len(valid) == {4: 9, 5: 216}[n]
    seen = Counter(dealt(players, seed) for seed in range(deals))
    assert set(seen) == valid  # nothing invalid, and every valid assignment can be dealt
    expected = deals / len(valid)
    assert all(0.5 * expected < k < 1.6 * expected for k in seen.values()), seen.most_common(3)


def test_five_players_get_many_more_than_the_24_patterns_of_a_circle() -> None:
    patterns = {dealt(PLAYERS, seed) for seed in range(300)}
    assert len(patterns) > 24  # the 4! seatings of a circle, each targeting the next two
    assert any(not _is_circle(dict(p)) for p in patterns)


def _is_circle(targets: dict[str, tuple[str, ...]]) -> bool:
    """Seated in some circle, each targeting the next two."""
    for order in itertools.permutations(targets):
        if all(
            set(targets[p]) == {order[(i + 1) % len(order)], order[(i + 2) % len(order)]}
            for i, p in enumerate(order)
        ):
            return True
    return False


def test_a_players_targets_are_listed_alphabetically() -> None:
    names = ["zoe", "Yann", "xavier", "Walt", "vera", "Ulla"]
    for seed in range(50):
        state = VENEER.setup(names, {}, random.Random(seed))
        for seat in state.seats:
            assert list(seat.targets) == sorted(seat.targets, key=str.casefold)
            assert f"your targets are {seat.targets[0]} and {seat.targets[1]}." in VENEER.order_template(
                state, seat.name
            )


# --- through the tick: Agatha's mail is the same whoever the others target ------------------

Targets = dict[str, tuple[str, ...]]
SAME_FOR_AGATHA: Targets = {"Agatha": ("Barney", "Charles")}
CIRCLE: Targets = {
    **SAME_FOR_AGATHA,
    "Barney": ("Charles", "Darcy"),
    "Charles": ("Darcy", "Emmett"),
    "Darcy": ("Agatha", "Emmett"),
    "Emmett": ("Agatha", "Barney"),
}
NO_CIRCLE: Targets = {
    **SAME_FOR_AGATHA,
    "Barney": ("Darcy", "Emmett"),
    "Charles": ("Agatha", "Emmett"),
    "Darcy": ("Agatha", "Barney"),
    "Emmett": ("Charles", "Darcy"),
}


def _dealing(targets: dict[str, tuple[str, ...]]) -> Callable[..., dict[str, tuple[str, ...]]]:
    real = setup.deal_targets

    def deal(players: Sequence[str], rng: random.Random) -> dict[str, tuple[str, ...]]:
        real(players, rng)  # the same draws from the game's rng, so all else is dealt alike
        return targets

    return deal


def _agathas_mail(root: Path, monkeypatch: pytest.MonkeyPatch, targets: dict[str, tuple[str, ...]]) -> str:
    monkeypatch.setattr(setup, "deal_targets", _dealing(targets))
    t: Table = table(root)
    t.tick(at(0, 8, 5))
    for _ in range(16):  # three turns or so of votes, musters and ends, nobody attacking
        state, deadline, finished = current(t)
        assert not finished and deadline is not None
        for player in sorted(VENEER.awaiting(state)):
            write(t, player, "vote yes" if state.stage == "vote" else "pass")
        t.tick(deadline + timedelta(minutes=1))
    assert current(t)[0].seat("Darcy").targets == targets["Darcy"]
    return "\n".join(m.as_string() for m in t.sent("agatha@players.test"))


def test_nothing_in_a_players_mail_depends_on_the_others_targets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one = _agathas_mail(tmp_path / "one", monkeypatch, CIRCLE)
    two = _agathas_mail(tmp_path / "two", monkeypatch, NO_CIRCLE)
    assert "your targets are Barney and Charles" in one
    assert one == two
