"""A simple, sensible Talossan RISK player: declares a capital when due, keeps part of its Force
Stack on the capital when an enemy is next door, masses the rest where free land is nearest and
conquers free (then weakly held) neighbours. The board, the Force Stacks and the capitals are public
(the Ledger shows them); its view leaves out only who has sent a plan this step."""

from __future__ import annotations

import random
from dataclasses import replace

from engine.talossa._plan import MIN_ATTACKERS
from engine.talossa._state import MAX_ACTIONS, Board, TalossaState


def view_of(state: TalossaState, player: str) -> tuple[TalossaState, str]:
    return replace(state, submitted=()), player


def bot_orders(view: tuple[TalossaState, str], rng: random.Random) -> str:
    state, me = view
    board = Board(state)
    country = board.countries[me]
    if country.fallen or me not in board.countries:
        return ""
    lines: list[str] = []
    lands = board.lands_of(me)
    if not lands:
        return ""
    if country.declaration_due and country.capital is None:
        lines.append(f"C: {_name(board, max(lands, key=lambda k: (board.units(k), k)))}")
    units = {k: board.units(k) for k in lands}
    stack = country.stack
    capital = country.capital
    if stack and capital and _threat(board, me, capital) >= board.units(capital):
        keep = (stack + 1) // 2
        lines.append(f"R: {_name(board, capital)}, {keep}")
        units[capital] += keep
        stack -= keep
    origins = [k for k in lands if not board.is_stronghold(k) and _prey(board, me, k)]
    if not origins:
        if stack:  # nothing to attack from: the stack goes where it defends best
            lines.append(f"R: {_name(board, capital or max(lands, key=lambda k: (units[k], k)))}, {stack}")
        return "\n".join(lines)
    total = sum(units.values()) + stack
    base = max(origins, key=lambda k: (_beatable(board, me, k, total), units[k], rng.random()))
    if stack:
        lines.append(f"R: {_name(board, base)}, {stack}")
        units[base] += stack
    gather = _gather(board, me, base, units)
    if gather:
        lines.append(gather)
    lines += _conquests(board, me, units, MAX_ACTIONS - len(lines))
    return "\n".join(lines)


def _gather(board: Board, me: str, base: str, units: dict[str, int]) -> str | None:
    """One Move: every innerland's spare units one step nearer the base (over our own lands)."""
    distance = {base: 0}
    frontier = [base]
    while frontier:
        frontier = sorted(
            {n for k in frontier for n in board.map.neighbours(k) if n in units and n not in distance}
        )
        for n in frontier:
            distance[n] = min(distance[m] for m in board.map.neighbours(n) if m in distance) + 1
    legs, arrived = [], dict.fromkeys(units, 0)
    for land in sorted(units, key=lambda k: (distance.get(k, 0), k)):  # nearest first: units move once
        if land == base or land not in distance or not board.is_innerland(land) or units[land] < 2:
            continue
        step = min((n for n in board.map.neighbours(land) if distance.get(n, 99) < distance[land]), key=str)
        spare = units[land] - 1
        legs.append(f"{_name(board, land)} >> {_name(board, step)}, {spare}")
        units[land] -= spare
        arrived[step] += spare
    for land, count in arrived.items():
        units[land] += count
    return "M: " + "; ".join(legs) if legs else None


def _conquests(board: Board, me: str, units: dict[str, int], room: int) -> list[str]:
    lines: list[str] = []
    taken: set[str] = set()
    for origin in sorted(units, key=lambda k: (-units[k], k)):
        if board.is_stronghold(origin):
            continue
        for target in _prey(board, me, origin):
            if len(lines) >= room or units[origin] < MIN_ATTACKERS or target in taken:
                break
            if not _likely_win(board, units[origin], target):
                continue
            move_in = max(1, (units[origin] - 1) // 2)
            lines.append(f"Q: {_name(board, origin)} >> {_name(board, target)}, {move_in}")
            units[origin] -= move_in
            taken.add(target)
    return lines


def _beatable(board: Board, me: str, origin: str, attackers: int) -> int:
    """How many neighbours a land could take with ``attackers``: where to mass the stack."""
    return sum(1 for n in _prey(board, me, origin) if _likely_win(board, attackers, n))


def _prey(board: Board, me: str, land: str) -> list[str]:
    """Neighbours not ours: free ones first, then the weakest held."""
    return sorted(
        (n for n in board.map.neighbours(land) if board.owner(n) != me),
        key=lambda n: (board.owner(n) is not None, board.units(n), n),
    )


def _threat(board: Board, me: str, land: str) -> int:
    """The most units an enemy holds next door."""
    return max(
        (board.units(n) for n in board.map.neighbours(land) if board.owner(n) not in (None, me)), default=0
    )


def _likely_win(board: Board, attackers: int, target: str) -> bool:
    """A d6 a unit each side, +2 a die on a stronghold: attack with a clear margin only."""
    margin = 1.8 if board.is_stronghold(target) else 1.2
    return attackers > margin * board.units(target) + 1


def _name(board: Board, key: str) -> str:
    return board.holdings[key].given_name or board.map.land(key).name
