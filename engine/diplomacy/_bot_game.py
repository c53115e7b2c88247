"""The Diplomacy bot as a game seat: its view is the whole board (nothing in standard Diplomacy is
private once a phase is resolved) and its power."""

from __future__ import annotations

import random

from engine.diplomacy._bot import BoardView, board_orders
from engine.diplomacy._ruleset import DiplomacyState
from engine.diplomacy._variant import find_variant


def view_of(state: DiplomacyState, player: str) -> BoardView:
    return BoardView(find_variant(state.variant).map, state.power_of(player), state.position)


def bot_orders(view: BoardView, rng: random.Random) -> str:
    return "\n".join(board_orders(view, rng))
