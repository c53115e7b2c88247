"""The top of a Talossan RISK player's mail (issue 30): their country's own result of the step in
one line (lands won and lost, units), and what the open step asks. Talossa's board is public."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Event
from engine.talossa._events import BattleFought, FreeLandConquered, LandCaptured
from engine.talossa._state import Board, TalossaState

__all__ = ["asked", "headline"]


def headline(state: TalossaState, events: Sequence[Event], viewer: str) -> str | None:
    """ "You hold 7 lands (3 won, 1 lost) with 12 units, 2 in your Force Stack; 2 of 3 attacks won"."""
    country = next((c for c in state.countries if c.player == viewer), None)
    if country is None:
        return None
    if country.fallen:
        return f"{country.name} has fallen"
    name, board = country.name, Board(state)
    lands = board.lands_of(viewer)
    won = sum(1 for e in events if isinstance(e, LandCaptured | FreeLandConquered) and e.country == name)
    lost = sum(1 for e in events if isinstance(e, LandCaptured) and e.defender == name)
    units = sum(board.units(k) for k in lands)
    said = f"You hold {_count(len(lands), 'land')} ({won} won, {lost} lost) with {_count(units, 'unit')}"
    said += f", {country.stack} in your Force Stack"
    attacks = [e.won for e in events if isinstance(e, BattleFought) and e.country == name]
    if attacks:
        said += f"; {sum(attacks)} of {_count(len(attacks), 'attack')} won"
    return said


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def asked(state: TalossaState, player: str) -> str | None:
    """ "Action plan for step 3" (or the capital a fallen capital's country must declare)."""
    if state.finished or player not in state.alive:
        return None
    country = state.country(player)
    if country.declaration_due:
        return f"Declare a capital and your plan for step {state.step}"
    return f"Action plan for step {state.step}"
