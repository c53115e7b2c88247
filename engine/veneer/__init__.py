"""Veneer: a turn game of votes, alliances, vetoes, interceptions and secret targets (seed 002).

``VENEER`` is the ruleset the shell uses. The deck is data (``DEFAULT_DECK``, ``load_deck``); the
turn is a table of stages (``STAGES``); combat arithmetic is ``intercept``/``split_returns``.
"""

from __future__ import annotations

from engine.veneer._cards import EFFECTS, KINDS, Card, Deck, DeckError, EffectSpec, check_deck, load_deck
from engine.veneer._combat import Interception, intercept, split_returns
from engine.veneer._default_deck import DEFAULT_DECK
from engine.veneer._events import EVENT_TYPES
from engine.veneer._phases import STAGES, Stage
from engine.veneer._ruleset import Veneer
from engine.veneer._state import Attack, Debt, Offer, Seat, VeneerState

__all__ = [
    "DEFAULT_DECK",
    "EFFECTS",
    "EVENT_TYPES",
    "KINDS",
    "STAGES",
    "VENEER",
    "Attack",
    "Card",
    "Debt",
    "Deck",
    "DeckError",
    "EffectSpec",
    "Interception",
    "Offer",
    "Seat",
    "Stage",
    "Veneer",
    "VeneerState",
    "check_deck",
    "intercept",
    "load_deck",
    "split_returns",
]

VENEER = Veneer()
