"""One contract, run over every registered game: what the shell and players may count on whatever
the game. A seventh game is a package, one line in the registry, and its entry in
tests/data/forgiving.yaml (how its players write orders), and then these tests run for it too."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import RULESETS, Ruleset
from engine.core import OPTIONAL_HOOKS, Event, SilentInTurn, play_phase, rng_for, settle_silent
from engine.reading import Vocabulary
from engine.request import resolve_request
from tests.conftest import Table
from tests.helpers.forgiving import FORGIVING
from tests.helpers.paths import ROOT

GAMES = sorted(RULESETS)
CASES = [(game, case) for game in GAMES for case in FORGIVING.get(game, {}).get("cases", [])]


def _started(game: str) -> tuple[Ruleset, Any, str]:
    spec = FORGIVING[game]
    ruleset = RULESETS[game]
    return ruleset, ruleset.setup(spec["players"], spec["options"], random.Random(1)), spec["writer"]


def test_every_game_says_how_its_players_write() -> None:
    assert set(FORGIVING) == set(RULESETS)
    for game in GAMES:
        classes = {case["class"] for case in FORGIVING[game]["cases"]}
        assert {"greeting", "label", "sentence", "ambiguous", "attempt"} <= classes, game


@pytest.mark.parametrize(("game", "case"), CASES, ids=[f"{g}: {c['text'][:40]}" for g, c in CASES])
def test_orders_written_the_way_people_write_them(game: str, case: dict[str, Any]) -> None:
    ruleset, state, writer = _started(game)
    submission = ruleset.parse(state, writer, case["text"])
    assert list(submission.orders) == case.get("orders", []), submission
    expected = case.get("errors", [])
    assert [e.line for e in submission.errors] == [e["line"] for e in expected], submission.errors
    for error, wanted in zip(submission.errors, expected, strict=True):
        assert error.suggestion == wanted.get("suggestion"), error
    if "notes" in case:
        assert any(case["notes"] in note for note in submission.notes), submission.notes


@pytest.mark.parametrize("game", GAMES)
def test_the_order_form_reads_back_and_greetings_change_nothing(game: str) -> None:
    """The order form mailed to a player reads without error, and the same with a greeting above and
    a sign-off below; its orders read back to themselves."""
    ruleset, state, writer = _started(game)
    assert isinstance(ruleset.vocabulary(state), Vocabulary)
    form = ruleset.order_template(state, writer)
    plain = ruleset.parse(state, writer, form)
    assert plain.errors == ()
    greeted = ruleset.parse(state, writer, f"Hi everyone,\n\n{form}\n\nThanks, and good luck!\n{writer}")
    assert (greeted.orders, greeted.errors) == (plain.orders, plain.errors)
    again = ruleset.parse(state, writer, "\n".join(plain.orders))
    assert again.orders == plain.orders


@pytest.mark.parametrize("game", GAMES)
def test_state_round_trips_through_json(game: str) -> None:
    ruleset, state, _ = _started(game)
    assert ruleset.to_json(ruleset.from_json(ruleset.to_json(state))) == ruleset.to_json(state)


def _members(protocol: type) -> set[str]:
    return {k for k in vars(protocol) if not k.startswith("_")} | set(protocol.__annotations__)


@pytest.mark.parametrize("game", GAMES)
def test_every_hook_a_game_offers_is_declared_in_the_contract(game: str) -> None:
    """The shell calls a game only through ``engine.core``: the contract and its optional hooks."""
    ruleset = RULESETS[game]
    assert isinstance(ruleset, Ruleset) and ruleset.name == game
    declared = _members(Ruleset).union(*map(_members, OPTIONAL_HOOKS))
    offered = {name for name in dir(ruleset) if not name.startswith("_")}
    assert offered <= declared, (
        f"{game} offers {sorted(offered - declared)}, which engine/core.py does not declare"
    )
    for hook in OPTIONAL_HOOKS:
        assert isinstance(ruleset, hook) == (_members(hook) <= offered)


@pytest.mark.parametrize("game", GAMES)
def test_silent_seats_act_in_an_order_of_exactly_the_seats_given(game: str) -> None:
    """A game whose silent seats act in turn (``SilentInTurn``) orders exactly the seats the shell
    gives it, so settling them ends with every awaited seat answered once."""
    ruleset, state, _ = _started(game)
    if not isinstance(ruleset, SilentInTurn):
        return
    seats = frozenset(ruleset.awaiting(state))
    assert sorted(ruleset.silent_order(state, seats)) == sorted(seats)
    _, settled = settle_silent(ruleset, state, {}, lambda s, p: ruleset.default(s, p, random.Random(p)))
    assert set(settled) == set(ruleset.awaiting(state))


@pytest.mark.parametrize("game", GAMES)
def test_a_phase_plays_alike_from_one_seed_and_the_defaults_are_legal(game: str) -> None:
    """``engine.core.play_phase`` (the shell's way, and ``courier resolve``'s): the same seed and
    texts give the same phase; every absent player's default reads back without error."""
    ruleset, state, writer = _started(game)
    texts = {writer: ruleset.order_template(state, writer)}
    played = play_phase(ruleset, state, texts, "seed")
    again = play_phase(ruleset, state, texts, "seed")
    assert ruleset.to_json(played.resolution.state) == ruleset.to_json(again.resolution.state)
    for player, submission in played.submissions.items():
        if player != writer and submission.orders:
            assert ruleset.parse(state, player, "\n".join(submission.orders)).errors == (), player


def test_courier_resolve_plays_a_phase_as_the_tick_did(tmp_path: Path) -> None:
    """Talossan RISK by mail, one plan written and three drawn at random; ``courier resolve talossa``
    given the start, the plan and the game's seed ends the step exactly as the tick did."""
    spec = FORGIVING["talossa"]
    roles = spec["options"]["roles"]
    rows = [{"name": p, "email": f"{p.lower()}@players.test", "role": roles[p]} for p in spec["players"]]
    config = {"game": "talossa", "timezone": "UTC", "start": "2026-12-01 08:00", "deadlines": "20:00"}
    table = Table(tmp_path, {**config, "reminders": "none"}, rows)
    table.tick(datetime(2026, 12, 1, 8, 5, tzinfo=UTC))
    table.mail("al@players.test", "R: Abbavilla, 3")
    table.tick(datetime(2026, 12, 1, 20, 5, tzinfo=UTC))
    journal = table.journal()
    row, (played,) = journal.game("truce-1"), journal.rounds("truce-1")
    journal.close()
    assert row is not None
    talossa = RULESETS["talossa"]
    start = talossa.setup(row.setup["players"], row.setup["options"], rng_for(row.seed, "setup"))
    request = {"state": talossa.to_json(start), "orders": {"Al": "R: Abbavilla, 3"}, "seed": row.seed}
    assert resolve_request(talossa, request)["state"] == played["state_after"]


NOISE = [
    "Hi all,",
    "Hello everyone!",
    "Thanks — good luck!",
    "Cheers,",
    "Sent from my iPhone",
    "See you soon",
    "Best regards",
]


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=20, deadline=None)
@given(noise=st.lists(st.tuples(st.integers(0, 40), st.sampled_from(NOISE)), max_size=6))
def test_greetings_anywhere_never_change_what_is_read(game: str, noise: list[tuple[int, str]]) -> None:
    """Nothing the game reads is read otherwise for the chatter around it, wherever it stands."""
    ruleset, state, writer = _started(game)
    written = [o for c in FORGIVING[game]["cases"] if c["class"] == "sentence" for o in c["orders"]]
    lines = [*ruleset.order_template(state, writer).splitlines(), *written]
    plain = ruleset.parse(state, writer, "\n".join(lines))
    assert plain.orders and not plain.errors
    for at, chatter in noise:
        lines.insert(at % (len(lines) + 1), chatter)
    chatty = ruleset.parse(state, writer, "\n".join(lines))
    assert (chatty.orders, chatty.errors) == (plain.orders, plain.errors)


@pytest.mark.parametrize("game", GAMES)
def test_every_event_a_game_defines_has_its_template(game: str) -> None:
    """A report line per event: templates/GAME/events/EVENT.txt.j2 for every Event of the package."""
    package = type(RULESETS[game]).__module__.rsplit(".", 1)[0]
    modules = pkgutil.iter_modules(importlib.import_module(package).__path__, f"{package}.")
    events = {
        cls.__name__
        for info in modules
        for _, cls in inspect.getmembers(importlib.import_module(info.name), inspect.isclass)
        if issubclass(cls, Event) and cls is not Event and cls.__module__.startswith(package)
    }
    folder = ROOT / "templates" / game / "events"
    assert events and {e for e in events if not (folder / f"{e}.txt.j2").exists()} == set()
