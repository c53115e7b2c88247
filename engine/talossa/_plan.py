"""Resolving one action of one plan against the board (seed, III–V; rulings "Talossan RISK").

Each action kind is one short function that either changes the board and returns its events, or
raises ``Failed`` with the reason the player reads. ``PlanRun`` remembers what a plan's earlier
actions did, so an action depending on a failed one is skipped (V.1) and names given by ``[Name]``
find the land their Conquer took.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.core import Event, fold
from engine.talossa._actions import (
    DIRECTIONS,
    Action,
    Capitalshift,
    Conquer,
    Leg,
    Move,
    Reinforce,
    Strongholding,
)
from engine.talossa._events import (
    ActionFailed,
    BattleFought,
    CapitalDeclared,
    CountryFell,
    FreeLandConquered,
    LandCaptured,
    LandNamed,
    LegFailed,
    Reinforced,
    StrongholdChanged,
    StrongholdLost,
    Throw,
    UnitsMoved,
)
from engine.talossa._state import CAPITAL_MIN_LANDS, CAPITALSHIFT_COOLDOWN, Board, Mark

MIN_ATTACKERS = 3  # IV.2
STRONGHOLD_BONUS = 2  # IV.4, per die
MAX_BEARING_GAP = 90.0  # "(north)" picks no land lying due east or west, nor south

Battle = Callable[[int, int, int], tuple[Throw, ...]]  # attackers, defenders, bonus → throws


class Failed(Exception):
    def __init__(self, reason: str, *, skipped: bool = False) -> None:
        super().__init__(reason)
        self.reason, self.skipped = reason, skipped


def dice(rng: random.Random) -> Battle:
    """The seed's battle: a d6 per unit on each side, the defender's +2 per die on a stronghold;
    a tie is thrown again."""

    def fight(attackers: int, defenders: int, bonus: int) -> tuple[Throw, ...]:
        throws: list[Throw] = []
        while not throws or throws[-1].attack == throws[-1].defence:
            attack = tuple(rng.randint(1, 6) for _ in range(attackers))
            defence = tuple(rng.randint(1, 6) for _ in range(defenders))
            total = sum(defence) + bonus * defenders
            throws.append(
                Throw(attacker=attack, defender=defence, bonus=bonus, attack=sum(attack), defence=total)
            )
        return tuple(throws)

    return fight


def sure_win(attackers: int, defenders: int, bonus: int) -> tuple[Throw, ...]:
    """For a receipt's dry run: assume every battle is won, to find what fails regardless."""
    return (Throw(attacker=(), defender=(), bonus=bonus, attack=1, defence=0),)


@dataclass
class PlanRun:
    player: str
    actions: list[Action]
    start_names: dict[str, str]  # folded spelling at the start of the step → land key
    results: dict[int, bool] = field(default_factory=dict)
    taken: dict[int, str] = field(default_factory=dict)  # Conquer's index → the land it took

    def land(self, text: str, *, attempt: bool = False) -> str:
        """The land a plan's text means; ``Failed(skipped)`` when the latest earlier Conquer of this
        plan that was to take it failed (rulings: V.1 skips what depends on a failure). With
        ``attempt`` (the target of a new Conquer) a failed earlier try is no dependency: any number
        of each action is allowed (III.3), so the plan tries again."""
        for index in sorted(self.results, reverse=True):  # the latest attempt on a land decides
            action = self.actions[index]
            if not isinstance(action, Conquer):
                continue
            named = bool(action.name) and fold(action.name or "") == fold(text)
            if not (named or action.target == text):
                continue
            if self.results[index]:
                return self.taken[index] if named else self.start_names[fold(text)]
            if attempt and not named:
                break
            raise Failed(f"it depends on action {index + 1}, which failed", skipped=True)
        return self.start_names[fold(text)]


def resolve_action(board: Board, run: PlanRun, index: int, battle: Battle) -> list[Event]:
    """Action ``index`` of ``run``'s plan; a fallen country's remaining actions are dropped."""
    country = board.countries[run.player]
    if country.fallen:
        return []
    action = run.actions[index]
    ban = country.conquer_ban
    try:
        if isinstance(action, Conquer) and ban > 0:
            raise Failed(f"{country.name} withdrew from conquering after a capitalshift ({ban} more actions)")
        events = _RESOLVERS[type(action)](board, run, index, action, battle)
        run.results[index] = True
    except _Lost as lost:
        run.results[index] = False
        events = lost.events
    except Failed as failure:
        run.results[index] = False
        events = [
            ActionFailed(
                player=run.player,
                country=country.name,
                number=index + 1,
                action=str(action),
                reason=failure.reason,
                skipped=failure.skipped,
            )
        ]
    if not (isinstance(action, Capitalshift) and run.results[index]):
        board.set_country(run.player, conquer_ban=max(0, ban - 1))
    events += [
        StrongholdLost(land=board.label(k), reason="it became an innerland") for k in board.lost_strongholds()
    ]
    return events


def _own(board: Board, run: PlanRun, text: str) -> str:
    key = run.land(text)
    if board.owner(key) != run.player:
        raise Failed(f"{board.label(key)} is not {board.countries[run.player].name}'s")
    return key


def _reinforce(board: Board, run: PlanRun, index: int, action: Reinforce, battle: Battle) -> list[Event]:
    key = _own(board, run, action.land)
    country = board.countries[run.player]
    units = min(action.units, country.stack)  # V.2: what the stack holds, no more
    bonus_due = run.player not in board.reinforced and country.capital is not None
    if units <= 0 and not bonus_due:
        raise Failed(f"{country.name}'s Force Stack is empty")
    board.add_units(key, units)
    bonus: list[str] = []
    if bonus_due and country.capital is not None:
        bonus = [country.capital] + [
            n for n in board.map.neighbours(country.capital) if board.owner(n) == run.player
        ]
        for land in bonus:
            board.add_units(land, 1)
    board.reinforced.add(run.player)
    board.set_country(run.player, stack=country.stack - units)
    return [
        Reinforced(
            country=country.name,
            number=index + 1,
            land=board.label(key),
            units=units,
            asked=action.units,
            stack=country.stack - units,
            bonus=tuple(board.label(k) for k in bonus),
        )
    ]


def _conquer(board: Board, run: PlanRun, index: int, action: Conquer, battle: Battle) -> list[Event]:
    origin = _own(board, run, action.origin)
    name = board.countries[run.player].name
    if board.is_stronghold(origin):
        raise Failed(f"{board.label(origin)} is a stronghold, and strongholds cannot attack")
    if board.units(origin) < MIN_ATTACKERS:
        raise Failed(
            f"{board.label(origin)} has {_units(board.units(origin))}; conquering takes {MIN_ATTACKERS}"
        )
    target = _target(board, run, origin, action)
    moved = max(1, min(action.units or 1, board.units(origin) - 1))
    defender = board.owner(target)
    if defender is None:
        board.set_land(target, owner=run.player, units=moved, stronghold=False)
        board.add_units(origin, -moved)
        board.marks.append(Mark(target, origin, run.player, "conquered"))
        events: list[Event] = [
            FreeLandConquered(
                country=name,
                number=index + 1,
                origin=board.label(origin),
                land=board.label(target),
                units=moved,
            )
        ]
    else:
        events = _battle(board, run, index, origin, target, moved, battle)
        if board.owner(target) != run.player:
            raise _Lost(events)
    run.taken[index] = target
    if action.name and not board.name_taken(action.name):
        board.set_land(target, given_name=action.name)
        events.append(LandNamed(country=name, land=board.map.land(target).name, given=action.name))
    return events


class _Lost(Failed):
    """A battle lost: the action failed, but its dice are still news."""

    def __init__(self, events: list[Event]) -> None:
        super().__init__("the battle was lost")
        self.events = events


def _target(board: Board, run: PlanRun, origin: str, action: Conquer) -> str:
    if action.direction is not None:
        return _free_towards(board, origin, action.direction)
    assert action.target is not None
    target = run.land(action.target, attempt=True)
    if not board.map.adjacent(origin, target):
        raise Failed(f"{board.label(target)} does not border {board.label(origin)}")
    if board.owner(target) == run.player:
        raise Failed(f"{board.label(target)} is already {board.countries[run.player].name}'s")
    return target


def _free_towards(board: Board, origin: str, direction: str) -> str:
    """The free neighbour closest to the compass bearing (rulings), less than a right angle off."""
    wanted = DIRECTIONS[direction]
    gaps = []
    for land in board.map.neighbours(origin):
        if board.owner(land) is None:
            gap = abs((board.map.bearing(origin, land) - wanted + 180) % 360 - 180)
            if gap < MAX_BEARING_GAP:
                gaps.append((gap, land))
    if not gaps:
        raise Failed(f"no free land lies {direction} of {board.label(origin)}")
    return min(gaps)[1]


def _battle(
    board: Board, run: PlanRun, index: int, origin: str, target: str, moved: int, battle: Battle
) -> list[Event]:
    defender = board.owner(target)
    assert defender is not None
    attacker_name, defender_name = board.countries[run.player].name, board.countries[defender].name
    bonus = STRONGHOLD_BONUS if board.is_stronghold(target) else 0
    throws = battle(board.units(origin), board.units(target), bonus)
    won = throws[-1].attack > throws[-1].defence
    board.marks.append(Mark(target, origin, run.player, "captured" if won else "held"))
    events: list[Event] = [
        BattleFought(
            country=attacker_name,
            number=index + 1,
            origin=board.label(origin),
            land=board.label(target),
            defender=defender_name,
            throws=throws,
            won=won,
        )
    ]
    if not won:
        return events
    captured, was_capital = board.units(target) // 2, board.is_capital(target)
    stronghold = board.holdings[target].stronghold or was_capital
    board.set_land(target, owner=run.player, units=captured + moved, stronghold=False)
    board.add_units(origin, -moved)
    if was_capital:
        board.set_country(defender, capital=None)
    events.append(
        LandCaptured(
            country=attacker_name,
            land=board.label(target),
            defender=defender_name,
            captured=captured,
            moved=moved,
            stronghold_lost=stronghold,
        )
    )
    if was_capital or not board.lands_of(defender):
        reason = f"its capital {board.label(target)} fell" if was_capital else "it lost its last land"
        events.append(fall(board, defender, reason))
    return events


def fall(board: Board, player: str, reason: str) -> CountryFell:
    """The country is lost (I.8): its lands become free."""
    freed = board.lands_of(player)
    for land in freed:
        board.free(land)
    board.set_country(player, fallen=True, capital=None, conquer_ban=0, declaration_due=0, stack=0)
    country = board.countries[player]
    return CountryFell(
        player=player,
        country=country.name,
        leader=country.leader,
        reason=reason,
        freed=tuple(board.label(k) for k in freed),
    )


def _stronghold(board: Board, run: PlanRun, index: int, action: Strongholding, battle: Battle) -> list[Event]:
    key = _own(board, run, action.land)
    label = board.label(key)
    if board.is_capital(key):
        raise Failed(f"{label} is the capital, which is always a stronghold")
    if action.build and board.holdings[key].stronghold:
        raise Failed(f"{label} is already a stronghold")
    if action.build and board.is_innerland(key):
        raise Failed(f"{label} is an innerland, and only borderlands can be strongholds")
    if not action.build and not board.holdings[key].stronghold:
        raise Failed(f"{label} is not a stronghold")
    board.set_land(key, stronghold=action.build)
    name = board.countries[run.player].name
    return [StrongholdChanged(country=name, number=index + 1, land=label, built=action.build)]


def _capitalshift(
    board: Board, run: PlanRun, index: int, action: Capitalshift, battle: Battle
) -> list[Event]:
    key = _own(board, run, action.land)
    country = board.countries[run.player]
    lands = len(board.lands_of(run.player))
    if lands < CAPITAL_MIN_LANDS:
        held = f"{lands} land{'s' if lands != 1 else ''}"
        raise Failed(f"{country.name} has {held}; a capital needs {CAPITAL_MIN_LANDS}")
    if country.capital == key:
        raise Failed(f"{board.label(key)} is already the capital")
    withdrawals = country.declaration_due or CAPITALSHIFT_COOLDOWN
    previous = board.label(country.capital) if country.capital else None
    board.set_country(run.player, capital=key, conquer_ban=withdrawals, declaration_due=0)
    return [
        CapitalDeclared(
            country=country.name,
            number=index + 1,
            land=board.label(key),
            previous=previous,
            withdrawals=withdrawals,
        )
    ]


def _move(board: Board, run: PlanRun, index: int, action: Move, battle: Battle) -> list[Event]:
    """Each unit moves at most once per Move action: units that arrived cannot leave again (I.22);
    every land keeps at least one unit, or it would become free. A leg that cannot move is told
    (which, why) and the others still move; if none can, the action fails."""
    start = {k: board.units(k) for k in board.lands_of(run.player)}
    left: dict[str, int] = {}
    done: list[str] = []
    failed: list[LegFailed] = []
    for number, leg in enumerate(action.legs, start=1):
        try:
            done.append(_leg(board, run, leg, start, left))
        except Failed as failure:
            if failure.skipped:
                raise
            failed.append(LegFailed(number=number, leg=str(leg), reason=failure.reason))
    if not done:
        if len(failed) == 1:
            raise Failed(failed[0].reason)
        raise Failed("; ".join(f"leg {f.number} ({f.leg}): {f.reason}" for f in failed))
    name = board.countries[run.player].name
    return [UnitsMoved(country=name, number=index + 1, legs=tuple(done), failed=tuple(failed))]


def _leg(board: Board, run: PlanRun, leg: Leg, start: dict[str, int], left: dict[str, int]) -> str:
    """Moves one leg's units; returns the leg as moved."""
    origin, target = _own(board, run, leg.origin), _own(board, run, leg.target)
    if not board.map.adjacent(origin, target):
        raise Failed(f"{board.label(target)} does not border {board.label(origin)}")
    free_to_go = min(start[origin] - left.get(origin, 0), board.units(origin) - 1)
    units = min(leg.units, free_to_go)
    if units <= 0:
        raise Failed(f"no unit of {board.label(origin)} can move")
    board.add_units(origin, -units)
    board.add_units(target, units)
    left[origin] = left.get(origin, 0) + units
    return f"{board.label(origin)} >> {board.label(target)}, {units}"


_RESOLVERS: dict[type, Callable[..., list[Event]]] = {
    Reinforce: _reinforce,
    Conquer: _conquer,
    Strongholding: _stronghold,
    Capitalshift: _capitalshift,
    Move: _move,
}


def _units(n: int) -> str:
    return f"{n} unit{'s' if n != 1 else ''}"
