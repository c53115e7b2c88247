"""``courier resolve GAME`` gives the tick's result: each game of tests/data/commands/games.yaml is
played by the tick through its first deadline with nobody writing (every seat gets its default,
seeded from the game's secret seed), and ``engine.request.resolve_request`` given the state the
round started from and the same seed ends it exactly as the tick did. (Veneer's answer changed to
this when the request went through ``engine.core.play_phase``: it used to seed its own way and give
no defaults.)"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine import RULESETS
from engine.request import resolve_request
from tests.conftest import Table
from tests.helpers.paths import DATA

GAMES: dict[str, Any] = yaml.safe_load((DATA / "commands" / "games.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_courier_resolve_ends_the_first_round_as_the_tick_did(game: str, tmp_path: Path) -> None:
    spec = GAMES[game]
    rows = [
        {"name": n, "email": f"{n.lower()}@players.test", "role": str(r)} for n, r in spec["players"].items()
    ]
    table = Table(tmp_path, {k: str(v) for k, v in spec["config"].items()}, rows)
    table.tick(datetime(2026, 12, 1, 8, 5, tzinfo=UTC))
    table.tick(datetime(2026, 12, 1, 20, 5, tzinfo=UTC))
    journal = table.journal()
    row, rounds = journal.game("truce-1"), journal.rounds("truce-1")
    journal.close()
    assert row is not None and rounds, "the tick resolved no round"
    ruleset = RULESETS[game]
    request = {"state": rounds[0]["state_before"], "orders": {}, "seed": row.seed}
    answer = resolve_request(ruleset, _request(game, request))
    tick = _state(game, {"state": rounds[0]["state_after"]})
    given = json.loads(json.dumps(_state(game, answer)))
    assert given == {k: tick[k] for k in given}  # Truce's answer leaves out the chart's history


def _request(game: str, request: dict[str, Any]) -> dict[str, Any]:
    """Diplomacy's request is its position, at the top level."""
    return {**request.pop("state"), **request} if game == "diplomacy" else request


def _state(game: str, answer: dict[str, Any]) -> Any:
    """The state an answer gives: Diplomacy answers with the position alone."""
    if game != "diplomacy":
        return answer["state"]
    keys = ("variant", "phase", "units", "dislodged", "contested", "supply_centers")
    return {k: (answer if "phase" in answer else answer["state"])[k] for k in keys}
