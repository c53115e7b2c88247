"""The Veneer deck as data: the default deck's size, the organiser's deck.toml matching it, and the
validator refusing unknown effects with the card's name and a hint."""

from __future__ import annotations

import random
import tomllib

import pytest

from engine.veneer import DEFAULT_DECK, EFFECTS, VENEER, Card, Deck, DeckError, check_deck, load_deck
from tests.helpers.paths import ROOT

DECK_FILE = ROOT / "config" / "veneer" / "deck.toml"


def test_the_default_deck_has_enough_cards_of_every_kind() -> None:
    counts = {kind: len(DEFAULT_DECK.of_kind(kind)) for kind in ("faction", "law", "motion", "action")}
    assert counts["faction"] >= 6 and counts["law"] >= 8 and counts["motion"] >= 6 and counts["action"] >= 8
    check_deck(DEFAULT_DECK)
    assert all(
        c.effect in EFFECTS and c.text.endswith(".") for c in (*DEFAULT_DECK.factions, *DEFAULT_DECK.pile)
    )


def test_the_organisers_deck_file_is_the_default_deck() -> None:
    with DECK_FILE.open("rb") as handle:
        assert load_deck(tomllib.load(handle)) == DEFAULT_DECK


def test_every_effect_of_the_vocabulary_is_documented_in_the_deck_file() -> None:
    text = DECK_FILE.read_text(encoding="utf-8")
    assert all(f"#   {name}" in text for name in EFFECTS)


def test_an_unknown_effect_is_refused_with_the_card_and_a_hint() -> None:
    with pytest.raises(DeckError) as caught:
        load_deck(
            {
                "faction": [{"name": "Bankers", "text": "Rich.", "effect": "incme", "amount": 2}],
                "law": [{"name": "Tithe", "text": "More.", "effect": "income", "amount": 1}],
            }
        )
    assert caught.value.problems == ["faction “Bankers”: unknown effect “incme” (did you mean “income”?)"]


def test_misplaced_effects_amounts_and_sections_are_refused() -> None:
    with pytest.raises(DeckError) as caught:
        load_deck(
            {
                "faction": [{"name": "Hawks", "text": "War.", "effect": "steal", "amount": 1}],
                "law": [{"name": "Tithe", "text": "More.", "effect": "income"}],
                "motoin": [],
                "action": [{"name": "Bribe", "text": "Gone.", "effect": "repeal", "cost": 1}],
            }
        )
    problems = " | ".join(caught.value.problems)
    assert "faction “Hawks”: the effect “steal” works only on action cards" in problems
    assert "law “Tithe”: the effect “income” needs a non-zero amount" in problems
    assert "unknown section [[motoin]] (did you mean “motion”?)" in problems
    assert "action “Bribe”: unknown field cost" in problems


def test_duplicate_names_are_refused() -> None:
    card = Card("Tithe", "law", "More.", "income", 1)
    with pytest.raises(DeckError, match="two cards are called “tithe”"):
        check_deck(Deck((DEFAULT_DECK.factions[0],), (card, card)))


def test_six_players_are_dealt_three_factions_each_none_shared() -> None:
    players = [f"P{i}" for i in range(6)]
    assert len(DEFAULT_DECK.factions) >= 3 * len(players)
    for seed in range(20):
        dealt = [f for s in VENEER.setup(players, {}, random.Random(seed)).seats for f in s.dealt]
        assert len(dealt) == 18 and len(set(dealt)) == 18


def test_a_faction_that_gives_coins_or_defenders_gives_them_once_when_chosen() -> None:
    state = VENEER.setup(
        ["Ann", "Bob", "Cy"], {"roles": {"Ann": "Bankers", "Bob": "Garrison"}}, random.Random(2)
    )
    after = VENEER.resolve(state, {}, random.Random(0)).state
    assert (after.seat("Ann").coins, after.seat("Bob").defenders) == (3 + 3 + 1, 1 + 2)  # Ann's turn: +1
