"""`courier resolve diplomacy`: the public JSON position format; one phase's answer is the next
phase's request."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from engine.diplomacy import DIPLOMACY
from engine.request import resolve_request

START: dict[str, Any] = {
    "variant": "standard",
    "phase": {"season": "spring", "year": 1901, "kind": "movement"},
    "units": [
        {"power": "France", "type": "A", "location": "par"},
        {"power": "France", "type": "A", "location": "mar"},
        {"power": "Germany", "type": "A", "location": "mun"},
        {"power": "England", "type": "F", "location": "lon"},
    ],
}


def test_a_bounce_then_a_dislodgement_then_a_retreat() -> None:
    spring = resolve_request(
        DIPLOMACY, {**START, "orders": {"France": ["A par - bur"], "Germany": ["A mun - bur"]}}
    )
    assert spring["phase"] == {"season": "fall", "year": 1901, "kind": "movement"}
    assert {r["order"]: r["result"] for r in spring["order_results"]} == {
        "A par - bur": "fails",
        "A mun - bur": "fails",
    }
    assert spring["supply_centers"]["France"] == ["bre", "mar", "par"]  # omitted = home centres
    attack = resolve_request(
        DIPLOMACY,
        {**START, "orders": {"France": ["A par - bur", "A mar S A par - bur"], "Germany": ["A mun - bur"]}},
    )
    assert attack["phase"]["season"] == "fall"
    move = resolve_request(DIPLOMACY, {**attack, "orders": {"France": ["A bur - mun", "A mar - bur"]}})
    assert move["dislodged"] == []
    fight = resolve_request(
        DIPLOMACY,
        {
            **START,
            "units": [*START["units"], {"power": "Germany", "type": "A", "location": "bur"}],
            "orders": {"France": ["A par - bur", "A mar S A par - bur"], "Germany": ["A bur H"]},
        },
    )
    assert fight["phase"] == {"season": "spring", "year": 1901, "kind": "retreat"}
    assert fight["dislodged"] == [
        {"power": "Germany", "type": "A", "location": "bur", "attacker_from": "par"}
    ]
    retreat = resolve_request(DIPLOMACY, {**fight, "orders": {"Germany": ["A bur R ruh"]}})
    assert {"power": "Germany", "type": "A", "location": "ruh"} in retreat["units"]
    assert retreat["phase"] == {"season": "fall", "year": 1901, "kind": "movement"}


def test_unreadable_lines_are_illegal_results_quoting_them() -> None:
    answer = resolve_request(DIPLOMACY, {**START, "orders": {"France": ["A par - bru"]}})
    (result,) = answer["order_results"]
    assert result["result"] == "illegal" and "A par - bur" in result["reason"]


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"variant": "chess", "phase": START["phase"]}, "chess"),
        ({"variant": "standard"}, "phase"),
        ({**START, "units": [{"power": "France", "type": "F", "location": "par"}]}, "par"),
    ],
)
def test_bad_requests_are_refused_clearly(request_: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        resolve_request(DIPLOMACY, request_)


def test_json_lines_through_the_cli() -> None:
    lines = "\n".join(json.dumps({**START, "orders": {"France": ["A par - bur"]}}) for _ in range(3))
    done = subprocess.run(
        [sys.executable, "-m", "courier", "resolve", "diplomacy"],
        input=lines,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 3 and all(a["order_results"][0]["result"] == "succeeds" for a in answers)
