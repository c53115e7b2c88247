"""An organiser's CLI command is checked at once as far as it can be (issue 29): the game runs, the
name means a seat, the seat's state and the game's allow it. A command that cannot apply exits
non-zero with one line and journals nothing; one that can is journalled for the next tick."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from courier.tools.cli import main
from tests.conftest import Table, text_of
from tests.helpers.clock import at

ORGANISER = "organiser@courier.test"


def cli(t: Table, *args: str) -> int:
    return main([args[0], "--config", str(t.deployment.path), *args[1:], "--now", at(0, 9).isoformat()])


def _count(t: Table) -> int:
    import sqlite3

    with sqlite3.connect(t.deployment.journal_path) as db:
        return int(db.execute("SELECT count(*) FROM inputs WHERE source = 'cli'").fetchone()[0])


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    t = make_table()
    assert t.tick(at(0, 8, 5)) == []
    return t


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("kick", "truce-1", "Davey"), "no player 'Davey' in this game (did you mean Darcy?)"),
        (("bot", "truce-1", "Zed"), "no player 'Zed' in this game; the players are Agatha, Barney"),
        (("replace", "truce-1", "Darcy", "agatha@players.test"), "agatha@players.test already plays Agatha"),
        (("resume", "truce-1"), "the game is not paused"),
        (("rollback", "truce-1", "--to", "2"), "round 2 has not been resolved"),
        (("change", "truce-1", "Darcy", "barney@players.test"), "barney@players.test already plays Barney"),
    ],
)
def test_a_cli_command_that_cannot_apply_exits_non_zero_at_once(
    table: Table, argv: tuple[str, ...], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(table, *argv) != 0
    err = capsys.readouterr().err
    assert said in err and "nothing was journalled" in err and len(err.strip().splitlines()) == 1
    assert _count(table) == 0
    table.tick(at(0, 9, 1))
    assert not [m for m in table.sent(ORGANISER) if m["X-Courier-Kind"] == "answer"]


def test_a_seat_that_left_cannot_be_kicked_again(table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(table, "kick", "truce-1", "darc") == 0  # the beginning of a name, as orders read it
    table.tick(at(0, 9, 1))
    assert "kick darc: done" in text_of(table.sent(ORGANISER)[-1])
    assert cli(table, "kick", "truce-1", "Darcy") != 0
    assert "Darcy has left the game already" in capsys.readouterr().err


def test_a_command_before_the_game_starts_is_refused(
    make_table: Callable[..., Table], capsys: pytest.CaptureFixture[str]
) -> None:
    t = make_table()
    assert cli(t, "pause", "truce-1") != 0
    assert "game truce-1 has not started yet" in capsys.readouterr().err
