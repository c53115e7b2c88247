"""An organiser brings their own Talossa map (`map_file` in the Config tab): it is checked when the
config loads, played, and travels in the state so replay needs no file."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from courier.backends.base import SheetSnapshot
from courier.config.deployment import GameSource
from courier.config.game import game_config
from courier.data import shipped_dir
from courier.errors import ConfigError
from engine.talossa import TALOSSA

PLAYERS = [{"name": n, "email": f"{n.lower()}@x.test"} for n in ("Al", "Bea", "Cy", "Di")]


def snapshot(name: str) -> SheetSnapshot:
    return SheetSnapshot(
        config={"game": "talossa", "map_file": name}, players=PLAYERS, config_cells={"map_file": "Config!B4"}
    )


def own_map(tmp_path: Path, change: object = None) -> str:
    data = json.loads((shipped_dir("config") / "talossa" / "talossa-map.json").read_text(encoding="utf-8"))
    data["name"], data["title"] = "lakeshore", "The Lake Shore"
    data["lands"][0]["name"] = "New Harbour"
    if callable(change):
        change(data)
    (tmp_path / "lakeshore.json").write_text(json.dumps(data), encoding="utf-8")
    return "lakeshore.json"


def test_an_organisers_map_is_played_and_survives_json(tmp_path: Path) -> None:
    source = GameSource(id="t", organiser="o@x.test", base_dir=tmp_path)
    config = game_config(source, snapshot(own_map(tmp_path)))
    state = TALOSSA.setup([p["name"] for p in PLAYERS], config.options, random.Random(3))
    assert state.game_map.title == "The Lake Shore"
    again = TALOSSA.from_json(json.loads(json.dumps(TALOSSA.to_json(state))))
    assert again == state and "New Harbour" in {land.name for land in again.game_map.lands.values()}
    assert "The Lake Shore" in TALOSSA.pictures(state, None)[0].svg


def test_a_broken_map_is_refused_with_every_problem(tmp_path: Path) -> None:
    def one_sided(data: dict) -> None:  # type: ignore[type-arg]
        data["lands"][0]["neighbours"].append(data["lands"][-1]["key"])

    source = GameSource(id="t", organiser="o@x.test", base_dir=tmp_path)
    with pytest.raises(ConfigError, match=r"lakeshore\.json") as refused:
        game_config(source, snapshot(own_map(tmp_path, one_sided)))
    assert "border" in str(refused.value) or "neighbour" in str(refused.value)
