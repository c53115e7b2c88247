"""What happened to each order, as data: a success flag and, for a failure, the reason as a small
frozen record (``Bounced(by=("bur",))``), never a sentence; templates turn reasons into words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from engine.diplomacy._orders import Order, Unit
from engine.diplomacy._position import DislodgedUnit, Position


@dataclass(frozen=True, slots=True)
class Illegal:
    """The order breaks the rules; it is ignored (the unit holds). ``reason`` is a short code such
    as ``"not adjacent"``, ``"no such unit"``, ``"not a home centre"``."""

    reason: str


@dataclass(frozen=True, slots=True)
class Bounced:
    """Stopped by equal or greater strength from the units in these provinces (their origins)."""

    by: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Dislodged:
    by_from: str


@dataclass(frozen=True, slots=True)
class SupportCut:
    by_from: str


@dataclass(frozen=True, slots=True)
class NoConvoyRoute:
    """No unbroken chain of convoying fleets from the army's province to its destination."""


@dataclass(frozen=True, slots=True)
class ConvoyParadox:
    """The convoy was part of a paradox; by the Szykman rule the convoyed army holds."""


@dataclass(frozen=True, slots=True)
class Unmatched:
    """A support or convoy for a move (or hold) that the supported unit did not make."""


@dataclass(frozen=True, slots=True)
class NoneAllowed:
    """A build or disband beyond the number the power is due."""


@dataclass(frozen=True, slots=True)
class Duplicate:
    """A second order for a unit or place already ordered this phase."""


Reason = (
    Illegal
    | Bounced
    | Dislodged
    | SupportCut
    | NoConvoyRoute
    | ConvoyParadox
    | Unmatched
    | NoneAllowed
    | Duplicate
)


class OrderResult(NamedTuple):
    """What became of one order. A named tuple, not a dataclass: a movement phase makes one per
    order, and a tuple is made in C."""

    order: Order
    succeeded: bool
    reason: Reason | None = None

    @property
    def illegal(self) -> bool:
        return isinstance(self.reason, Illegal)


# Bounces recur (the same provinces stop the same moves), and a reason is a value: each is
# made once. A map has few enough provinces for the set of them to stay small; the bound is
# for safety's sake.
_BOUNCES: dict[tuple[str, ...], Bounced] = {}
_BOUNCES_KEPT = 4096


def bounced(by: tuple[str, ...]) -> Bounced:
    """``Bounced(by)``."""
    reason = _BOUNCES.get(by)
    if reason is None:
        if len(_BOUNCES) >= _BOUNCES_KEPT:
            _BOUNCES.clear()
        reason = _BOUNCES[by] = Bounced(by)
    return reason


@dataclass(frozen=True, slots=True)
class MovementResult:
    """``position`` is the board after the phase, already at the next phase that needs orders."""

    results: tuple[OrderResult, ...]
    units: tuple[Unit, ...]
    dislodged: tuple[DislodgedUnit, ...]
    contested: frozenset[str]
    position: Position


@dataclass(frozen=True, slots=True)
class RetreatResult:
    results: tuple[OrderResult, ...]
    retreated: tuple[Unit, ...]  # units at their new place
    disbanded: tuple[Unit, ...]
    position: Position


@dataclass(frozen=True, slots=True)
class AdjustmentResult:
    results: tuple[OrderResult, ...]
    built: tuple[Unit, ...]
    removed: tuple[Unit, ...]  # ordered disbands and civil-disorder removals
    position: Position
