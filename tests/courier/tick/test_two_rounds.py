"""One tick that must resolve two rounds or more (a gap with `stale_after = 0`, a journal put back
with `courier restore` then `courier tick --reread-since`, a game released from quarantine after two
deadlines): every mail counts for the round whose deadline it beat, by its journalled arrival,
whatever order the tick meets them in; and `courier replay` agrees."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from courier.tools.cli import main
from tests.conftest import Table, count_fault, text_of
from tests.helpers.clock import at

# Truce, 5 rounds, deadlines at 20:00 each day from 1 December: round 1 closes at(0, 20),
# round 2 at(1, 20), round 3 at(2, 20).
FIVE_ROUNDS = {"rounds": "5"}


def mail_at(t: Table, when: datetime, name: str, body: str) -> None:
    """A player's orders, delivered (and so journalled as arriving) at ``when``."""
    t.clock = when - timedelta(minutes=1)  # the table delivers a minute after its clock
    t.order(name, body)


def one_order_a_round(t: Table) -> None:
    """Agatha loots before round 1's deadline, Barney before round 2's, Celeste before round 3's."""
    mail_at(t, at(0, 10), "Agatha", "loot")
    mail_at(t, at(1, 10), "Barney", "loot")
    mail_at(t, at(2, 10), "Celeste", "loot")


def rounds_played(t: Table) -> list[dict[str, object]]:
    journal = t.journal()
    try:
        return journal.rounds("truce-1")
    finally:
        journal.close()


def looters(t: Table) -> list[list[str]]:
    """Who looted in each resolved round, as the journal recorded the orders."""
    return [
        sorted(p for p, s in r["submissions"].items() if s["orders"] == ["loot"])  # type: ignore[attr-defined]
        for r in rounds_played(t)
    ]


def results(t: Table, round_: int) -> str:
    """The text of Darcy's last report on one round (Darcy wrote nothing: only the results)."""
    reports = [m for m in t.sent("Darcy") if f"Round {round_} of 5: results" in str(m["Subject"])]
    return text_of(reports[-1])


def assert_each_round_had_its_own_orders(t: Table, capsys: pytest.CaptureFixture[str]) -> None:
    """What the players read: each round's results show the orders mailed before its deadline."""
    for round_, looter in enumerate(["Agatha", "Barney", "Celeste"], start=1):
        text = results(t, round_)
        assert f"{looter} chose loot." in text, f"round {round_}: {text}"
        assert [line for line in text.splitlines() if "chose loot" in line] == [f"  - {looter} chose loot."]
    assert looters(t)[:3] == [["Agatha"], ["Barney"], ["Celeste"]]
    capsys.readouterr()
    assert main(["replay", "truce-1", "--config", str(t.deployment.path)]) == 0
    assert "all reproduce" in capsys.readouterr().out
    count_fault("two rounds in one tick")


def test_a_gap_with_the_outage_guard_off(
    make_table: Callable[..., Table], capsys: pytest.CaptureFixture[str]
) -> None:
    t = make_table(FIVE_ROUNDS)  # the tests' deployment has stale_after = 0
    t.tick(at(0, 8, 5))
    one_order_a_round(t)
    assert t.tick(at(2, 21)) == []  # three deadlines passed since the last tick
    assert_each_round_had_its_own_orders(t, capsys)


def test_a_journal_put_back_then_mail_read_again(
    make_table: Callable[..., Table], capsys: pytest.CaptureFixture[str]
) -> None:
    """The recovery operating.md describes: `courier restore` an older copy, then
    `courier tick --reread-since`; the copy holds round 1 open, the inbox the mail of rounds 1 to 3."""
    t = make_table(FIVE_ROUNDS)
    t.tick(at(0, 8, 5))
    for day in range(3):  # each player's mail is read, then the round resolves (a copy taken first)
        mail_at(t, at(day, 10), ["Agatha", "Barney", "Celeste"][day], "loot")
        t.tick(at(day, 10, 5))
        t.tick(at(day, 20, 5))
    copy = min(t.deployment.backup_dir.glob("journal-*.sqlite"))  # taken before round 1 resolved
    for lost in t.deployment.state_dir.glob("journal.sqlite*"):
        lost.unlink()
    config = str(t.deployment.path)
    assert main(["restore", str(copy), "--config", config]) == 0
    now, since = at(2, 21).isoformat(), at(0, 0).isoformat()
    assert main(["tick", "--config", config, "--now", now, "--reread-since", since]) == 0
    assert len(rounds_played(t)) == 3
    assert_each_round_had_its_own_orders(t, capsys)


def test_a_game_released_from_quarantine_after_two_deadlines(
    make_table: Callable[..., Table], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from courier.tick import runbook

    t = make_table(FIVE_ROUNDS)
    t.tick(at(0, 8, 5))
    mail_at(t, at(0, 10), "Agatha", "loot")

    def failing(*_: object) -> None:
        raise RuntimeError("a bug in the rules")

    monkeypatch.setattr(runbook, "resolve_due", failing)
    for minutes in range(5, 30, 5):  # five failing ticks set the game aside
        assert t.tick(at(0, 20, minutes))
    mail_at(t, at(1, 10), "Barney", "loot")  # both wait in the journal while the game is set aside
    mail_at(t, at(2, 10), "Celeste", "loot")
    assert t.tick(at(2, 12)) == [] and rounds_played(t) == []
    monkeypatch.undo()
    config = str(t.deployment.path)
    assert main(["release", "truce-1", "--config", config]) == 0
    assert main(["tick", "--config", config, "--now", at(2, 21).isoformat()]) == 0
    assert_each_round_had_its_own_orders(t, capsys)
