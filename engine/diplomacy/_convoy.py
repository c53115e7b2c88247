"""Convoy orders: a fleet at sea carries an army one step of its way, unless it is dislodged (or a
paradox is settled against it). A convoyed move has a route if an unbroken chain of such fleets
links the army's province to its destination; any one route is enough (DATC 4.A.1)."""

from __future__ import annotations

from engine.diplomacy._board import Board
from engine.diplomacy._resolver import Resolve


def convoy_holds(board: Board, province: str, resolve: Resolve) -> bool:
    """The decision for a convoy order: the fleet is still there to convoy."""
    return not any(resolve(origin) for origin in board.moves_into[province])


def has_route(board: Board, origin: str, resolve: Resolve) -> bool:
    """Whether a move can reach its destination: always over land, by convoy only along fleets
    that hold."""
    if origin not in board.by_convoy:
        return True
    if origin in board.paradox:
        return False
    return bool(route_fleets(board, origin, resolve))


def route_fleets(board: Board, origin: str, usable: Resolve) -> list[str]:
    """The fleets of one route from ``origin`` to its destination, or ``[]``. Fleets are asked
    whether they are ``usable`` only when the search reaches them."""
    target = board.targets[origin]
    fleets = {p: board.orders[p].unit.location for p in board.convoys[origin]}
    frontier = [p for p, loc in sorted(fleets.items()) if board.index.fleet_reaches(loc, origin)]
    came_from: dict[str, str | None] = {p: None for p in frontier}
    while frontier:
        fleet = frontier.pop(0)
        if not usable(fleet):
            continue
        if board.index.fleet_reaches(fleets[fleet], target):
            chain: list[str] = []
            step: str | None = fleet
            while step is not None:
                chain.append(step)
                step = came_from[step]
            return chain
        for other, loc in sorted(fleets.items()):
            if other not in came_from and board.index.fleet_adjacent(fleets[fleet], loc):
                came_from[other] = fleet
                frontier.append(other)
    return []
