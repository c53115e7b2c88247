"""Veneer through the tick (rulings 2026-11-24): a flipped action card is named in every living
player's mail; its holder plays it in a phase that does not wait for them; every vote with who voted
how, every attack and its outcome reach every living player's mail and the History tab."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from courier.journal.replay import replay_game
from engine.veneer import VENEER, VeneerState
from engine.veneer import _ruleset as ruleset
from engine.veneer._setup import new_game
from tests.conftest import Table, text_of, write
from tests.helpers.clock import at
from tests.helpers.veneer import PLAYERS, current, table

# Turn 1, Agatha's: Tithe goes to a vote. Turn 2, Barney's: he flips Arson and attacks Charles.
PILE = ("Tithe", "Arson")


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Table:
    def rigged(players: Sequence[str], options: Any, rng: random.Random) -> VeneerState:
        state = new_game(players, options, rng)
        plain = tuple(dataclasses.replace(s, dealt=("Diplomats",)) for s in state.seats)  # no surprises
        rest = tuple(c for c in state.pile if c not in PILE)
        return dataclasses.replace(state, seats=plain, pile=PILE + rest)

    monkeypatch.setattr(ruleset, "new_game", rigged)
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    return t


def step(t: Table, orders: dict[str, str] | None = None) -> VeneerState:
    """The orders written, then the tick just after the deadline."""
    _, deadline, _ = current(t)
    assert deadline is not None
    for player, text in (orders or {}).items():
        write(t, player, text)
    t.tick(deadline + timedelta(minutes=1))
    return current(t)[0]


def last_mail(t: Table, player: str) -> str:
    return text_of(t.sent(f"{player.lower()}@players.test")[-1])


def history(t: Table) -> str:
    book = load_workbook(t.root / "truce-1.xlsx")
    return "\n".join(str(c) for row in book["History"].iter_rows(values_only=True) for c in row if c)


def to_turn_two(t: Table) -> VeneerState:
    step(t)  # factions: everyone the first dealt; Agatha flips Tithe
    state = step(t, {"Agatha": "vote yes", "Barney": "vote yes", "Charles": "vote no"})
    assert state.stage == "muster" and VENEER.awaiting(state) == {"Agatha"}
    step(t, {"Agatha": "pass"})  # no attack: straight to her end
    return step(t, {"Agatha": "pass"})  # Barney's turn: he flips Arson


def test_every_vote_is_told_to_every_living_player_and_onto_history(game: Table) -> None:
    step(game)
    step(game, {"Agatha": "vote yes", "Barney": "vote yes", "Charles": "vote no"})
    told = "Tithe failed, 2 yes to 3 no (yes: Agatha, Barney; no: Charles, Darcy, Emmett)."
    assert all(told in last_mail(game, p) for p in PLAYERS)  # only Agatha must act next
    assert told in history(game)


def test_a_flipped_action_is_named_in_every_living_players_mail(game: Table) -> None:
    state = to_turn_two(game)
    assert (state.active, state.stage, state.seat("Barney").hand) == ("Barney", "muster", ("Arson",))
    flipped = "Barney flipped the action Arson (A player loses 1 coin.) and placed it in front of them"
    assert all(flipped in last_mail(game, p) for p in PLAYERS)
    assert "# In front of you (public, play at any time): Arson" in last_mail(game, "Barney")


def test_a_card_is_played_in_a_phase_that_does_not_wait_for_its_holder(game: Table) -> None:
    to_turn_two(game)
    state = step(game, {"Barney": "reassign 1 to attackers\nattack Charles with 1"})
    assert state.stage == "response" and VENEER.awaiting(state) == {"Charles"}
    declared = "Barney attacks Charles with 1 attacker."
    assert all(declared in last_mail(game, p) for p in PLAYERS)
    assert "# Nothing is asked of you in this phase, but you may play a card" in last_mail(game, "Barney")
    write(game, "Barney", "play Arson on Charles")
    game.tick(game.clock + timedelta(minutes=5))  # the receipt, before the deadline
    receipt = last_mail(game, "Barney")
    assert "play Arson on Charles" in receipt and "No orders are needed" not in receipt
    state = step(game)  # Charles is silent: his defender intercepts
    assert state.seat("Charles").coins == 2 and state.seat("Barney").hand == ()
    played = "Barney played Arson on Charles: A player loses 1 coin."
    outcome = "Barney's 1 attacker against Charles, 1 defender intercepting: 1 attacker and 0 defenders"
    for player in PLAYERS:
        assert played in last_mail(game, player) and outcome in last_mail(game, player)
    assert played in history(game) and outcome in history(game)
    journal = game.journal()
    try:
        assert replay_game(journal, "truce-1")[1] == []  # the play replays like any order
    finally:
        journal.close()
