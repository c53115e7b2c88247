"""Renaming the players never changes an outcome, nor does the order their orders come in, for
every game whose orders are resolved together (issue 29: a Diplomacy phase came out differently
when Russia's units were Austria's). Each game is played by its bots for a few phases; every phase
is resolved again from the same state and orders with each player renamed (the new names sort in
the opposite order) and the orders handed over in another order, and the state after it, with the
names put back, must be the same. Talossa's orders take effect in the order they arrive (its
rules), so there only the names change."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import RULESETS
from engine.bots import bot_submission
from engine.core import Ruleset, Submission, rng_for, settle_silent

NAMES = ["Avalon", "Brisket", "Caraway", "Dunmore", "Elsinore", "Foxglove", "Gravesend"]
RENAMED = ["Zephyrine", "Yarborough", "Xanthippe", "Wolverton", "Vauxhall", "Umberleigh", "Tamarisk"]
IN_ARRIVAL_ORDER = {"talossa"}  # games whose rules resolve orders in the order they came
LISTED_AS_THEY_CAME = {"diplomacy": "last_orders"}  # a list of the orders, not an outcome
PHASES = 6


@pytest.mark.parametrize("game", sorted(RULESETS))
@settings(max_examples=4, deadline=None)
@given(seed=st.text(max_size=8))
def test_renaming_the_players_or_reordering_their_orders_changes_no_outcome(game: str, seed: str) -> None:
    ruleset = RULESETS[game]
    names = NAMES[: ruleset.simulated.players]
    renamed = dict(zip(names, RENAMED, strict=False))
    back = {new: old for old, new in renamed.items()}
    shuffle = random.Random(seed)
    state = ruleset.setup(names, {}, rng_for(seed, "setup"))
    for _ in range(PHASES):
        if ruleset.outcome(state) is not None:
            break
        key = ruleset.phase(state).key

        def bot(state: Any, player: str, key: str = key) -> Submission:
            return bot_submission(ruleset, state, player, rng_for(seed, key, "bot", player))

        state, submissions = settle_silent(ruleset, state, {}, bot)
        after = ruleset.resolve(state, submissions, rng_for(seed, key, "resolve")).state
        other = _resolve_renamed(
            ruleset,
            state,
            submissions,
            renamed,
            rng_for(seed, key, "resolve"),
            shuffle=None if game in IN_ARRIVAL_ORDER else shuffle,
        )
        expected = _comparable(game, ruleset.to_json(after), {})
        assert _comparable(game, ruleset.to_json(other), back) == expected, f"{game}, phase {key}"
        state = after


def _resolve_renamed(
    ruleset: Ruleset,
    state: Any,
    submissions: dict[str, Submission],
    names: dict[str, str],
    rng: random.Random,
    *,
    shuffle: random.Random | None,
) -> Any:
    orders = [(names[p], Submission.from_json(_renamed(s.to_json(), names))) for p, s in submissions.items()]
    if shuffle is not None:
        shuffle.shuffle(orders)
    return ruleset.resolve(
        ruleset.from_json(_renamed(ruleset.to_json(state), names)), dict(orders), rng
    ).state


def _comparable(game: str, data: Any, names: dict[str, str]) -> Any:
    """The state's JSON with the names put back, and the lists kept in arrival order sorted."""
    data = _renamed(data, names)
    listed = LISTED_AS_THEY_CAME.get(game)
    if listed in data:
        data[listed] = sorted(data[listed], key=json.dumps)
    return data


def _renamed(data: Any, names: dict[str, str]) -> Any:
    """The JSON with every name replaced (the names are words found nowhere else)."""
    if not names:
        return json.loads(json.dumps(data))
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    return json.loads(pattern.sub(lambda m: names[m[0]], json.dumps(data)))
