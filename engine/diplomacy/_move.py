"""Move orders: a move succeeds when its attack is stronger than what holds the destination (or,
head to head, than the other unit's defence) and than every other move into the destination.
Strengths follow Kruijswijk's "Math of Adjudication": no unit may dislodge one of its own power,
and no power's support counts towards dislodging its own unit. A strength reads only the decisions
that can change it, so the resolver sees the true dependencies."""

from __future__ import annotations

from engine.diplomacy._board import Board
from engine.diplomacy._convoy import has_route
from engine.diplomacy._resolver import Resolve

IMMUNE = 1000  # the strength of a unit that cannot be dislodged: more than any attack


def move_succeeds(board: Board, origin: str, resolve: Resolve) -> bool:
    """The decision for a move order."""
    attack = attack_strength(board, origin, resolve)
    if not attack:
        return False
    target = board.targets[origin]
    opponent = board.opponents.get(origin)
    if opponent is not None:
        if attack <= defend_strength(board, opponent, resolve):
            return False
    elif attack <= hold_strength(board, target, resolve):
        return False
    for other in board.moves_into[target]:
        if other != origin and attack <= prevent_strength(board, other, resolve):
            return False
    return True


def given(backers: list[str], resolve: Resolve) -> int:
    """How many of these supports (``board.backers`` of a province) are given. Most units have
    none, so the callers look them up and call this only when there are some."""
    count = 0
    for supporter in backers:
        if resolve(supporter):
            count += 1
    return count


def attack_strength(board: Board, origin: str, resolve: Resolve) -> int:
    """With +1 for a power in a rage (Star Trek), if the attack has any strength at all."""
    if origin in board.by_convoy and not has_route(board, origin, resolve):
        return 0
    target = board.targets[origin]
    defender = board.power.get(target)
    if defender is None or (
        target in board.targets and origin not in board.opponents and resolve(target)
    ):  # nobody stays to defend the target
        backers = board.backers.get(origin)
        strength = 1 + given(backers, resolve) if backers else 1
    elif defender == board.power[origin]:
        return 0
    else:  # supports from the defender's own power do not count against it
        strength = 1
        power = board.power
        for supporter in board.backers.get(origin, ()):
            if power[supporter] != defender and resolve(supporter):
                strength += 1
    return strength + board.rage.get(origin, 0)


def hold_strength(board: Board, province: str, resolve: Resolve) -> int:
    if province not in board.power:
        return 0
    moving = province in board.targets
    if moving and resolve(province):
        return 0
    if province in board.immune:  # Star Trek's diplomatic immunity
        return IMMUNE
    backers = None if moving else board.backers.get(province)
    strength = 1 + given(backers, resolve) if backers else 1
    return strength - board.rage.get(province, 0)


def defend_strength(board: Board, origin: str, resolve: Resolve) -> int:
    """A head-to-head's other side: its own move's strength. A rage adds its +1 here too, since a
    head-to-head compares the two attacks, each modifier applied once (Star Trek rulings); the
    rage's -1 defence is for attacks that are not head to head. So at most one side moves."""
    if origin in board.immune:
        return IMMUNE
    backers = board.backers.get(origin)
    return (1 + given(backers, resolve) if backers else 1) + board.rage.get(origin, 0)


def prevent_strength(board: Board, origin: str, resolve: Resolve) -> int:
    if origin in board.by_convoy and not has_route(board, origin, resolve):
        return 0
    opponent = board.opponents.get(origin)
    if opponent is not None and resolve(opponent):
        return 0
    backers = board.backers.get(origin)
    return (1 + given(backers, resolve) if backers else 1) + board.rage.get(origin, 0)
