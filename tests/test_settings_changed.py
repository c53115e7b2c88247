"""An organiser edits a running game's Config tab: the schedule changes from the next round, game
options stay as the game began, and the organiser gets one mail saying exactly what changed."""

from __future__ import annotations

from collections.abc import Callable

from courier.backends.workbook import write_config
from tests.conftest import BASE_CONFIG, PLAYERS, Table, address, at, text_of


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
    assert "`rounds`: 3 → 5; this is fixed when the game begins" in text
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
