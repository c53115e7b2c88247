"""A command that cannot apply, by CLI or by mail, never freezes the deployment: its bounds are
checked when it is given (a duration, a time ahead), and one that fails all the same (a bug) is
refused and answered once; the other mail of the tick is read, and the next tick is clean."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from courier.commands.step import Step
from courier.tools.cli import main
from tests.conftest import Table, count_fault, text_of
from tests.helpers.clock import at

ORGANISER = "organiser@courier.test"


def cli(t: Table, *args: str) -> int:
    return main([args[0], "--config", str(t.deployment.path), *args[1:]])


def answers(t: Table, to: str = ORGANISER) -> list[str]:
    return [text_of(m) for m in t.sent(to) if m["X-Courier-Kind"] == "answer"]


def receipts(t: Table, name: str) -> int:
    return sum(m["X-Courier-Kind"] == "receipt" for m in t.sent(name))


def deadline(t: Table) -> object:
    journal = t.journal()
    try:
        row = journal.game("truce-1")
        assert row is not None
        return row.deadline
    finally:
        journal.close()


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    t = make_table()
    assert t.tick(at(0, 8, 5)) == []
    return t


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("extend", "truce-1", "3000000d"), "at most 366 days"),
        (("extend", "truce-1", "99999999999999999999d"), "at most 366 days"),
        (("extend", "truce-1", "--until", "9999-12-31 23:59"), "more than 366 days ahead"),
        (("resume", "truce-1", "--until", "2028-01-01"), "more than 366 days ahead"),
    ],
)
def test_a_command_out_of_bounds_is_refused_by_the_cli_at_once(
    table: Table, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], says: str
) -> None:
    before = deadline(table)
    assert cli(table, *args, "--now", at(0, 9).isoformat()) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1
    assert table.tick(at(0, 9, 5)) == [], "nothing was journalled, nothing fails"
    assert deadline(table) == before
    assert answers(table) == []


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("extend 3000000d", "at most 366 days"),
        ("extend until 9999-12-31 23:59", "more than 366 days ahead"),
    ],
)
def test_a_command_out_of_bounds_by_mail_is_refused_and_answered_once(
    table: Table, line: str, says: str
) -> None:
    table.mail(ORGANISER, line, subject="[truce-1] commands")
    assert table.tick(at(0, 9)) == []
    (answer,) = answers(table)
    assert "Nothing was done" in answer and says in answer
    assert table.tick(at(0, 10)) == [] and len(answers(table)) == 1


def _failing_save(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any command that writes the game fails as an unforeseen bug would (the OverflowError a huge
    `extend` raised before it was bounded)."""

    def save(self: Step, **changes: object) -> None:
        raise OverflowError("date value out of range")

    monkeypatch.setattr(Step, "save", save)


def test_a_cli_command_that_fails_is_refused_answered_and_never_retried(
    table: Table, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    before = deadline(table)
    assert cli(table, "extend", "truce-1", "24h", "--now", at(0, 9).isoformat()) == 0
    table.order("Agatha", "loot")  # the players' mail of the same tick is read all the same
    _failing_save(monkeypatch)
    code = cli(table, "tick", "--now", at(0, 9, 5).isoformat())
    err = capsys.readouterr().err
    assert code == 1 and "extend 24h" in err and "OverflowError" in err and err.count("\n") == 1
    (answer,) = answers(table)
    assert "extend 24h" in answer and "Nothing was done" in answer and "OverflowError" in answer
    assert receipts(table, "Agatha") == 1
    assert deadline(table) == before
    assert cli(table, "tick", "--now", at(0, 10).isoformat()) == 0, "the command is not retried"
    assert len(answers(table)) == 1
    monkeypatch.undo()
    table.tick(at(0, 20, 5))
    journal = table.journal()
    assert [r["phase_key"] for r in journal.rounds("truce-1")] == ["round-1"], "the game goes on"
    journal.close()
    count_fault("failing command")


def test_a_mailed_command_that_fails_is_refused_answered_and_never_retried(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table.mail(ORGANISER, "pause", subject="[truce-1] commands")
    _failing_save(monkeypatch)
    problems = table.tick(at(0, 9))
    assert len(problems) == 1 and "pause" in problems[0] and "OverflowError" in problems[0]
    (answer,) = answers(table)
    assert "pause" in answer and "Nothing was done" in answer
    assert not any("paused" in text_of(m) for m in table.sent("Agatha")), "nothing changed"
    assert table.tick(at(0, 10)) == [] and len(answers(table)) == 1
    count_fault("failing command")


def test_a_players_command_that_fails_is_refused_answered_and_never_retried(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table.order("Agatha", "status")

    def status(*args: object) -> str:
        raise RuntimeError("a bug in status")

    monkeypatch.setattr("courier.commands.players.status_lines", status)
    problems = table.tick(at(0, 9))
    assert len(problems) == 1 and "RuntimeError" in problems[0]
    (answer,) = answers(table, "agatha@players.test")
    assert "status" in answer and "Nothing was done" in answer
    assert table.tick(at(0, 10)) == [] and len(answers(table, "agatha@players.test")) == 1
    count_fault("failing command")
