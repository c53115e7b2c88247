"""One entry point for any phase: dispatch to the movement, retreat or adjustment adjudicator."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.diplomacy._adjustment import resolve_adjustments
from engine.diplomacy._movement import resolve_movement
from engine.diplomacy._orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, Support, Waive
from engine.diplomacy._position import Position
from engine.diplomacy._results import OrderResult
from engine.diplomacy._retreat import resolve_retreats
from engine.diplomacy._variant import Variant


@dataclass(frozen=True)
class PhaseOutcome:
    results: tuple[OrderResult, ...]
    position: Position  # at the next phase that needs orders


def resolve_phase(variant: Variant, position: Position, orders: Sequence[Order]) -> PhaseOutcome:
    """Orders that do not belong to the phase are ignored (the parser never makes them)."""
    kind = position.phase.kind
    seasons = variant.seasons
    if kind == "movement":
        moves = {o.unit: o for o in orders if isinstance(o, (Hold, Move, Support, Convoy))}
        m = resolve_movement(variant.map, position, moves, seasons=seasons)
        return PhaseOutcome(m.results, m.position)
    if kind == "retreat":
        retreats = {o.unit: o for o in orders if isinstance(o, (Retreat, Disband))}
        r = resolve_retreats(variant.map, position, retreats, seasons=seasons)
        return PhaseOutcome(r.results, r.position)
    adjustments = [o for o in orders if isinstance(o, (Build, Disband, Waive))]
    a = resolve_adjustments(variant.map, position, adjustments, seasons=seasons)
    return PhaseOutcome(a.results, a.position)
