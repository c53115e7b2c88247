"""`process now` resolves the round at once; the next round still gets at least a normal round's length
(issue 29: processed at 11:00 with daily deadlines at 20:00, the next round had 9 hours)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from courier.tools.cli import main
from tests.conftest import Table, text_of
from tests.helpers.clock import at


def deadline(t: Table) -> object:
    journal = t.journal()
    try:
        row = journal.game("truce-1")
        assert row is not None
        return row.deadline
    finally:
        journal.close()


def process(t: Table, when: object) -> None:
    assert main(["process", "truce-1", "--config", str(t.deployment.path), "--now", str(when)]) == 0


def test_a_round_after_process_now_gets_a_full_day(make_table: Callable[..., Table]) -> None:
    t = make_table()  # a deadline at 20:00 every day
    t.tick(at(0, 8, 5))
    process(t, at(0, 11).isoformat())
    t.tick(at(0, 11, 5))
    assert deadline(t) == at(1, 20)  # not 20:00 today, 9 hours away
    report = next(m for m in t.sent("Agatha") if m["X-Courier-Kind"] == "report")
    assert "Wed 02 Dec 2026 20:00" in text_of(report)


def test_with_two_deadlines_a_day_the_round_gets_the_shortest_gap(make_table: Callable[..., Table]) -> None:
    t = make_table({"deadlines": "08:00, 20:00"})
    t.tick(at(0, 8, 5))  # the game starts at 08:00: round 1 until 20:00
    process(t, at(0, 11).isoformat())
    t.tick(at(0, 11, 5))
    assert deadline(t) == at(1, 8)  # 20:00 today leaves 9 hours of the usual 12


def test_with_a_duration_the_round_lasts_it_from_the_processing(make_table: Callable[..., Table]) -> None:
    t = make_table({"deadlines": "", "duration": "24h"})
    t.tick(at(0, 8, 5))
    process(t, at(0, 11).isoformat())
    t.tick(at(0, 11, 5))
    assert deadline(t) == at(0, 11, 5) + timedelta(hours=24)
