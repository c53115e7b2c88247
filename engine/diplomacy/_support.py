"""Support orders: a unit adds one to the strength of a hold or move it can reach, unless its
support is cut by an attack from a foreign unit (not from the province it supports into) or the
supporter is dislodged."""

from __future__ import annotations

from engine.diplomacy._board import Board
from engine.diplomacy._convoy import has_route
from engine.diplomacy._orders import Move, Support, province_of
from engine.diplomacy._resolver import Resolve


def is_matched(board: Board, province: str) -> bool:
    """Does the supported unit do what the support says (hold, or move to that province)?"""
    support = board.orders[province]
    assert isinstance(support, Support)
    supported = board.orders.get(support.supported)
    if support.destination is None:
        return supported is not None and not isinstance(supported, Move)
    return isinstance(supported, Move) and province in board.supports_for_move(support.supported)


def cutter(board: Board, province: str, resolve: Resolve) -> str | None:
    """The origin of an attack that cuts this support without dislodging it, if any."""
    support = board.orders[province]
    assert isinstance(support, Support)
    for origin in board.moves_into(province):
        attacker = board.orders[origin].unit
        if attacker.power == support.unit.power or origin == province_of(support.destination or ""):
            continue
        if has_route(board, origin, resolve):
            return origin
    return None


def dislodger(board: Board, province: str, resolve: Resolve) -> str | None:
    """The origin of the move that dislodges the (non-moving) unit in ``province``, if any."""
    return next((origin for origin in board.moves_into(province) if resolve(origin)), None)


def support_given(board: Board, province: str, resolve: Resolve) -> bool:
    """The decision for a support order."""
    if not is_matched(board, province):
        return False
    return cutter(board, province, resolve) is None and dislodger(board, province, resolve) is None
