"""Move orders: a move succeeds when its attack is stronger than what holds the destination (or,
head to head, than the other unit's defence) and than every other move into the destination.
Strengths follow Kruijswijk's "Math of Adjudication": no unit may dislodge one of its own power,
and no power's support counts towards dislodging its own unit."""

from __future__ import annotations

from engine.diplomacy._board import Board
from engine.diplomacy._convoy import has_route
from engine.diplomacy._orders import Move
from engine.diplomacy._resolver import Resolve

IMMUNE = 1000  # the strength of a unit that cannot be dislodged: more than any attack


def move_succeeds(board: Board, origin: str, resolve: Resolve) -> bool:
    """The decision for a move order."""
    target = board.targets[origin]
    attack = attack_strength(board, origin, resolve)
    opponent = board.opponents.get(origin)
    if opponent is not None:
        if attack <= defend_strength(board, opponent, resolve):
            return False
    elif attack <= hold_strength(board, target, resolve):
        return False
    return all(
        attack > prevent_strength(board, other, resolve)
        for other in board.moves_into[target]
        if other != origin
    )


def _given(supporters: list[str], resolve: Resolve) -> list[str]:
    """The supports that are given (every one is resolved, in order)."""
    return [s for s in supporters if resolve(s)]


def _rage(board: Board, province: str) -> int:
    """+1 to the moves (and -1 to the defence) of a power in a rage (Star Trek); 0 in the standard game."""
    return 1 if board.orders[province].unit.power in board.map.modifiers.raging else 0


def attack_strength(board: Board, origin: str, resolve: Resolve) -> int:
    strength = _attack_strength(board, origin, resolve)
    return strength + _rage(board, origin) if strength else 0


def _attack_strength(board: Board, origin: str, resolve: Resolve) -> int:
    if not has_route(board, origin, resolve):
        return 0
    target = board.targets[origin]
    supporters = _given(board.move_supports[origin], resolve)
    defender = board.orders.get(target)
    if defender is None or (
        isinstance(defender, Move) and origin not in board.opponents and resolve(target)
    ):  # nobody stays to defend the target
        return 1 + len(supporters)
    if defender.unit.power == board.orders[origin].unit.power:
        return 0
    return 1 + sum(1 for s in supporters if board.orders[s].unit.power != defender.unit.power)


def hold_strength(board: Board, province: str, resolve: Resolve) -> int:
    order = board.orders.get(province)
    if order is None:
        return 0
    if isinstance(order, Move) and resolve(province):
        return 0
    if province in board.map.modifiers.immune:  # Star Trek's diplomatic immunity
        return IMMUNE
    if isinstance(order, Move):
        return 1 - _rage(board, province)
    return 1 + len(_given(board.hold_supports[province], resolve)) - _rage(board, province)


def defend_strength(board: Board, origin: str, resolve: Resolve) -> int:
    if origin in board.map.modifiers.immune:
        return IMMUNE
    return 1 + len(_given(board.move_supports[origin], resolve)) - _rage(board, origin)


def prevent_strength(board: Board, origin: str, resolve: Resolve) -> int:
    if not has_route(board, origin, resolve):
        return 0
    opponent = board.opponents.get(origin)
    if opponent is not None and resolve(opponent):
        return 0
    return 1 + len(_given(board.move_supports[origin], resolve)) + _rage(board, origin)
