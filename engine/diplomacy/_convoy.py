"""Convoy orders: a fleet at sea carries an army one step of its way, unless it is dislodged (or a
paradox is settled against it). A convoyed move has a route if an unbroken chain of such fleets
links the army's province to its destination; any one route is enough (DATC 4.A.1)."""

from __future__ import annotations

from engine.diplomacy._board import Board
from engine.diplomacy._resolver import Resolve


def convoy_holds(board: Board, province: str, resolve: Resolve) -> bool:
    """The decision for a convoy order: the fleet is still there to convoy."""
    return not any(resolve(origin) for origin in board.moves_into.get(province, ()))


def has_route(board: Board, origin: str, resolve: Resolve) -> bool:
    """Whether a move can reach its destination: always over land, by convoy only along fleets
    that hold."""
    if origin not in board.by_convoy:
        return True
    if origin in board.paradox:
        return False
    fixed = board.routes.get(origin)
    return bool(route_fleets(board, origin, resolve)) if fixed is None else fixed


def fix_routes(board: Board) -> None:
    """A convoy nobody attacks holds whatever else happens, so a convoyed move whose fleets are
    all unattacked has a route or not from the start: decide it once, not at every strength."""
    for army, fleets in board.convoys.items():
        if not any(fleet in board.moves_into for fleet in fleets):
            board.routes[army] = bool(route_fleets(board, army, _holds))


def _holds(fleet: str) -> bool:
    return True


def route_fleets(board: Board, origin: str, usable: Resolve) -> list[str]:
    """The fleets of one route from ``origin`` to its destination, or ``[]``: breadth first, over
    the convoying fleets in province order. Fleets are asked whether they are ``usable`` only when
    the search reaches them."""
    target = board.targets[origin]
    fleets = board.convoys[origin]
    at = {fleet: board.orders[fleet].unit.location for fleet in fleets}
    reach, neighbours = board.index.fleet_reach, board.index.fleet_neighbours
    frontier = [fleet for fleet in fleets if origin in reach.get(at[fleet], ())]
    came_from: dict[str, str | None] = dict.fromkeys(frontier)
    for fleet in frontier:  # grows as the search goes
        if not usable(fleet):
            continue
        if target in reach.get(at[fleet], ()):
            chain: list[str] = []
            step: str | None = fleet
            while step is not None:
                chain.append(step)
                step = came_from[step]
            return chain
        near = neighbours.get(at[fleet], frozenset())
        for other in fleets:
            if other not in came_from and at[other] in near:
                came_from[other] = fleet
                frontier.append(other)
    return []
