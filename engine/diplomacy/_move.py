"""Move orders: a move succeeds when its attack is stronger than what holds the destination (or,
head to head, than the other unit's defence) and than every other move into the destination.
Strengths follow Kruijswijk's "Math of Adjudication": no unit may dislodge one of its own power,
and no power's support counts towards dislodging its own unit."""

from __future__ import annotations

from engine.diplomacy._board import Board
from engine.diplomacy._convoy import has_route
from engine.diplomacy._resolver import Resolve


def move_succeeds(board: Board, origin: str, resolve: Resolve) -> bool:
    """The decision for a move order."""
    target = board.target(origin)
    attack = attack_strength(board, origin, resolve)
    opponent = board.head_to_head(origin)
    if opponent is not None:
        if attack <= defend_strength(board, opponent, resolve):
            return False
    elif attack <= hold_strength(board, target, resolve):
        return False
    return all(
        attack > prevent_strength(board, other, resolve)
        for other in board.moves_into(target)
        if other != origin
    )


def _given(board: Board, supporters: list[str], resolve: Resolve) -> list[str]:
    return [s for s in supporters if resolve(s)]


def attack_strength(board: Board, origin: str, resolve: Resolve) -> int:
    if not has_route(board, origin, resolve):
        return 0
    target = board.target(origin)
    supporters = _given(board, board.supports_for_move(origin), resolve)
    defender = board.unit(target)
    leaves = (
        defender is not None
        and board.move_from(target) is not None
        and board.head_to_head(origin) is None
        and resolve(target)
    )
    if defender is None or leaves:
        return 1 + len(supporters)
    if defender.power == board.orders[origin].unit.power:
        return 0
    return 1 + sum(1 for s in supporters if board.orders[s].unit.power != defender.power)


def hold_strength(board: Board, province: str, resolve: Resolve) -> int:
    if board.unit(province) is None:
        return 0
    if board.move_from(province) is not None:
        return 0 if resolve(province) else 1
    return 1 + len(_given(board, board.supports_for_hold(province), resolve))


def defend_strength(board: Board, origin: str, resolve: Resolve) -> int:
    return 1 + len(_given(board, board.supports_for_move(origin), resolve))


def prevent_strength(board: Board, origin: str, resolve: Resolve) -> int:
    if not has_route(board, origin, resolve):
        return 0
    opponent = board.head_to_head(origin)
    if opponent is not None and resolve(opponent):
        return 0
    return 1 + len(_given(board, board.supports_for_move(origin), resolve))
