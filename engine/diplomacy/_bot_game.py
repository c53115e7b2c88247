"""The Diplomacy bot as a game seat: its view is the whole board (nothing in standard Diplomacy is
private once a phase is resolved) and its power. From 1920 on it votes for a draw in every movement
phase (the vote is secret; the game ends drawn only when every surviving player votes so)."""

from __future__ import annotations

import random

from engine.diplomacy._bot import BoardView, board_orders
from engine.diplomacy._ruleset import DiplomacyState
from engine.diplomacy._variant import find_variant


def view_of(state: DiplomacyState, player: str) -> BoardView:
    return BoardView(find_variant(state.variant).map, state.power_of(player), state.position)


DRAW_FROM = 1920


def bot_orders(view: BoardView, rng: random.Random) -> str:
    lines = board_orders(view, rng)
    phase = view.position.phase
    if phase.kind == "movement" and phase.year >= DRAW_FROM:
        lines.append("draw")
    return "\n".join(lines)
