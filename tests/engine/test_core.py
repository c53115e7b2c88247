"""The engine contract's shared values: JSON round trips, visibility, forgiving name matching."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from engine import RULESETS, Ruleset, find_ruleset
from engine.core import Event, LineError, Submission, event_to_json, fold, match_name, visible_to

text = st.text(max_size=20)
submissions = st.builds(
    Submission,
    player=text,
    orders=st.lists(text, max_size=4).map(tuple),
    errors=st.lists(st.builds(LineError, text, text, st.none() | text), max_size=3).map(tuple),
    notes=st.lists(text, max_size=2).map(tuple),
)


@given(submissions)
def test_submission_json_round_trip(submission: Submission) -> None:
    assert Submission.from_json(submission.to_json()) == submission


@dataclass(frozen=True, kw_only=True)
class CoinsFound(Event):
    player: str
    coins: int


def test_events_are_public_or_addressed() -> None:
    public = CoinsFound(player="Agatha", coins=2)
    secret = CoinsFound(player="Barney", coins=1, audience=frozenset({"Barney"}))
    assert visible_to([public, secret], "Barney") == [public, secret]
    assert visible_to([public, secret], "Agatha") == [public]
    assert visible_to([public, secret], None) == [public]  # the sheet sees public events only
    assert event_to_json(secret) == {
        "event": "CoinsFound",
        "audience": ["Barney"],
        "player": "Barney",
        "coins": 1,
    }


def test_line_error_quotes_and_suggests() -> None:
    error = LineError("atack barney", "“atack” is not an order", "attack Barney")
    assert str(error) == "“atack barney”: “atack” is not an order. Did you mean “attack Barney”?"


def test_names_match_by_case_accent_prefix_and_nickname() -> None:
    names = {
        "Émile": "Émile",
        "Barney": "Barney",
        "Barbara": "Barbara",
        "Chuck": "Charles",
        "Charles": "Charles",
    }
    assert fold("ÉMILE") == fold("emile")
    assert match_name("emile", names) == ("Émile", None)
    assert match_name("barn", names) == ("Barney", None)
    assert match_name("chuck", names) == ("Charles", None)
    assert match_name("barny", names) == (None, "Barney")
    assert match_name("bar", names)[0] is None  # Barney or Barbara: ambiguous


def test_registry_is_explicit_and_every_ruleset_keeps_the_contract() -> None:
    assert {"truce", "diplomacy"} <= set(RULESETS)
    for name, ruleset in RULESETS.items():
        assert isinstance(ruleset, Ruleset)
        assert ruleset.name == name
    assert find_ruleset(" Truce ") is RULESETS["truce"]
