"""Bots: one per game, pure, writing orders in the game's own text that its own parser reads
without a single error over whole games; the same rng gives the same orders; and a bot never sees
what its player may not (two states differing only there give identical orders)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from engine import RULESETS, find_ruleset
from engine.bots import BOT_NOTE, bot_submission, bot_text
from engine.core import Submission, rng_for, settle_silent
from engine.diplomacy import Unit
from engine.monarchs import MonarchsState
from engine.startrek import MAP, StarTrekState, visible_systems

# Every registered game at its usual table, and the variants whose bots play otherwise.
GAMES: list[tuple[str, int, dict[str, Any]]] = [
    (name, ruleset.simulated.players, {}) for name, ruleset in RULESETS.items()
] + [
    ("startrek", 7, {"fog_of_war": True}),
    ("monarchs", 18, {"mode": "court"}),
]


def start(game: str, count: int, options: dict[str, Any], seed: str = "bots") -> tuple[Any, Any]:
    ruleset = find_ruleset(game)
    names = [f"P{i}" for i in range(count)]
    return ruleset, ruleset.setup(names, options, rng_for(seed, "setup"))


def advance(ruleset: Any, state: Any, seed: str, phases: int) -> Any:
    """Play ``phases`` phases with bots in every seat; every bot order is read without an error."""
    for _ in range(phases):
        if ruleset.outcome(state) is not None:
            break
        key = ruleset.phase(state).key

        def bot(state: Any, player: str, key: str = key) -> Submission:
            submission = bot_submission(ruleset, state, player, rng_for(seed, key, "default", player))
            assert submission.errors == (), (key, player, submission.errors)
            assert BOT_NOTE in submission.notes
            return submission

        state, submissions = settle_silent(ruleset, state, {}, bot)  # as the tick settles bot seats
        state = ruleset.resolve(state, submissions, rng_for(seed, key, "resolve")).state
    return state


@pytest.mark.parametrize(("game", "count", "options"), GAMES)
def test_bots_play_a_whole_game_in_orders_the_game_reads(
    game: str, count: int, options: dict[str, Any]
) -> None:
    ruleset, state = start(game, count, options)
    state = advance(ruleset, state, "bots", 120)
    assert ruleset.phase(state).number > 1  # the game moved on


@pytest.mark.parametrize(("game", "count", "options"), GAMES)
def test_the_same_seed_gives_the_same_orders(game: str, count: int, options: dict[str, Any]) -> None:
    ruleset, state = start(game, count, options)
    state = advance(ruleset, state, "again", 3)
    for player in sorted(ruleset.awaiting(state)):
        one = bot_text(ruleset, state, player, random.Random(7))
        assert one == bot_text(ruleset, state, player, random.Random(7))


def orders(ruleset: Any, state: Any, player: str) -> str:
    return bot_text(ruleset, state, player, random.Random(11))


def test_truce_bot_ignores_the_spoils_others_received_this_round() -> None:
    ruleset, state = start("truce", 4, {})
    state = advance(ruleset, state, "spoils", 2)
    gifted, _ = ruleset.immediate(state, ruleset.parse(state, "P1", "gift 1 to P2"))
    hidden = dataclasses.replace(
        gifted,
        players=tuple(
            dataclasses.replace(p, spoils=p.spoils + 5) if p.name == "P2" else p for p in gifted.players
        ),
    )
    assert orders(ruleset, gifted, "P0") == orders(ruleset, hidden, "P0")


def test_diplomacy_bot_reads_the_board_which_is_all_public() -> None:
    """Nothing in standard Diplomacy's state is private (orders and draw votes under way live in the
    journal, not the state): the bot's orders depend on the board and its power alone."""
    ruleset, state = start("diplomacy", 7, {})
    state = advance(ruleset, state, "dip", 2)
    player = sorted(state.powers)[0]
    renamed = dataclasses.replace(
        state, powers={(p if p == player else p + "x"): power for p, power in state.powers.items()}
    )
    assert orders(ruleset, state, player) == orders(ruleset, renamed, player)
    assert orders(ruleset, state, player) != ""


def test_startrek_bot_sees_nothing_beyond_its_fog_nor_others_secrets() -> None:
    ruleset, state = start("startrek", 7, {"fog_of_war": True})
    assert isinstance(state, StarTrekState)
    player = sorted(state.factions)[0]
    faction = state.factions[player]
    seen = visible_systems(state.position, faction)
    far = next(u for u in state.position.units if u.province not in seen)
    elsewhere = next(
        k
        for k, p in sorted(MAP.provinces.items())
        if k not in seen and p.kind != "land" and state.position.unit_in(k) is None
    )
    units = [u for u in state.position.units if u != far] + [Unit(far.power, far.type, elsewhere)]
    strangers = sorted(f for f in state.factions.values() if f != faction)[:2]
    other = dataclasses.replace(
        state,
        position=dataclasses.replace(state.position, units=tuple(sorted(units))),
        alliances=frozenset({(strangers[0], strangers[1]), (strangers[1], strangers[0])}),
        latinum=state.latinum + 40,
    )
    assert orders(ruleset, state, player) == orders(ruleset, other, player)


def test_talossa_bot_does_not_know_who_has_sent_a_plan() -> None:
    ruleset, state = start("talossa", 4, {})
    state = advance(ruleset, state, "tal", 3)
    others = dataclasses.replace(state, submitted=("P2", "P3"))
    assert orders(ruleset, state, "P0") == orders(ruleset, others, "P0")


def test_monarchs_bot_sees_only_its_map() -> None:
    ruleset, state = start("monarchs", 3, {})
    assert isinstance(state, MonarchsState)
    player = sorted(state.monarchs)[0]
    nation = state.monarchs[player]
    seen = set(state.position.visible_to(nation))
    hidden = {h: a for h, a in state.position.armies.items() if h not in seen}
    assert hidden
    doubled = {**state.position.armies, **{h: (n, c * 2) for h, (n, c) in hidden.items()}}
    other = dataclasses.replace(state, position=dataclasses.replace(state.position, armies=doubled))
    assert orders(ruleset, state, player) == orders(ruleset, other, player)
    assert orders(ruleset, state, player) != "hold"


def test_veneer_bot_ignores_others_hands_targets_and_dealt_factions() -> None:
    ruleset, state = start("veneer", 5, {})
    for _ in range(12):  # to a muster with something to decide
        if state.stage == "muster":
            break
        state = advance(ruleset, state, "ven", 1)
    active = state.active
    swapped = dataclasses.replace(
        state,
        seats=tuple(
            s if s.name == active else dataclasses.replace(s, hand=("Sabotage",), targets=(active,), dealt=())
            for s in state.seats
        ),
    )
    assert orders(ruleset, state, active) == orders(ruleset, swapped, active)
