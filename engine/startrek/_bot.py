"""The Star Trek bot: the Diplomacy bot's moves on the Star Trek map, seen through the fog of war
when the option is on (only the systems next to its units and centres), written as players write
(``ship``/``troop``). It uses no ability and waits through an intelligence window."""

from __future__ import annotations

import random
from dataclasses import replace

from engine.diplomacy import BoardView, board_orders
from engine.startrek._factions import MAP, visible_systems
from engine.startrek._parse import display
from engine.startrek._state import StarTrekState


def view_of(state: StarTrekState, player: str) -> BoardView | None:
    """What the faction sees; ``None`` in an intelligence window (the bot amends nothing)."""
    if state.held is not None:
        return None
    faction, position = state.factions[player], state.position
    if state.options.fog and state.result is None:
        seen = visible_systems(position, faction)
        position = replace(
            position,
            units=tuple(u for u in position.units if u.province in seen),
            dislodged=tuple(d for d in position.dislodged if d.unit.province in seen),
            supply_centers={p: frozenset(c & seen) for p, c in position.supply_centers.items()},
            contested=position.contested & seen,
        )
    return BoardView(MAP, faction, position)


def bot_orders(view: BoardView | None, rng: random.Random) -> str:
    if view is None:
        return ""
    return "\n".join(display(line) for line in board_orders(view, rng))
