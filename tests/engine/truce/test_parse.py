"""The Truce order parser: what players type, as tests/data/truce/parse.yaml lists it."""

from __future__ import annotations

import random
from typing import Any

import pytest
import yaml

from engine.truce import TRUCE, TruceState
from tests.helpers.paths import DATA

TABLE = yaml.safe_load((DATA / "truce" / "parse.yaml").read_text(encoding="utf-8"))


def _state() -> TruceState:
    return TRUCE.setup(TABLE["players"], {"nicknames": TABLE["nicknames"]}, random.Random(0))


@pytest.mark.parametrize("case", TABLE["cases"], ids=[c["text"].strip() for c in TABLE["cases"]])
def test_parse_case(case: dict[str, Any]) -> None:
    submission = TRUCE.parse(_state(), "Agatha", case["text"])
    assert list(submission.orders) == case.get("orders", [])
    assert len(submission.errors) == len(case.get("errors", []))
    for error, expected in zip(submission.errors, case.get("errors", []), strict=True):
        assert error.line == expected["line"]
        assert expected.get("reason", "") in error.reason
        assert error.suggestion == expected.get("suggestion")
        assert error.line in str(error)
    if "notes" in case:
        assert any(case["notes"] in note for note in submission.notes)
    else:
        assert submission.notes == ()


def test_canonical_orders_parse_back_to_themselves() -> None:
    state = _state()
    for line in [
        "attack Barney",
        "support Charles",
        "defend",
        "loot",
        "pass",
        "gift 2 to Darcy",
        "attack Émile",
    ]:
        assert TRUCE.parse(state, "Agatha", line).orders == (line,)


def test_order_template_parses_to_nothing_and_names_the_others() -> None:
    state = _state()
    template = TRUCE.order_template(state, "Agatha")
    assert "Barney" in template and "Agatha" not in template.split("Players:")[1]
    submission = TRUCE.parse(state, "Agatha", template)
    assert submission.orders == () and submission.errors == ()
    assert TRUCE.parse(state, "Agatha", template + "loot\n").orders == ("loot",)


def test_no_orders_after_the_game_is_over() -> None:
    state = TRUCE.setup(["Agatha", "Barney", "Charles"], {"rounds": 1}, random.Random(0))
    finished = TRUCE.resolve(state, {}, random.Random(0)).state
    errors = TRUCE.parse(finished, "Agatha", "loot").errors
    assert [e.reason for e in errors] == ["the game is over"]
