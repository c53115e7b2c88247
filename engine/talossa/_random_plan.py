"""II.5: a conqueror without a plan at the deadline gets 6 random actions, each legal when drawn.

Drawn one at a time on a scratch board that plays the earlier drawn actions (battles counted as
lost, so no conquest is assumed), with the game's seeded ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.core import fold
from engine.talossa._actions import Action, Capitalshift, Conquer, Leg, Move, Reinforce, Strongholding
from engine.talossa._events import Throw
from engine.talossa._plan import MIN_ATTACKERS, PlanRun, resolve_action
from engine.talossa._state import CAPITAL_MIN_LANDS, Board, TalossaState

RANDOM_ACTIONS = 6

Draw = Callable[[Board, str, random.Random], Action | None]


def random_plan(state: TalossaState, player: str, rng: random.Random) -> list[Action]:
    board = Board(state)
    actions: list[Action] = []
    for _ in range(RANDOM_ACTIONS):
        action = _draw(board, player, rng)
        if action is None:
            break
        actions.append(action)
        run = PlanRun(player, actions, {fold(s): k for s, k in board.spellings().items()})
        run.results = {i: True for i in range(len(actions) - 1)}
        resolve_action(board, run, len(actions) - 1, _lost)
    return actions


def _lost(attackers: int, defenders: int, bonus: int) -> tuple[Throw, ...]:
    return (Throw(attacker=(), defender=(), bonus=bonus, attack=0, defence=1),)


def _text(board: Board, key: str) -> str:
    return board.holdings[key].given_name or board.map.land(key).name


def _draw(board: Board, player: str, rng: random.Random) -> Action | None:
    country = board.countries[player]
    if country.declaration_due and country.capital is None:
        capital = _capital(board, player, rng)
        if capital is not None:
            return capital
    drawers: list[Draw] = [_reinforce, _stronghold, _move, _capital]
    if not country.conquer_ban:
        drawers.append(_conquer)
    rng.shuffle(drawers)
    for drawer in drawers:
        action = drawer(board, player, rng)
        if action is not None:
            return action
    return None


def _reinforce(board: Board, player: str, rng: random.Random) -> Action | None:
    stack, lands = board.countries[player].stack, board.lands_of(player)
    if stack <= 0 or not lands:
        return None
    return Reinforce(_text(board, rng.choice(lands)), rng.randint(1, max(1, stack // 2)))


def _conquer(board: Board, player: str, rng: random.Random) -> Action | None:
    options = [
        (origin, target)
        for origin in board.lands_of(player)
        if board.units(origin) >= MIN_ATTACKERS and not board.is_stronghold(origin)
        for target in board.map.neighbours(origin)
        if board.owner(target) != player
    ]
    if not options:
        return None
    origin, target = rng.choice(options)
    units = rng.randint(1, board.units(origin) - 1)
    return Conquer(_text(board, origin), _text(board, target), units=units)


def _stronghold(board: Board, player: str, rng: random.Random) -> Action | None:
    """Only builds: a random plan that pulled strongholds down again would just waste actions."""
    options = [
        key for key in board.lands_of(player) if not board.is_stronghold(key) and not board.is_innerland(key)
    ]
    return Strongholding(_text(board, rng.choice(options)), True) if options else None


def _move(board: Board, player: str, rng: random.Random) -> Action | None:
    options = [
        (origin, target)
        for origin in board.lands_of(player)
        if board.units(origin) >= 2
        for target in board.map.neighbours(origin)
        if board.owner(target) == player
    ]
    if not options:
        return None
    origin, target = rng.choice(options)
    return Move((Leg(_text(board, origin), _text(board, target), rng.randint(1, board.units(origin) - 1)),))


def _capital(board: Board, player: str, rng: random.Random) -> Action | None:
    country, lands = board.countries[player], board.lands_of(player)
    if len(lands) < CAPITAL_MIN_LANDS or (country.capital is not None and not country.declaration_due):
        return None
    return Capitalshift(_text(board, rng.choice([k for k in lands if k != country.capital])))
