"""Each game's ``headline`` (the player's own result of a phase, at the top of their report) and
``asked`` (what the open phase asks of them, leading the subject), known answers (issue 30). The
mail through the tick is tested in tests/courier/mail/test_mail_top.py, privacy by each game's
privacy test (every mail of the others compared, headline included)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import RULESETS
from engine.core import Asked, Headline, play_phase, visible_to

FRANCE = {"Ada": "france", "Ben": "england", "Cleo": "germany", "Dev": "italy"}


def diplomacy_as_france() -> tuple[Any, Any]:
    game = RULESETS["diplomacy"]
    roles = {**FRANCE, "Esme": "austria", "Finn": "russia", "Gus": "turkey"}
    return game, game.setup(list(roles), {"roles": roles}, random.Random(1))


def test_diplomacy_says_centres_units_orders_and_asks_for_builds() -> None:
    game, state = diplomacy_as_france()
    assert game.asked(state, "Ada") == "Orders for Spring 1901"
    spring = play_phase(game, state, {"Ada": "F bre - mao\nA par - bur\nA mar - spa"}, "s").resolution
    fall = play_phase(game, spring.state, {"Ada": "F mao - por\nA spa H\nA bur H"}, "f").resolution
    line = game.headline(fall.state, visible_to(fall.events, "Ada"), "Ada")
    assert line == "You hold 5 centres and 3 units; all 3 orders succeeded."
    assert game.asked(fall.state, "Ada") == "Builds: 2"
    assert game.asked(fall.state, "Ben") is None  # England has nothing to build or disband


def test_truce_names_the_action_and_the_supply_change() -> None:
    game: Any = RULESETS["truce"]
    state = game.setup(["Agatha", "Barney", "Celeste"], {"rounds": 3}, random.Random(1))
    assert game.asked(state, "Agatha") == "Your action for Round 1 of 3"
    played = play_phase(game, state, {"Agatha": "attack Barney", "Barney": "loot", "Celeste": "defend"}, "t")
    after, events = played.resolution.state, played.resolution.events
    # Barney looted, so the attack succeeds at once and takes his loot (banked into Supply)
    assert game.headline(after, events, "Agatha") == "Your attack on Barney succeeded: supply 5 (+2)"
    assert game.headline(after, events, "Celeste") == "You defended: supply 3 (unchanged)"
    assert str(game.headline(after, events, "Barney")).startswith("You looted the Stash")


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_game_says_each_players_result_and_what_is_asked(name: str) -> None:
    """One phase of the usual table played by the bots: every seat gets one line, and every
    awaited seat is asked something in the game's words."""
    game = RULESETS[name]
    assert isinstance(game, Headline) and isinstance(game, Asked)
    players = [f"P{i}" for i in range(game.simulated.players)]
    state = game.setup(players, {}, random.Random(1))
    for player in game.awaiting(state):
        assert game.asked(state, player), f"{name}: nothing asked of {player}, who is awaited"
    resolution = play_phase(game, state, {}, "headline").resolution
    for player in players:
        line = game.headline(resolution.state, visible_to(resolution.events, player), player)
        assert line is None or (line.strip() and "\n" not in line), f"{name}: {line!r}"
