"""``courier resolve monarchs``: one turn from JSON to JSON; the answer feeds the next request."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.monarchs import MONARCHS

ORDERS = {"red": "3 H6 I5\nboost I5", "green": "3 K5 I5"}


def test_the_answer_feeds_the_next_request() -> None:
    first = MONARCHS.resolve_json({"orders": ORDERS, "seed": "s", "turns": 3})
    assert json.loads(json.dumps(first)) == first
    (battle,) = first["hex_battles"]
    assert battle["hex"] == "I5" and battle["regiments"] == {"red": 3, "green": 3}
    second = MONARCHS.resolve_json({**{k: first[k] for k in ("map", "turn", "turns", "scores")}, "seed": "t"})
    assert second["turn"] == 3 and second["scores"]["red"] == first["scores"]["red"] + second["points"]["red"]
    assert MONARCHS.resolve_json({"orders": ORDERS, "seed": "s", "turns": 3}) == first  # seeded


def test_bad_lines_are_reported_not_raised() -> None:
    answer = MONARCHS.resolve_json({"orders": {"red": "2 E3 F5"}, "seed": 1})
    assert answer["errors"]["red"][0]["suggestion"] == "2 E3 F4"


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ([], "must be a JSON object"),
        ({"orders": {"purple": "hold"}}, "must map red, green or blue"),
        ({"turn": 3, "turns": 2}, "not a turn"),
        ({"map": {"A5": {"owner": "red", "regiments": 5}}}, "all 61 hexes"),
    ],
)
def test_bad_requests_are_refused_clearly(request_: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MONARCHS.resolve_json(request_)


def test_a_game_state_reads_back_from_its_json() -> None:
    state = MONARCHS.setup(["A", "B", "C"], {"turns": 2}, random.Random(5))
    assert MONARCHS.from_json(json.loads(json.dumps(MONARCHS.to_json(state)))) == state
    assert sorted(state.monarchs.values()) == ["blue", "green", "red"]
