"""After an outage the first tick resolves nothing: overdue deadlines move by the outage's length (at
least to now + outage_grace) and everybody is told once. A clock running backwards stops the tick."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import openpyxl
import pytest

from courier.config.deployment import load_deployment
from courier.tick.outage import ClockError
from courier.tools.cli import main
from tests.conftest import Table, count_fault, text_of
from tests.helpers.clock import at
from tests.helpers.games import GAMES


def guarded(make: Callable[[Path], Table], root: Path, stale_after: str = '"6h"') -> Table:
    t = make(root)
    toml = t.root / "courier.toml"
    toml.write_text(toml.read_text().replace("stale_after = 0", f"stale_after = {stale_after}"))
    t.deployment = load_deployment(toml)
    return t


def game_row(t: Table):  # type: ignore[no-untyped-def]
    journal = t.journal()
    try:
        return journal.game("truce-1"), journal.rounds("truce-1")
    finally:
        journal.close()


@pytest.mark.parametrize("game", GAMES)
def test_the_tick_after_an_outage_moves_the_deadline_instead_of_resolving(tmp_path: Path, game: str) -> None:
    t = guarded(GAMES[game], tmp_path)
    t.tick(at(0, 8, 5))
    t.tick(at(0, 9, 5))
    (before, _) = game_row(t)
    assert before is not None and before.deadline is not None and before.deadline < at(2, 9, 5)
    sent = len(t.sent())
    assert t.tick(at(2, 9, 5)) == []  # two days off
    after, rounds = game_row(t)
    assert rounds == [], "nothing is resolved by the first tick after an outage"
    assert after.phase_key == before.phase_key
    assert after.deadline == max(before.deadline + timedelta(hours=48), at(2, 9, 5) + timedelta(hours=12))
    news = [m for m in t.sent()[sent:] if "Reminder" not in str(m["Subject"])]
    told = {str(m["To"]) for m in news}
    assert "organiser@courier.test" in told
    players = {str(m["To"]) for m in t.sent()[:sent]} - {"organiser@courier.test"}
    assert players <= told, "every player hears that the deadline moved"
    assert all("not running" in text_of(m) for m in news)
    history = openpyxl.load_workbook(t.root / "truce-1.xlsx")["History"]
    assert any("Outage" in str(c.value) for row in history.iter_rows() for c in row)
    told_once = len(t.sent())
    t.tick(at(2, 10, 5))
    assert len(t.sent()) == told_once, "told once"
    count_fault("outage")


def test_orders_sent_during_the_outage_count_and_one_round_resolves_at_a_time(tmp_path: Path) -> None:
    t = guarded(GAMES["truce"], tmp_path)
    t.tick(at(0, 8, 5))
    t.clock = at(1, 12, 5)  # delivered while the server was off, after the old deadline
    t.order("Agatha", "loot")
    t.tick(at(3, 9, 5))  # three deadlines passed meanwhile
    row, rounds = game_row(t)
    assert rounds == [] and row.deadline == at(3, 9, 5) + timedelta(hours=12)
    for hour in (14, 19):  # cron is back: ticks every few hours at most
        t.tick(at(3, hour, 5))
    t.tick(row.deadline + timedelta(minutes=5))
    row, rounds = game_row(t)
    assert len(rounds) == 1
    assert rounds[0]["submissions"]["Agatha"]["orders"] == ["loot"], "the outage's order counted"


def test_stale_after_zero_keeps_catching_up_at_once(tmp_path: Path) -> None:
    t = guarded(GAMES["truce"], tmp_path, stale_after="0")
    t.tick(at(0, 8, 5))
    t.tick(at(3, 9, 5))
    _, rounds = game_row(t)
    assert len(rounds) == 3


def test_a_clock_running_backwards_stops_the_tick(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    t = guarded(GAMES["truce"], tmp_path)
    t.tick(at(0, 9, 5))
    t.order("Agatha", "loot")
    with pytest.raises(ClockError):
        t.tick(at(0, 8, 5))
    assert main(["tick", "--config", str(t.root / "courier.toml"), "--now", at(0, 8, 5).isoformat()]) == 2
    assert "earlier than the last tick" in capsys.readouterr().err
    assert len(list((t.root / "mail" / "inbox" / "new").iterdir())) == 1, "no mail read"


def test_a_kicked_player_gets_no_outage_notice(tmp_path: Path) -> None:
    """A seat the organiser kicked is out of the game: the outage's notice goes to those still in it."""
    t = guarded(GAMES["truce"], tmp_path)
    t.tick(at(0, 8, 5))
    config = str(t.root / "courier.toml")
    assert main(["kick", "truce-1", "Darcy", "--config", config, "--now", at(0, 9).isoformat()]) == 0
    t.tick(at(0, 9, 5))
    assert t.tick(at(2, 9, 5)) == []  # two days off: the deadline moves, everybody in the game is told

    def told(name: str) -> bool:
        return any("not running" in text_of(m) for m in t.sent(name))

    assert told("Agatha") and told("organiser@courier.test")
    assert not told("Darcy"), "Darcy left the game: no notice"
