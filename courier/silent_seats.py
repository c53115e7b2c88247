"""Who plays a silent seat at the deadline: the game's plain default, or its bot for a seat the
organiser gives to the bot (`Email` = `bot` in the Players tab, at any time: a player who vanished)
or, with `absent = bot`, for every seat that sent nothing. The bot's orders are journalled with the
round, marked as the bot's, so replay makes them again and checks them."""

from __future__ import annotations

from typing import Any

from engine.bots import BOT_NOTE, bot_submission
from engine.core import Ruleset, Submission, rng_for


def silent_seat(
    ruleset: Ruleset, state: Any, player: str, *, seed: str, phase_key: str, bot: bool
) -> Submission:
    """The orders of an awaited player who sent none, with the seeded rng the default always had."""
    rng = rng_for(seed, phase_key, "default", player)
    return bot_submission(ruleset, state, player, rng) if bot else ruleset.default(state, player, rng)


def played_by_bot(submission: Submission) -> bool:
    """Whether a journalled submission was the bot's."""
    return BOT_NOTE in submission.notes
