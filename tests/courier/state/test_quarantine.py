"""A game that keeps failing is set aside; the other games go on; `courier release` brings it back
with the mail that waited. A bug in one game's reading of one mail stops nothing else."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from courier.backends.workbook import write_config
from courier.config.deployment import load_deployment
from courier.state.context import LoadedGame, Tick
from courier.tick import runbook as tick_module
from courier.tools.cli import main
from courier.tools.status import disk_warnings, status_table
from engine.core import Submission
from engine.truce import Truce
from tests.conftest import BASE_CONFIG, PLAYERS, Table, address, count_fault, text_of
from tests.helpers.clock import at

ORGANISER = "organiser@courier.test"


def two_games(table: Table) -> Table:
    players = [{"name": n, "email": address(n)} for n in PLAYERS]
    write_config(table.root / "truce-2.xlsx", BASE_CONFIG, players)
    toml = table.deployment.path
    toml.write_text(
        toml.read_text() + '\n[[game]]\nid = "truce-2"\nworkbook = "truce-2.xlsx"\nseed = "two"\n'
    )
    table.deployment = load_deployment(toml)
    return table


def _breaking_truce_2(monkeypatch: pytest.MonkeyPatch) -> None:
    real = tick_module.resolve_due  # type: ignore[attr-defined]

    def resolve_due(tick: Tick, loaded: LoadedGame) -> None:
        if loaded.config.id == "truce-2":
            raise RuntimeError("a bug in the rules")
        real(tick, loaded)

    monkeypatch.setattr(tick_module, "resolve_due", resolve_due)


def test_a_game_failing_tick_after_tick_is_set_aside_and_released(
    make_table: Callable[..., Table], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = two_games(make_table())
    table.tick(at(0, 8, 5))
    _breaking_truce_2(monkeypatch)
    when = at(0, 20, 5)
    for _ in range(5):
        problems = table.tick(when)
        assert any("truce-2" in p for p in problems)
        when += timedelta(minutes=5)
    journal = table.journal()
    assert journal.game("truce-1").phase_key == "round-2"  # type: ignore[union-attr]
    assert journal.game("truce-2").phase_key == "round-1"  # type: ignore[union-attr]
    journal.close()
    told = [text_of(m) for m in table.sent(ORGANISER) if "set aside" in text_of(m)]
    assert len(told) == 1 and "courier release truce-2" in told[0] and "a bug in the rules" in told[0]
    assert "QUARANTINED" in status_table(table.deployment)
    table.order("Agatha", "loot", subject="[truce-2] orders")  # waits while the game is set aside
    assert table.tick(when) == []
    before = len(table.sent("Agatha"))
    monkeypatch.undo()
    assert main(["release", "truce-2", "--config", str(table.deployment.path)]) == 0
    table.tick(when + timedelta(minutes=5))
    journal = table.journal()
    assert journal.game("truce-2").phase_key == "round-2"  # type: ignore[union-attr]
    assert "Agatha" in journal.standing("truce-2", "round-2")
    journal.close()
    assert len(table.sent("Agatha")) > before
    assert "QUARANTINED" not in status_table(table.deployment)
    count_fault("game failing every tick", 5)


def test_a_passing_failure_is_forgotten(
    make_table: Callable[..., Table], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = two_games(make_table())
    table.tick(at(0, 8, 5))
    _breaking_truce_2(monkeypatch)
    for minute in range(5, 25, 5):  # four failures, then it works
        table.tick(at(0, 20, minute))
    monkeypatch.undo()
    table.tick(at(0, 20, 30))
    assert "QUARANTINED" not in status_table(table.deployment)


def test_a_bug_reading_one_mail_stops_nothing_else(
    make_table: Callable[..., Table], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    real = Truce.parse

    def parse(self: Truce, state: Any, player: str, text: str) -> Submission:
        if "boom" in text:
            raise ValueError("the parser tripped")
        return real(self, state, player, text)

    monkeypatch.setattr(Truce, "parse", parse)
    table.order("Agatha", "boom")
    table.order("Barney", "loot")
    problems = table.tick(at(0, 9))
    assert any("the parser tripped" in p for p in problems)
    assert "loot" in text_of(table.sent("Barney")[-1])
    journal = table.journal()
    statuses = [r[0] for r in journal.db.execute("SELECT status FROM inputs ORDER BY id")]
    journal.close()
    assert statuses == ["new", "used"]  # Agatha's mail waits for the fix, nothing is lost


def test_status_warns_of_a_nearly_full_disk(tmp_path: Path) -> None:
    assert disk_warnings(tmp_path, least_free=1) == []
    (warning,) = disk_warnings(tmp_path, least_free=2**62)
    assert "MB free" in warning
