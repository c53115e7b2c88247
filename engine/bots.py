"""Bots for empty seats: one simple, sensible player per game. Each game's bot is two pure
functions, ``view_of(state, player)`` (what that player may see, nothing more) and
``bot_orders(view, rng)`` (order text in the game's own form); the text goes through the game's
own parser, as a person's mail does. The randomness is the game's seeded rng (the shell passes
``rng_for(seed, phase, "default", player)``), so replay reproduces a bot's orders exactly."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

from engine.core import Ruleset, Submission
from engine.diplomacy import _bot_game as diplomacy_bot
from engine.monarchs import _bot as monarchs_bot
from engine.startrek import _bot as startrek_bot
from engine.talossa import _bot as talossa_bot
from engine.truce import _bot as truce_bot
from engine.veneer import _bot as veneer_bot

BOT_NOTE = "A bot played this seat."

# game name → (view_of, bot_orders)
BOTS: dict[str, tuple[Callable[[Any, str], Any], Callable[[Any, random.Random], str]]] = {
    "truce": (truce_bot.view_of, truce_bot.bot_orders),
    "diplomacy": (diplomacy_bot.view_of, diplomacy_bot.bot_orders),
    "startrek": (startrek_bot.view_of, startrek_bot.bot_orders),
    "talossa": (talossa_bot.view_of, talossa_bot.bot_orders),
    "monarchs": (monarchs_bot.view_of, monarchs_bot.bot_orders),
    "veneer": (veneer_bot.view_of, veneer_bot.bot_orders),
}


def bot_text(ruleset: Ruleset, state: Any, player: str, rng: random.Random) -> str:
    """The bot's order text for ``player``, decided from that player's view only."""
    view_of, orders = BOTS[ruleset.name]
    return orders(view_of(state, player), rng)


def bot_submission(ruleset: Ruleset, state: Any, player: str, rng: random.Random) -> Submission:
    """The bot's orders read by the game's own parser, noted as a bot's. A bot with nothing to say
    (a courtier not carrying, a phase with no choice for it) leaves the seat to the game's default."""
    text = bot_text(ruleset, state, player, rng)
    submission = ruleset.parse(state, player, text) if text.strip() else ruleset.default(state, player, rng)
    return dataclasses.replace(submission, notes=(*submission.notes, BOT_NOTE))
