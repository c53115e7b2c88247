"""The top of a Truce player's mail (issue 30): their own result of the round in one line, and
what the open round asks. Everything it reads is public in Truce (actions, Supplies)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Event
from engine.truce._state import STARTING_SUPPLY, Result, TruceState

__all__ = ["asked", "headline"]


def headline(state: TruceState, events: Sequence[Event], viewer: str) -> str | None:
    """ "Your attack on Agatha succeeded: supply 6 (+1)"."""
    if viewer not in state.names or not state.supplies:
        return None
    mine = next((r for r in state.last if r.player == viewer), None)
    index = state.names.index(viewer)
    supply = state.supplies[-1][index]
    before = state.supplies[-2][index] if len(state.supplies) > 1 else STARTING_SUPPLY
    spoils = state.player(viewer).spoils
    kept = f", spoils {spoils}" if spoils else ""
    said = _action(mine) if mine is not None else "You had no action"
    change = f"{supply - before:+d}" if supply != before else "unchanged"
    return f"{said}: supply {supply} ({change}){kept}"


def _action(result: Result) -> str:
    if not result.valid:
        return "Your action counted as a pass"
    match result.action:
        case "attack":
            return f"Your attack on {result.target} {'succeeded' if result.succeeded else 'failed'}"
        case "support":
            return f"You supported {result.target}"
        case "defend":
            return "You defended"
        case "loot":
            return "You looted the Stash"
    return "You passed"


def asked(state: TruceState, player: str) -> str | None:
    """ "Your action for Round 4 of 10"."""
    if state.finished or player not in state.names:
        return None
    return f"Your action for Round {state.round} of {state.rounds}"
