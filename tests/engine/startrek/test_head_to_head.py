"""Head-to-head battles under the Klingon rage and Federation immunity, as known answers
(tests/data/startrek/head_to_head.yaml): at most one side of a head-to-head ever moves."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
import yaml

from tests.helpers.paths import DATA
from tests.helpers.startrek import board, play, result_of

CASES: list[dict[str, Any]] = yaml.safe_load(
    (DATA / "startrek" / "head_to_head.yaml").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_head_to_head(case: dict[str, Any]) -> None:
    state = board([tuple(u) for u in case["units"]])
    if case.get("rage"):
        state = replace(state, rage=True)
    done = play(state, case["orders"])
    assert {line: result_of(done, line) for line in case["expect"]} == case["expect"]
    before = {u.location: u.power for u in state.position.units}
    after = {u.location: u.power for u in done.state.position.units}
    swapped = [a for a, b in _moves(case) if after.get(a) == before.get(b) and after.get(b) == before.get(a)]
    assert not swapped, "two units passed through each other"


def _moves(case: dict[str, Any]) -> list[tuple[str, str]]:
    moves = []
    for text in case["orders"].values():
        for line in text.splitlines():
            words = line.split()
            if len(words) == 4 and words[2] == "-":
                moves.append((words[1], words[3]))
    return moves
