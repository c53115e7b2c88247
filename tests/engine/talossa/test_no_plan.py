"""II.5 and the rulings: no Action Plan by the deadline → 6 random legal actions. A mail in which no
action can be read is no Action Plan, so it draws the 6 actions too (and its receipt says so)."""

from __future__ import annotations

import random

from engine.talossa import TALOSSA, PlanPublished, TalossaState
from tests.helpers.talossa import of, position

UNREADABLE = "Greetings, Gamemaster!\nattak evrything, 3\nR: Atlantis, 2"


def start() -> TalossaState:
    return position({"vuo-abbavilla": ("Al", 5), "mar-ogden": ("Bea", 5), "ben-mill": ("Cy", 5)})


def test_a_mail_with_only_unreadable_lines_draws_six_random_actions() -> None:
    state = start()
    garbled = TALOSSA.parse(state, "Al", UNREADABLE)
    assert garbled.orders == ()  # the greeting is skipped silently since issue 13; the attempts stay
    assert [e.line for e in garbled.errors] == ["attak evrything, 3", "R: Atlantis, 2"]
    assert any("6 random actions will be drawn" in n for n in garbled.notes)
    written = TALOSSA.parse(state, "Bea", "R: Ogden, 2")
    silent = TALOSSA.default(state, "Cy", random.Random(1))
    resolution = TALOSSA.resolve(state, {"Al": garbled, "Bea": written, "Cy": silent}, random.Random(7))
    plans = {e.player: e for e in of(list(resolution.events), PlanPublished)}
    assert plans["Al"].drawn and len(plans["Al"].actions) == 6
    assert plans["Cy"].drawn and not plans["Bea"].drawn


def test_an_unreadable_mail_after_a_plan_leaves_the_plan_standing() -> None:
    state = start()
    plan = TALOSSA.parse(state, "Al", "R: Abbavilla, 3")
    combined = TALOSSA.combine(plan, TALOSSA.parse(state, "Al", UNREADABLE))
    assert combined.orders == ("1. R: Abbavilla, 3",)
    assert combined.notes[-1] == "No action could be read in this mail, so your earlier plan still stands."
    assert not any("random" in n for n in combined.notes)
