"""Known answers of ``courier resolve diplomacy`` whose reasons a player acts on
(tests/data/diplomacy/answers.yaml): a dislodged unit's failed move says dislodged, and a retreat
that cannot be made is refused as it arrives with the places the unit may go (issue 29)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from engine.diplomacy import DIPLOMACY
from engine.request import resolve_request
from tests.helpers.paths import DATA

CASES: list[dict[str, Any]] = yaml.safe_load(
    (DATA / "diplomacy" / "answers.yaml").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_known_answer(case: dict[str, Any]) -> None:
    answer = resolve_request(DIPLOMACY, case["request"])
    told = {
        r["order"]: r["result"] + (f" ({r['reason']})" if r["reason"] else "")
        for r in answer["order_results"]
    }
    assert told == case["expect"]
