"""A game of Truce through the Ruleset contract, as the shell drives it."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import jinja2
import pytest

from engine import Ruleset, find_ruleset
from engine.core import Event, Submission, visible_to
from engine.truce import (
    EVENT_TYPES,
    TRUCE,
    GameEnded,
    GiftFailed,
    GiftGiven,
    Player,
    Result,
    TruceState,
)
from tests.helpers.paths import ROOT

RNG = random.Random(0)
SIX = ["Agatha", "Barney", "Celeste", "Darcy", "Emmett", "Freja"]


def _play(state: TruceState, orders: dict[str, str]) -> tuple[TruceState, tuple[Event, ...]]:
    submissions = {p: TRUCE.parse(state, p, text) for p, text in orders.items()}
    resolution = TRUCE.resolve(state, submissions, RNG)
    return resolution.state, resolution.events


def _supply(state: TruceState) -> dict[str, int]:
    return {p.name: p.supply for p in state.players}


def test_registered_and_follows_the_contract() -> None:
    assert find_ruleset("Truce") is TRUCE
    assert isinstance(TRUCE, Ruleset)
    assert (TRUCE.name, TRUCE.title) == ("truce", "Truce")


def test_setup_phases_and_awaiting() -> None:
    state = TRUCE.setup(["Agatha", "Barney", "Charles"], {"rounds": 2}, RNG)
    assert _supply(state) == {"Agatha": 3, "Barney": 3, "Charles": 3}
    assert state.stash == 1
    phase = TRUCE.phase(state)
    assert (phase.key, phase.kind, phase.number, phase.label) == ("round-1", "action", 1, "Round 1 of 2")
    assert TRUCE.awaiting(state) == {"Agatha", "Barney", "Charles"}
    state, events = _play(state, {})
    assert TRUCE.phase(state).key == "round-2" and state.stash == 2
    assert TRUCE.outcome(state) is None
    state, events = _play(state, {"Agatha": "loot"})
    assert TRUCE.phase(state).kind == TRUCE.phase(state).key == "finished"
    assert TRUCE.awaiting(state) == frozenset()
    assert state.stash == 0  # no coin is added after the final round
    assert isinstance(events[-1], GameEnded) and events[-1].winners == ("Agatha",)
    with pytest.raises(ValueError, match="over"):
        TRUCE.resolve(state, {}, RNG)


def test_setup_rejects_bad_options() -> None:
    with pytest.raises(ValueError, match="nicknames"):
        TRUCE.setup(["Agatha", "Barney", "Charles"], {"nicknames": {"Zed": ["Z"]}}, RNG)
    with pytest.raises(ValueError, match="distinct"):
        TRUCE.setup(["Agatha", "Agatha", "Barney"], {}, RNG)
    with pytest.raises(ValueError, match="at least 3"):
        TRUCE.setup(["Agatha", "Barney"], {}, RNG)


def test_a_single_nickname_may_be_given_as_text() -> None:
    state = TRUCE.setup(["Agatha", "Barney", "Charles"], {"nicknames": {"Charles": "Chuck"}}, RNG)
    assert TRUCE.parse(state, "Agatha", "support chuck").orders == ("support Charles",)


def test_the_authors_worked_round() -> None:
    state = TRUCE.setup(SIX, {"initial_stash": 2}, RNG)
    after, _ = _play(
        state,
        {
            "Agatha": "defend",
            "Emmett": "attack Agatha",
            "Freja": "support Emmett",
            "Barney": "attack Emmett",
            "Darcy": "support Barney",
            "Celeste": "loot",
        },
    )
    # Emmett takes 1 from Agatha, then Barney takes Emmett's Spoils (that 1) plus 1 of his Supply.
    assert _supply(after) == {"Agatha": 2, "Barney": 5, "Celeste": 5, "Darcy": 3, "Emmett": 2, "Freja": 3}
    assert after.stash == 1 and after.round == 2
    rows = {row["Player"]: row for row in TRUCE.ledger(after)}
    assert rows["Barney"]["Last action"] == "attack Emmett ✓ +2"
    assert rows["Celeste"]["Last action"] == "loot +2"
    assert rows["Agatha"] == {
        "Player": "Agatha",
        "Supply": 2,
        "Last action": "defend",
        "Supporters": 0,
        "Stash": 1,
    }
    assert rows["Emmett"]["Supporters"] == 1


def test_gift_is_applied_on_receipt_and_announced_to_all() -> None:
    state = TRUCE.setup(["Agatha", "Barney", "Charles"], {}, RNG)
    submission = TRUCE.parse(state, "Agatha", "gift 2 to Barney\nloot")
    state, events = TRUCE.immediate(state, submission)
    assert state.player("Agatha") == Player("Agatha", 1, 0)
    assert state.player("Barney") == Player("Barney", 3, 2)
    assert events == (GiftGiven(giver="Agatha", receiver="Barney", coins=2),)
    assert visible_to(events, None) == list(events)


def test_gift_the_giver_no_longer_has_fails_privately() -> None:
    state = TRUCE.setup(["Agatha", "Barney", "Charles"], {}, RNG)
    first = TRUCE.parse(state, "Agatha", "gift 3 to Barney")
    second = TRUCE.parse(state, "Agatha", "gift 1 to Charles")  # read before the first was applied
    state, _ = TRUCE.immediate(state, first)
    state, events = TRUCE.immediate(state, second)
    assert state.player("Charles").spoils == 0 and state.player("Agatha").supply == 0
    (failed,) = events
    assert isinstance(failed, GiftFailed) and "only 0 coins" in failed.reason
    assert visible_to(events, None) == [] and visible_to(events, "Barney") == []
    assert visible_to(events, "Agatha") == [failed]


def test_gifted_coins_can_be_stolen_the_same_round() -> None:
    state = TRUCE.setup(["Agatha", "Barney", "Charles", "Darcy"], {}, RNG)
    state, _ = TRUCE.immediate(state, TRUCE.parse(state, "Agatha", "gift 2 to Barney"))
    after, _ = _play(state, {"Charles": "attack Barney", "Darcy": "support Charles"})
    assert _supply(after) == {"Agatha": 1, "Barney": 2, "Charles": 6, "Darcy": 3}


def test_combine_keeps_the_latest_action_and_drops_gifts() -> None:
    state = TRUCE.setup(["Agatha", "Barney", "Charles"], {}, RNG)
    loot = TRUCE.parse(state, "Agatha", "loot\ngift 1 to Barney")
    gift_only = TRUCE.parse(state, "Agatha", "gift 1 to Charles")
    defend = TRUCE.parse(state, "Agatha", "defend")
    assert TRUCE.combine(None, loot).orders == ("loot",)
    assert TRUCE.combine(loot, defend).orders == ("defend",)
    standing = TRUCE.combine(loot, gift_only)
    assert standing.orders == ("loot",) and any("still stands" in n for n in standing.notes)


def test_default_is_a_pass_with_a_note() -> None:
    state = TRUCE.setup(["Agatha", "Barney", "Charles"], {}, RNG)
    submission = TRUCE.default(state, "Barney", RNG)
    assert submission.orders == ("pass",) and submission.notes
    assert TRUCE.parse(state, "Barney", "pass").orders == submission.orders


def test_self_support_slipped_past_the_parser_counts_as_pass() -> None:
    state = TRUCE.setup(["Agatha", "Barney", "Charles"], {}, RNG)
    forged = {"Agatha": Submission("Agatha", ("support Agatha",))}
    resolution = TRUCE.resolve(state, forged, RNG)
    (agatha, *_) = resolution.state.last
    assert not agatha.valid and "themselves" in (agatha.reason or "")


def _final(supply: dict[str, int], supporters: dict[str, int]) -> TruceState:
    players = tuple(Player(name, coins) for name, coins in supply.items())
    last = tuple(Result(name, "pass", supporters=supporters.get(name, 0)) for name in supply)
    return TruceState(players=players, stash=0, round=11, rounds=10, last=last)


def test_most_supply_wins() -> None:
    outcome = TRUCE.outcome(_final({"Agatha": 4, "Barney": 6, "Charles": 5}, {"Agatha": 2}))
    assert outcome is not None
    assert outcome.winners == ("Barney",)
    assert outcome.ranking == (("Barney",), ("Charles",), ("Agatha",))


def test_supply_tie_goes_to_most_supporters_in_the_final_round() -> None:
    outcome = TRUCE.outcome(_final({"Agatha": 6, "Barney": 6, "Charles": 5}, {"Barney": 2, "Agatha": 1}))
    assert outcome is not None
    assert outcome.winners == ("Barney",)
    assert outcome.ranking == (("Barney",), ("Agatha",), ("Charles",))
    assert "supporters" in outcome.reason


def test_full_tie_is_a_shared_victory() -> None:
    outcome = TRUCE.outcome(_final({"Agatha": 6, "Barney": 6, "Charles": 5}, {"Barney": 1, "Agatha": 1}))
    assert outcome is not None
    assert outcome.winners == ("Agatha", "Barney")
    assert outcome.ranking == (("Agatha", "Barney"), ("Charles",))
    assert "shared" in outcome.reason


def test_final_round_supporters_break_the_tie_in_play() -> None:
    state = TRUCE.setup(["Agatha", "Barney", "Charles"], {"rounds": 1}, RNG)
    _, events = _play(state, {"Charles": "support Barney"})
    assert isinstance(events[-1], GameEnded) and events[-1].winners == ("Barney",)


TEMPLATES = ROOT / "templates" / "truce" / "events"


def _example(event_type: type[Event]) -> Event:
    values: dict[str, Any] = {"str": "Agatha", "int": 2, "bool": True, "str | None": "Barney"}
    fields = {f.name: values.get(str(f.type), ("Agatha", "Barney")) for f in dataclasses.fields(event_type)}
    fields.pop("audience")
    return event_type(**fields)


@pytest.mark.parametrize("event_type", EVENT_TYPES, ids=lambda t: t.__name__)
def test_every_event_has_a_one_line_template(event_type: type[Event]) -> None:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), undefined=jinja2.StrictUndefined)
    text = env.get_template(f"{event_type.__name__}.txt.j2").render(e=_example(event_type))
    assert "\n" not in text.strip() and text.endswith(".")


def test_templates_render_a_real_round() -> None:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), undefined=jinja2.StrictUndefined)
    state = TRUCE.setup(["Agatha", "Barney", "Charles"], {}, RNG)
    _, events = _play(state, {"Agatha": "loot", "Barney": "attack Agatha", "Charles": "support Barney"})
    lines = [env.get_template(f"{e.name}.txt.j2").render(e=e) for e in events]
    assert "Barney attacked Agatha and succeeded (Agatha was looting)." in lines
    assert "Agatha looted the Stash of 1: 1 coin each." in lines
    assert "Barney took 1 coin from Agatha's Supply and 1 from Agatha's Spoils." in lines
