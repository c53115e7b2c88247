"""Who plays a silent seat at the deadline: the game's plain default, or its bot for a seat the
organiser gave to the bot (`Email` = `bot`) or, with `absent = bot`, for every seat that sent nothing.
Both are recorded in the game's setup when it starts, so replay makes the same choice."""

from __future__ import annotations

from typing import Any

from engine.bots import bot_submission
from engine.core import Ruleset, Submission, rng_for


def bot_plays(setup: dict[str, Any], player: str) -> bool:
    return player in setup.get("bots", ()) or setup.get("absent") == "bot"


def silent_seat(
    ruleset: Ruleset, state: Any, player: str, *, seed: str, phase_key: str, setup: dict[str, Any]
) -> Submission:
    """The orders of an awaited player who sent none, with the seeded rng the default always had."""
    rng = rng_for(seed, phase_key, "default", player)
    if bot_plays(setup, player):
        return bot_submission(ruleset, state, player, rng)
    return ruleset.default(state, player, rng)
