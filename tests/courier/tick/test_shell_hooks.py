"""Shell hooks a game may use: secret roles told at the start (``opening_events``), newcomers
joining mid-game (``join``), and the game's own reason for refusing a writer."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

import pytest

from courier.backends.workbook import write_config
from courier.journal.replay import replay_game
from courier.journal.sqlite import SqliteJournal
from engine import RULESETS
from engine.core import Event
from engine.truce import Truce, TruceState
from tests.conftest import BASE_CONFIG, PLAYERS, Table, address, text_of
from tests.helpers.clock import at


@dataclass(frozen=True, kw_only=True)
class RoleTold(Event):
    player: str
    role: str


@dataclass(frozen=True, kw_only=True)
class PlayerJoined(Event):
    player: str


class SecretTruce(Truce):
    """Truce with a secret role per player and an open door for newcomers."""

    name = "truce-hooks"

    def opening_events(self, state: TruceState) -> tuple[Event, ...]:
        return tuple(
            RoleTold(player=p.name, role=f"agent {i}", audience=frozenset({p.name}))
            for i, p in enumerate(state.players)
        )

    def join(
        self, state: TruceState, player: str, role: str, rng: random.Random
    ) -> tuple[TruceState, tuple[Event, ...]]:
        if len(state.players) >= 5:
            raise ValueError("the table is full")
        newcomer = replace(state.players[0], name=player, supply=3, spoils=0)
        return replace(state, players=(*state.players, newcomer)), (PlayerJoined(player=player),)


@pytest.fixture
def hooked(monkeypatch: pytest.MonkeyPatch, make_table: Callable[..., Table]) -> Table:
    monkeypatch.setitem(RULESETS, SecretTruce.name, SecretTruce())
    return make_table({"game": SecretTruce.name})


def test_each_player_learns_only_their_own_secret_role(hooked: Table) -> None:
    hooked.tick(at(0, 8, 5))
    for i, name in enumerate(PLAYERS):
        welcome = text_of(hooked.sent(name)[0])
        assert f"agent {i}" in welcome
        assert all(f"agent {j}" not in welcome for j in range(len(PLAYERS)) if j != i)


def test_a_newcomer_joins_and_replay_reproduces(hooked: Table) -> None:
    hooked.tick(at(0, 8, 5))
    rows = [{"name": n, "email": address(n)} for n in [*PLAYERS, "Emmett", "Freja"]]
    write_config(hooked.root / "truce-1.xlsx", {**BASE_CONFIG, "game": SecretTruce.name}, rows)
    hooked.tick(at(0, 9))
    assert "Welcome" in str(hooked.sent("Emmett")[0]["Subject"])
    assert "table is full" in text_of(hooked.sent("organiser@courier.test")[0])
    hooked.order("Emmett", "loot")
    hooked.order("Freja", "loot")
    hooked.tick(at(0, 10))
    assert "Orders received" in str(hooked.sent("Emmett")[-1]["Subject"])
    assert "takes no newcomers" not in text_of(hooked.sent("Emmett")[-1])
    assert "could not be used" in str(hooked.sent("Freja")[-1]["Subject"])
    hooked.tick(at(0, 20, 5))
    # The newcomer is news: it waited for the next mail to Agatha, the round's report (issue 29).
    assert any("PlayerJoined" in text_of(m) or "Emmett" in text_of(m) for m in hooked.sent("Agatha"))
    journal = SqliteJournal(hooked.deployment.journal_path)
    try:
        assert replay_game(journal, "truce-1") == (1, [])
    finally:
        journal.close()


def test_a_game_without_newcomers_says_so(make_table: Callable[..., Table]) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    rows = [{"name": n, "email": address(n)} for n in [*PLAYERS, "Emmett"]]
    write_config(table.root / "truce-1.xlsx", BASE_CONFIG, rows)
    table.order("Emmett", "loot")
    assert table.tick(at(0, 9)) == []
    assert "takes no newcomers" in text_of(table.sent("Emmett")[-1])


class TurnTruce(Truce):
    """Truce played as a turn game: only Agatha ever has to act, so only she hears of each round."""

    name = "truce-turns"
    mail_only_awaited = True

    def awaiting(self, state: TruceState) -> frozenset[str]:
        return frozenset({"Agatha"}) if super().awaiting(state) else frozenset()


def test_a_turn_game_mails_only_who_must_act(
    monkeypatch: pytest.MonkeyPatch, make_table: Callable[..., Table]
) -> None:
    monkeypatch.setitem(RULESETS, TurnTruce.name, TurnTruce())
    table = make_table({"game": TurnTruce.name, "rounds": "2"})
    table.tick(at(0, 8, 5))
    table.tick(at(0, 20, 5))
    assert [m["X-Courier-Kind"] for m in table.sent("Agatha")] == ["welcome", "report"]
    assert [m["X-Courier-Kind"] for m in table.sent("Barney")] == ["welcome"]
    table.tick(at(1, 20, 5))  # the end: everyone hears
    assert [m["X-Courier-Kind"] for m in table.sent("Barney")] == ["welcome", "game_over"]
