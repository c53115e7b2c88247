"""``courier resolve monarchs``: one turn from JSON to JSON (the answer feeds the next request, the
last turn's answer names the winner), or one phase of a whole game, court mode included, played as
the tick plays it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.monarchs import MONARCHS, Position
from engine.request import resolve_request
from tests.helpers.monarchs_court import PLAYERS, ROLES

ORDERS = {"red": "3 H6 I5\nboost I5", "green": "3 K5 I5"}


def test_the_answer_feeds_the_next_request() -> None:
    first = resolve_request(MONARCHS, {"orders": ORDERS, "seed": "s", "turns": 3})
    assert json.loads(json.dumps(first)) == first
    (battle,) = first["hex_battles"]
    assert battle["hex"] == "I5" and battle["regiments"] == {"red": 3, "green": 3}
    assert first["outcome"] is None
    second = resolve_request(
        MONARCHS, {**{k: first[k] for k in ("map", "turn", "turns", "scores")}, "seed": "t"}
    )
    assert second["turn"] == 3 and second["scores"]["red"] == first["scores"]["red"] + second["points"]["red"]
    assert resolve_request(MONARCHS, {"orders": ORDERS, "seed": "s", "turns": 3}) == first  # seeded


def test_the_last_turns_answer_names_the_winner_and_the_ranking() -> None:
    scores = {"red": 40, "green": 41, "blue": 10}
    last = resolve_request(MONARCHS, {"turn": 2, "turns": 2, "scores": scores, "seed": "s"})
    assert last["points"] == {"red": 40, "green": 40, "blue": 40}  # 20 hexes each, doubled
    assert last["outcome"] == {
        "winners": ["green"],
        "ranking": [["green"], ["red"], ["blue"]],
        "reason": "Green has the highest score, 81",
    }


def test_bad_lines_are_reported_not_raised() -> None:
    answer = resolve_request(MONARCHS, {"orders": {"red": "2 E3 F5"}, "seed": 1, "turns": 8})
    assert answer["errors"]["red"][0]["suggestion"] == "2 E3 F4"


def _blue_a5() -> dict[str, Any]:
    board = Position.start().to_json()
    board["A5"] = {"owner": "blue", "regiments": 5}
    return board


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ([], "must be a JSON object"),
        ({"orders": {"purple": "hold"}, "turns": 8}, "must map red, green or blue"),
        ({"turn": 3, "turns": 2}, "not a turn"),
        ({"orders": ORDERS}, "“turns” is required"),
        ({"map": {"A5": {"owner": "red", "regiments": 5}}, "turns": 8}, "all 61 hexes"),
        ({"map": _blue_a5(), "turns": 8, "orders": {"red": "3 H6 J6"}}, "A5 is red's home base"),
        ({"setup": {"players": ["a", "b"]}}, "board mode needs exactly 3 players"),
    ],
)
def test_bad_requests_are_refused_clearly(request_: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        resolve_request(MONARCHS, request_)


def test_a_game_state_reads_back_from_its_json() -> None:
    state = MONARCHS.setup(["A", "B", "C"], {"turns": 2}, random.Random(5))
    assert MONARCHS.from_json(json.loads(json.dumps(MONARCHS.to_json(state)))) == state
    assert sorted(state.monarchs.values()) == ["blue", "green", "red"]


def test_court_mode_through_json() -> None:
    setup = {"players": PLAYERS, "options": {"mode": "court", "turns": 1, "roles": ROLES}}
    orders = {"R5": "5 A5 C5", "Rex": "carrier R1\nmap to R2", "R1": "3 H6 I5\nmap to R4", "Zed": "hold"}
    answer = resolve_request(MONARCHS, {"setup": setup, "orders": orders, "seed": "x"})
    assert json.loads(json.dumps(answer)) == answer
    assert answer["refused"] == {
        "R5": "you are not carrying Red's orders this turn",
        "Zed": "you hold no seat at any court in this game",
    }
    assert answer["phase"] == "Monarchs' guesses" and answer["outcome"] is None
    (report,) = [e for e in answer["events"] if e["event"] == "CarrierReported" and e["nation"] == "red"]
    assert report["delivered"] and report["audience"] == ["Rex"]
    guesses = {"Rex": "R5 serves blue", "Gil": "G1 serves red"}
    final = resolve_request(MONARCHS, {"state": answer["state"], "orders": guesses, "seed": "x"})
    assert final["outcome"]["winners"][0] in ("Rex", "Gil", "Bly") and len(final["outcome"]["winners"]) == 4
    assert final["state"]["map"]["I5"] == {"owner": "red", "regiments": 3}  # R1's orders, not R5's
    with pytest.raises(ValueError, match="the game is over"):
        resolve_request(MONARCHS, {"state": final["state"], "orders": {}, "seed": "x"})
