"""Support orders: a unit adds one to the strength of a hold or move it can reach, unless its
support is cut by an attack from a foreign unit (not from the province it supports into) or the
supporter is dislodged."""

from __future__ import annotations

from engine.diplomacy._board import Board
from engine.diplomacy._convoy import has_route
from engine.diplomacy._orders import Support
from engine.diplomacy._resolver import Resolve


def cutter(board: Board, province: str, resolve: Resolve) -> str | None:
    """The origin of an attack that cuts this (matched) support without dislodging it, if any."""
    support = board.orders[province]
    assert isinstance(support, Support)
    into = board.targets.get(support.supported)  # where the supported unit moves, if it does
    supporter = board.power[province]
    for origin in board.moves_into.get(province, ()):
        if board.power[origin] != supporter and origin != into and has_route(board, origin, resolve):
            return origin
    return None


def cutters(board: Board, province: str, resolve: Resolve) -> list[str]:
    """The origins of every attack that cuts this (matched) support, in province order: a report
    names the first, whatever order the units were listed in."""
    support = board.orders[province]
    assert isinstance(support, Support)
    into = board.targets.get(support.supported)
    supporter = board.power[province]
    return sorted(
        origin
        for origin in board.moves_into.get(province, ())
        if board.power[origin] != supporter and origin != into and has_route(board, origin, resolve)
    )


def dislodger(board: Board, province: str, resolve: Resolve) -> str | None:
    """The origin of the move that dislodges the (non-moving) unit in ``province``, if any."""
    for origin in board.moves_into.get(province, ()):
        if resolve(origin):
            return origin
    return None


def support_given(board: Board, province: str, resolve: Resolve) -> bool:
    """The decision for a support order: its unit does what it supports (``board.matched``), and
    the support is neither cut nor dislodged."""
    if province not in board.matched:
        return False
    return cutter(board, province, resolve) is None and dislodger(board, province, resolve) is None
