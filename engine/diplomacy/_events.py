"""What a Diplomacy phase tells: every order's result, the centre count, the phase begun, the end.
Each order's failure reason stays a record in ``_results``; its event carries the reason's gloss."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.core import Event


@dataclass(frozen=True, kw_only=True)
class OrderResolved(Event):
    power: str
    order: str
    result: str  # succeeds | fails | illegal
    reason: str | None


@dataclass(frozen=True, kw_only=True)
class OrderDefaulted(Event):
    """What the rules did with a unit or a build nobody ordered (``engine.diplomacy._defaults``):
    a hold, a disband, a waived build. Reported, never part of ``courier resolve``'s results."""

    power: str
    order: str
    result: str  # succeeds | fails
    reason: str | None


@dataclass(frozen=True, kw_only=True)
class CentresCounted(Event):
    year: int
    centres: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class PhaseBegun(Event):
    label: str


@dataclass(frozen=True, kw_only=True)
class GameWon(Event):
    power: str
    centres: int


@dataclass(frozen=True, kw_only=True)
class DrawAgreed(Event):
    powers: tuple[str, ...]
