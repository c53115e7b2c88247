"""``courier resolve veneer``: a new game from players and a seed, one phase at a time by JSON,
with errors per player, and the state round-tripping through JSON at every step."""

from __future__ import annotations

import json

import pytest

from engine import find_ruleset


def test_a_game_starts_and_advances_by_json() -> None:
    veneer = find_ruleset("veneer")
    answer = veneer.resolve_json(
        {"players": ["Ann", "Bob", "Cy"], "seed": "s", "orders": {"Bob": "chose Smiths"}}
    )
    assert answer["phase"].startswith("t1-") and answer["errors"]["Bob"][0]["line"] == "chose Smiths"
    assert {e["event"] for e in answer["events"]} >= {"TargetsDealt", "FactionChosen", "TurnBegan"}
    state = veneer.from_json(json.loads(json.dumps(answer["state"])))
    assert veneer.to_json(state) == answer["state"]
    again = veneer.resolve_json({"state": answer["state"], "seed": "s", "orders": {}})
    assert again["phase"] != answer["phase"] or again["awaiting"]


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"seed": "s"}, "give a “state”"),
        ({"players": ["Ann", "Bob"], "seed": "s"}, "at least 3 players"),
        ({"players": ["Ann", "Bob", "Cy"], "seed": "s", "orders": {"Zed": "pass"}}, "unknown players"),
        ({"state": {"seats": []}, "seed": "s"}, "not a Veneer state"),
    ],
)
def test_bad_requests_say_what_is_wrong(request_: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        find_ruleset("veneer").resolve_json(request_)
