"""The Game of Monarchs (seed 001): three nations on a 61-hex board under fog of war, with an
optional court of courtiers, some of them spies.

``MONARCHS`` is the ruleset the shell uses; the board, the resolver and the events are exported for
templates and tests."""

from __future__ import annotations

from engine.monarchs._battle import fight, win_chance
from engine.monarchs._board import CENTRE, HEXES, HOMES, NATIONS, adjacent, distance, neighbours, starting_map
from engine.monarchs._events import (
    BorderBattleFought,
    CarrierReported,
    GameEnded,
    GuessesMade,
    HexBattleFought,
    HexLost,
    HexTaken,
    LastOrdersTaken,
    LoyaltyDealt,
    LoyaltyRevealed,
    MapShown,
    MonarchScored,
    OrdersHanded,
    TurnResolved,
    TurnScored,
)
from engine.monarchs._maps import pictures
from engine.monarchs._orders import Boost, Move, Orders, read_line
from engine.monarchs._position import Position
from engine.monarchs._resolve import TurnResult, resolve_turn
from engine.monarchs._ruleset import MONARCHS, Monarchs
from engine.monarchs._state import MonarchsState

__all__ = [
    "CENTRE",
    "HEXES",
    "HOMES",
    "MONARCHS",
    "NATIONS",
    "Boost",
    "BorderBattleFought",
    "CarrierReported",
    "GameEnded",
    "GuessesMade",
    "HexBattleFought",
    "HexLost",
    "HexTaken",
    "LastOrdersTaken",
    "LoyaltyDealt",
    "LoyaltyRevealed",
    "MapShown",
    "MonarchScored",
    "Monarchs",
    "MonarchsState",
    "Move",
    "Orders",
    "OrdersHanded",
    "Position",
    "TurnResolved",
    "TurnResult",
    "TurnScored",
    "adjacent",
    "distance",
    "fight",
    "neighbours",
    "pictures",
    "read_line",
    "resolve_turn",
    "starting_map",
    "win_chance",
]
