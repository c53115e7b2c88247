"""One step of Talossan RISK, as the seed orders it (II.6, VI.9, I.17, I.25).

Action 1 of every plan resolves in submission order, then action 2, … to action 10. Then the
forced capital declarations are called, the winner (if any) is declared, and every country's Force
Stack gets the new units for the next step.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from engine.core import Event, fold
from engine.talossa._actions import Action
from engine.talossa._events import (
    ActionFailed,
    CapitalDeclarationDue,
    ForceProduced,
    GameWon,
    PlanPublished,
    StepBegun,
    UnitsMoved,
)
from engine.talossa._plan import Battle, PlanRun, resolve_action, sure_win
from engine.talossa._state import (
    CAPITAL_MIN_LANDS,
    FORCED_COOLDOWN,
    FORCED_STEP,
    MAX_ACTIONS,
    Board,
    TalossaState,
)


def resolution_order(state: TalossaState, players: Sequence[str]) -> list[str]:
    """Plans in the order they were submitted; drawn plans (nobody wrote) after them, in the order
    the conquerors joined."""
    joined = [c.player for c in state.countries]
    written = [p for p in state.submitted if p in players]
    return written + [p for p in joined if p in players and p not in written]


def resolve_step(
    state: TalossaState, plans: Mapping[str, list[Action]], drawn: frozenset[str], battle: Battle
) -> tuple[TalossaState, list[Event]]:
    board = Board(state)
    order = resolution_order(state, list(plans))
    events: list[Event] = [
        PlanPublished(
            player=p,
            country=board.countries[p].name,
            leader=board.countries[p].leader,
            position=i,
            actions=tuple(str(a) for a in plans[p]),
            drawn=p in drawn,
        )
        for i, p in enumerate(order, start=1)
    ]
    events += run_actions(board, [(p, plans[p]) for p in order], battle)
    marks = tuple(board.marks)  # for the map: what this step conquered and fought
    events += _forced_declarations(board)
    winner = _winner(board)
    if winner is not None:
        country = board.countries[winner]
        lands = len(board.lands_of(winner))
        events.append(GameWon(player=winner, country=country.name, leader=country.leader, lands=lands))
        return board.state(state, winner=winner, finished=True, submitted=(), marks=marks), events
    if not any(not c.fallen for c in board.countries.values()):
        return board.state(state, finished=True, submitted=(), marks=marks), events
    events += produce_forces(board)
    events.append(StepBegun(step=state.step + 1))
    return board.state(state, step=state.step + 1, submitted=(), marks=marks), events


def run_actions(board: Board, plans: Sequence[tuple[str, list[Action]]], battle: Battle) -> list[Event]:
    names = {fold(spelling): key for spelling, key in board.spellings().items()}
    runs = [PlanRun(player, actions, names) for player, actions in plans]
    events: list[Event] = []
    for index in range(MAX_ACTIONS):
        for run in runs:
            if index < len(run.actions):
                events += resolve_action(board, run, index, battle)
    return events


def dry_run(state: TalossaState, player: str, actions: list[Action]) -> list[str]:
    """The receipt's warnings: actions, and legs of a Move, that fail even if this plan ran alone
    and won every battle."""
    warnings: list[str] = []
    for event in run_actions(Board(state), [(player, actions)], sure_win):
        if isinstance(event, ActionFailed):
            warnings.append(
                f"Action {event.number} ({event.action}) cannot succeed as written: {event.reason}."
            )
        elif isinstance(event, UnitsMoved):
            action = actions[event.number - 1]
            warnings += [
                f"Action {event.number} ({action}), leg {f.number} ({f.leg}) cannot succeed as written: "
                f"{f.reason}; the other legs move."
                for f in event.failed
            ]
    return warnings


def produce_forces(board: Board) -> list[Event]:
    """I.17: max(12, 3 × borderlands) new units into each living country's Force Stack."""
    events: list[Event] = []
    for player, country in board.countries.items():
        if country.fallen:
            continue
        units = board.force_due(player)
        board.set_country(player, stack=country.stack + units)
        borderlands = len(board.borderlands(player))
        events.append(
            ForceProduced(
                country=country.name, units=units, borderlands=borderlands, stack=country.stack + units
            )
        )
    return events


def _forced_declarations(board: Board) -> list[Event]:
    """VI.9: ten lands and no capital at the end of a step → declare next step, then withdraw from
    conquering for 10 actions; failing that, 15, and so on."""
    events: list[Event] = []
    for player, country in board.countries.items():
        lands = len(board.lands_of(player))
        if country.fallen or country.capital is not None or lands < CAPITAL_MIN_LANDS:
            continue
        due = country.declaration_due + FORCED_STEP if country.declaration_due else FORCED_COOLDOWN
        board.set_country(player, declaration_due=due)
        events.append(
            CapitalDeclarationDue(player=player, country=country.name, lands=lands, withdrawals=due)
        )
    return events


def _winner(board: Board) -> str | None:
    """I.25: every land is either the conqueror's or free."""
    owners = {h.owner for h in board.holdings.values() if h.owner is not None}
    return owners.pop() if len(owners) == 1 else None


def start_step(state: TalossaState) -> tuple[TalossaState, list[Event]]:
    """The very first Force Stacks, once every starting country is placed."""
    board = Board(state)
    events = produce_forces(board)
    return dataclasses.replace(board.state(state)), events
