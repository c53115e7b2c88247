"""Bots for empty seats: one simple, sensible player per game. Each game's bot is two pure
functions of its ruleset, ``view_of(state, player)`` (what that player may see, nothing more) and
``bot_orders(view, rng)`` (order text in the game's own form); the text goes through the game's
own parser, as a person's mail does. The randomness is the game's seeded rng (the shell passes
``rng_for(seed, phase, "default", player)``), so replay reproduces a bot's orders exactly."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from engine.core import Ruleset, Submission

BOT_NOTE = "A bot played this seat."


def bot_text(ruleset: Ruleset, state: Any, player: str, rng: random.Random) -> str:
    """The bot's order text for ``player``, decided from that player's view only."""
    return ruleset.bot_orders(ruleset.view_of(state, player), rng)


def bot_submission(ruleset: Ruleset, state: Any, player: str, rng: random.Random) -> Submission:
    """The bot's orders read by the game's own parser, noted as a bot's. A bot with nothing to say
    (a courtier not carrying, a phase with no choice for it) leaves the seat to the game's default."""
    text = bot_text(ruleset, state, player, rng)
    submission = ruleset.parse(state, player, text) if text.strip() else ruleset.default(state, player, rng)
    return dataclasses.replace(submission, notes=(*submission.notes, BOT_NOTE))
