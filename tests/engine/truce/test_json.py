"""``courier resolve truce``: known-answer request/response files, and refused requests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.request import resolve_request
from engine.truce import TRUCE
from tests.helpers.paths import DATA as TEST_DATA

DATA = TEST_DATA / "truce"
REQUESTS = sorted((DATA / "resolve").glob("*.request.json"))
BAD = yaml.safe_load((DATA / "bad_requests.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("request_file", REQUESTS, ids=lambda p: p.name.split(".")[0])
def test_known_answer(request_file: Path) -> None:
    request = json.loads(request_file.read_text(encoding="utf-8"))
    response_file = request_file.with_name(request_file.name.replace(".request.", ".response."))
    expected = json.loads(response_file.read_text(encoding="utf-8"))
    answer = resolve_request(TRUCE, request)
    assert json.loads(json.dumps(answer)) == expected


def test_next_state_feeds_the_next_request() -> None:
    request = json.loads((DATA / "resolve" / "worked-round.request.json").read_text(encoding="utf-8"))
    first = resolve_request(TRUCE, request)
    second = resolve_request(TRUCE, {"state": first["state"], "orders": {"Agatha": "loot"}, "seed": "x"})
    assert second["state"]["round"] == 3
    assert second["results"]["Agatha"]["valid"] is True
    assert {p["name"]: p["supply"] for p in second["state"]["players"]}["Agatha"] == 3  # looted the 1


@pytest.mark.parametrize("case", BAD, ids=[c["why"] for c in BAD])
def test_bad_request_is_refused_clearly(case: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=case["message"]):
        resolve_request(TRUCE, case["request"])
