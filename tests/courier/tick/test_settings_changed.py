"""An organiser edits a running game's Config tab: the schedule changes from the next round, game
options stay as the game began, and the organiser gets one mail saying exactly what changed."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from courier.backends.workbook import write_config
from courier.journal.replay import replay_game
from engine import find_ruleset
from engine.core import Amendable, rng_for
from tests.conftest import BASE_CONFIG, PLAYERS, Table, address, text_of
from tests.helpers.clock import at


def test_a_config_edit_takes_effect_from_the_next_round_and_the_organiser_is_told(
    make_table: Callable[..., Table],
) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    players = [{"name": n, "email": address(n)} for n in PLAYERS]
    write_config(t.root / "truce-1.xlsx", {**BASE_CONFIG, "deadlines": "21:00", "rounds": "5"}, players)
    t.tick(at(0, 9))
    answers = [m for m in t.sent("organiser@courier.test") if m["X-Courier-Kind"] == "answer"]
    assert len(answers) == 1 and answers[0]["Subject"] == "[truce-1] Settings changed"
    text = text_of(answers[0])
    assert "`deadlines`: 20:00 → 21:00; it takes effect from the next round." in text
    assert "`rounds`: 3 → 5; applied at once: the game is now at Round 1 of 5." in text
    t.tick(at(0, 20, 5))  # round 1 keeps its deadline
    journal = t.journal()
    try:
        row = journal.game("truce-1")
        assert [r["phase_key"] for r in journal.rounds("truce-1")] == ["round-1"]
    finally:
        journal.close()
    assert row is not None and row.deadline is not None and row.deadline.hour == 21  # round 2: 21:00
    t.tick(at(0, 21))
    assert len([m for m in t.sent("organiser@courier.test") if m["X-Courier-Kind"] == "answer"]) == 1
    assert "Round 2 of 5" in text_of(t.sent("Agatha")[-1])
    journal = t.journal()
    try:
        _, problems = replay_game(journal, "truce-1")
    finally:
        journal.close()
    assert problems == []  # replay changes the rounds where the organiser did


def test_an_option_that_cannot_change_is_said_so(make_table: Callable[..., Table]) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    t.tick(at(0, 20, 5))
    t.tick(at(1, 20, 5))  # round 3 of 3 is under way
    players = [{"name": n, "email": address(n)} for n in PLAYERS]
    write_config(t.root / "truce-1.xlsx", {**BASE_CONFIG, "rounds": "2", "initial_stash": "4"}, players)
    t.tick(at(2, 9))
    text = text_of([m for m in t.sent("organiser@courier.test") if m["X-Courier-Kind"] == "answer"][-1])
    assert "`rounds`: 3 → 2; not applied: round 3 is under way" in text
    assert "`initial_stash`: (none) → 4; this is fixed when the game begins" in text


def test_monarchs_turns_change_mid_game_but_never_below_the_turn_under_way() -> None:
    ruleset = find_ruleset("monarchs")
    roles = {"roles": {"Rhea": "red", "Gus": "green", "Bea": "blue"}, "turns": 3}
    state = ruleset.setup(["Rhea", "Gus", "Bea"], roles, rng_for("seed", "setup"))
    assert isinstance(ruleset, Amendable)
    assert ruleset.phase(ruleset.amend(state, "turns", "5")).label == "Turn 1 of 5"
    with pytest.raises(ValueError, match="turn 1 is under way"):
        ruleset.amend(state, "turns", "0")
