"""``courier resolve veneer``: a new game from players and a seed, one phase at a time by JSON,
with errors per player, and the state round-tripping through JSON at every step."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from engine import find_ruleset
from engine.request import resolve_request


def test_a_game_starts_and_advances_by_json() -> None:
    veneer = find_ruleset("veneer")
    answer = resolve_request(
        veneer, {"players": ["Ann", "Bob", "Cy"], "seed": "s", "orders": {"Bob": "chose Smiths"}}
    )
    assert answer["phase"].startswith("t1-") and answer["errors"]["Bob"][0]["line"] == "chose Smiths"
    assert {e["event"] for e in answer["events"]} >= {"TargetsDealt", "FactionChosen", "TurnBegan"}
    state = veneer.from_json(json.loads(json.dumps(answer["state"])))
    assert veneer.to_json(state) == answer["state"]
    again = resolve_request(veneer, {"state": answer["state"], "seed": "s", "orders": {}})
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
        resolve_request(find_ruleset("veneer"), request_)


def test_a_card_holder_not_awaited_plays_by_json() -> None:
    veneer = find_ruleset("veneer")
    state = veneer.setup(["Ann", "Bob", "Cy"], {}, random.Random(1))
    seats = tuple(dataclasses.replace(s, faction="Diplomats") for s in state.seats)
    state = dataclasses.replace(state, seats=seats, stage="end", turn=1, active="Ann")
    state = state.with_seat("Cy", hand=("Windfall",))
    orders = {"Cy": "play Windfall", "Bob": "pass"}
    answer = resolve_request(veneer, {"state": veneer.to_json(state), "seed": "s", "orders": orders})
    assert answer["ignored"] == ["Bob"]
    assert "CardPlayed" in {e["event"] for e in answer["events"]}
    assert veneer.from_json(answer["state"]).seat("Cy").hand == ()
