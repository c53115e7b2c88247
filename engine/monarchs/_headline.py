"""The top of a Monarchs player's mail (issue 30): a monarch's own result of the turn in one line
(their nation's score, hexes taken and lost), and what the open phase asks. It reads only the
events the monarch may see; a courtier gets no line (what they may know is their monarch's)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.core import Event
from engine.monarchs._events import CarrierReported, HexBattleFought, HexLost, HexTaken, TurnScored

if TYPE_CHECKING:
    from engine.monarchs._state import MonarchsState

__all__ = ["asked", "headline"]


def headline(state: MonarchsState, events: Sequence[Event], viewer: str) -> str | None:
    """ "Red scored 7 this turn (total 21): 2 hexes taken, 1 lost". A court's monarch, who sees no
    map, is told only what its carrier did (the map's events go to the courtier holding it)."""
    nation = state.nation_of(viewer)
    if nation is None:
        return None
    scored = next((e for e in events if isinstance(e, TurnScored) and e.nation == nation), None)
    if scored is None:
        return _carrier(events, nation)
    battles = [e for e in events if isinstance(e, HexBattleFought)]
    taken = {e.hex for e in events if isinstance(e, HexTaken) and e.nation == nation}
    taken |= {e.hex for e in battles if e.winner == nation and e.owner != nation}
    lost = {e.hex for e in events if isinstance(e, HexTaken) and e.previous == nation}
    lost |= {e.hex for e in events if isinstance(e, HexLost) and e.nation == nation}
    lost |= {e.hex for e in battles if e.owner == nation and e.winner != nation}
    hexes = f"{_count(len(taken), 'hex', 'hexes')} taken, {len(lost - taken)} lost"
    return f"{nation.title()} scored {scored.points} this turn (total {scored.total}): {hexes}"


def _carrier(events: Sequence[Event], nation: str) -> str | None:
    """A court's monarch's own result: whether its carrier delivered (never what happened)."""
    report = next((e for e in events if isinstance(e, CarrierReported) and e.nation == nation), None)
    if report is None:
        return None
    if not report.carrier:
        return f"You named no carrier for turn {report.turn}: {nation.title()} gave no orders"
    did = f"delivered {nation.title()}'s orders" if report.delivered else "delivered no orders"
    return f"Your carrier {report.carrier} {did} for turn {report.turn}"


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def asked(state: MonarchsState, player: str) -> str | None:
    """ "Orders for Turn 3 of 12"; in court mode "Orders and a carrier for Turn 3 of 12", a carrier's
    "Deliver the orders you carry", the monarchs' guesses at the end."""
    if state.finished:
        return None
    court, turn = state.court, f"Turn {state.turn} of {state.turns}"
    if court is not None and court.pending:
        return "Your guesses: whom each courtier served" if player in state.monarchs else None
    if player in state.monarchs:
        return f"Orders and a carrier for {turn}" if court is not None else f"Orders for {turn}"
    if court is not None and player in court.carrier.values():
        return f"Deliver the orders you carry for {turn}"
    return None
