"""Truce: a zero-sum social game of Attack, Defend, Support and Loot (seed 000).

``TRUCE`` is the ruleset the shell uses; the event classes are exported for templates and tests.
"""

from __future__ import annotations

from engine.truce._events import (
    EVENT_TYPES,
    ActionRevealed,
    AttackFailed,
    AttackSucceeded,
    CoinsRemoved,
    CoinsTaken,
    GameEnded,
    GiftFailed,
    GiftGiven,
    RoundOpened,
    SpoilsBanked,
    StashLooted,
    SupportCounted,
    SupportLost,
)
from engine.truce._ruleset import Truce
from engine.truce._state import Player, Result, TruceState

__all__ = [
    "EVENT_TYPES",
    "TRUCE",
    "ActionRevealed",
    "AttackFailed",
    "AttackSucceeded",
    "CoinsRemoved",
    "CoinsTaken",
    "GameEnded",
    "GiftFailed",
    "GiftGiven",
    "Player",
    "Result",
    "RoundOpened",
    "SpoilsBanked",
    "StashLooted",
    "SupportCounted",
    "SupportLost",
    "Truce",
    "TruceState",
]

TRUCE = Truce()
