"""The seed's examples and the Truce rulings, as known-answer cases in tests/data/truce/rules.yaml."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from engine.request import resolve_request
from engine.truce import TRUCE
from tests.helpers.paths import DATA

CASES = yaml.safe_load((DATA / "truce" / "rules.yaml").read_text(encoding="utf-8"))


def _request(case: dict[str, Any]) -> dict[str, Any]:
    players = []
    for name, coins in case["players"].items():
        supply, spoils = coins if isinstance(coins, list) else (coins, 0)
        players.append({"name": name, "supply": supply, "spoils": spoils})
    state = {"round": 1, "rounds": 10, "stash": case["stash"], "players": players}
    return {"state": state, "orders": case.get("orders", {}), "seed": "rules"}


def _attacks(answer: dict[str, Any], kind: str) -> list[str]:
    return [f"{e['attacker']} -> {e['target']}" for e in answer["events"] if e["event"] == kind]


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_rules_case(case: dict[str, Any]) -> None:
    answer = resolve_request(TRUCE, _request(case))
    expect = case["expect"]
    assert not answer["errors"], answer["errors"]
    supply = {p["name"]: p["supply"] for p in answer["state"]["players"]}
    assert {name: supply[name] for name in expect.get("supply", {})} == expect.get("supply", {})
    for name, count in expect.get("supporters", {}).items():
        assert answer["results"][name]["supporters"] == count, name
    if "removed" in expect:
        assert answer["removed"] == expect["removed"]
    if "stash" in expect:
        assert answer["state"]["stash"] == expect["stash"]
    for name, word in expect.get("passes", {}).items():
        result = answer["results"][name]
        assert result["valid"] is False and word in result["reason"], result
    valid = {name for name, r in answer["results"].items() if r["valid"]}
    assert valid == set(answer["results"]) - set(expect.get("passes", {}))
    if "succeeded" in expect:
        assert _attacks(answer, "AttackSucceeded") == expect["succeeded"]
    if "failed" in expect:
        assert _attacks(answer, "AttackFailed") == expect["failed"]
    assert all(p["spoils"] == 0 for p in answer["state"]["players"])
