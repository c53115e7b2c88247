"""Talossan RISK colours (issue 14): two conquerors never get nearly the same colour on the map. A
colour asked for is given when the map knows it and it stands apart (CIE76 ΔE ≥ MIN_DISTANCE) from
every other conqueror's and from the free lands; else the first distinct one, and the reason is kept
for the welcome."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.talossa import TALOSSA, TalossaState
from engine.talossa._colours import FREE, MIN_DISTANCE, choose_colour, distance, fill_colour

FOUR = {"Al": "; red", "Bea": "; blue", "Cy": "; green", "Di": "; yellow"}


def joined(roles: dict[str, str]) -> TalossaState:
    return TALOSSA.setup(list(roles), {"roles": roles, "min_conquerors": 1}, random.Random(1))


def closest(state: TalossaState) -> float:
    fills = [fill_colour(c.colour) or "" for c in state.countries]
    return min(distance(a, b) for a, b in itertools.combinations([FREE, *fills], 2))


@pytest.mark.parametrize("asked", ["", "red", "Red", "maroon", "#e57373", "white", "purple", "mauve"])
def test_thirty_conquerors_asking_alike_all_look_different(asked: str) -> None:
    state = joined({f"P{i}": f"; {asked}" for i in range(30)})
    assert closest(state) >= MIN_DISTANCE


@pytest.mark.parametrize(
    ("asked", "given", "reason", "like"),
    [
        ("pink", "pink", None, None),  # near red, but apart enough
        ("maroon", "purple", "taken", "Al"),
        ("GOLD", "purple", "taken", "Di"),
        ("white", "purple", "free", None),
        ("chartreuse", "purple", "unknown", None),
        ("#2e7d32", "#2e7d32", None, None),
        ("", "purple", None, None),
    ],
)
def test_a_colour_too_like_anothers_is_replaced_and_the_reason_kept(
    asked: str, given: str, reason: str | None, like: str | None
) -> None:
    state = joined({**FOUR, "Eve": f"; {asked}"})
    eve = state.country("Eve")
    assert eve.colour == given and eve.arrival is not None
    assert (eve.arrival.colour_reason, eve.arrival.colour_holder) == (reason, like)
    assert eve.arrival.asked_colour == (asked if reason else None)


def test_the_colour_asked_for_is_given_when_it_stands_apart() -> None:
    assert choose_colour("navy", ["red", "green"]) == ("navy", None, None)
    assert choose_colour("gold", ["red", "yellow"]) == ("blue", "taken", 1)
