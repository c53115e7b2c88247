"""What happens in a turn, as events. Fog of war: anything carrying regiment counts is addressed to
the players who may see it (a nation's monarch, or in court mode the courtier holding its map); only
the turn's passing, who delivered orders, and the end of the game are public."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from engine.core import Event

__all__ = [
    "BorderBattleFought",
    "CarrierReported",
    "GameEnded",
    "GuessesMade",
    "HexBattleFought",
    "HexLost",
    "HexTaken",
    "LastOrdersTaken",
    "LoyaltyDealt",
    "LoyaltyRevealed",
    "MapShown",
    "MonarchScored",
    "OrdersHanded",
    "TurnResolved",
    "TurnScored",
]


@dataclass(frozen=True, kw_only=True)
class TurnResolved(Event):
    turn: int
    turns: int
    # Nations whose orders came; ``None`` in court mode, where only each monarch learns (privately,
    # CarrierReported) whether its carrier delivered.
    delivered: tuple[str, ...] | None


@dataclass(frozen=True, kw_only=True)
class BorderBattleFought(Event):
    winner: str
    loser: str
    origin: str  # the winner's hex; it crossed into ``target``, the loser's
    target: str
    regiments: Mapping[str, int] = field(default_factory=dict)
    strengths: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class HexBattleFought(Event):
    hex: str
    winner: str
    regiments: Mapping[str, int] = field(default_factory=dict)
    strengths: Mapping[str, float] = field(default_factory=dict)
    retreats: tuple[str, ...] = ()  # "red: 1 to D4", "red: 1 surrounded and lost"
    owner: str | None = None  # the hex's owner at the start of the turn: a winner not it took the hex


@dataclass(frozen=True, kw_only=True)
class HexTaken(Event):
    hex: str
    nation: str
    previous: str | None


@dataclass(frozen=True, kw_only=True)
class HexLost(Event):
    """A hex lost in a battle between other nations, told to its owner's map (it fought no part of
    it, so the battle's strengths stay with those who did)."""

    hex: str
    nation: str  # the owner at the start of the turn
    winner: str
    fought: tuple[str, ...]  # the nations that fought there


@dataclass(frozen=True, kw_only=True)
class MapShown(Event):
    """A nation's fogged map after the turn: visible hexes as (hex, owner, regiments). ``final``:
    at the end, public, the hexes ``nation`` holds ("" for those nobody holds)."""

    nation: str
    turn: int
    hexes: tuple[tuple[str, str | None, int], ...]
    final: bool = False


@dataclass(frozen=True, kw_only=True)
class TurnScored(Event):
    nation: str
    turn: int
    hexes: int
    defeated: int
    lost: int
    points: int
    doubled: bool
    total: int


@dataclass(frozen=True, kw_only=True)
class CarrierReported(Event):
    """After a turn, told only to the nation's monarch: whether its carrier delivered (never what).
    ``carrier`` is empty when the monarch named none. ``retold``: the same line in the third
    person, as the organiser's report tells it (``Monarchs.organiser_events``)."""

    nation: str
    turn: int
    carrier: str
    delivered: bool
    retold: bool = False


@dataclass(frozen=True, kw_only=True)
class OrdersHanded(Event):
    """On receipt of a monarch's mail, told only to this turn's carrier: the orders its monarch
    handed it through Courier (they count only if the carrier delivers them). Told at once: the
    carrier must deliver before the deadline."""

    urgent: ClassVar[bool] = True
    nation: str
    turn: int
    carrier: str
    orders: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class LoyaltyDealt(Event):
    """At the start, each courtier learns its own loyalty (told only to that courtier)."""

    courtier: str
    serves: str
    loyal_to: str


@dataclass(frozen=True, kw_only=True)
class GuessesMade(Event):
    nation: str
    guesses: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class LoyaltyRevealed(Event):
    courtier: str
    serves: str
    loyal_to: str
    score: int
    halved: bool


@dataclass(frozen=True, kw_only=True)
class LastOrdersTaken(Event):
    """Court mode, public: the last turn's orders are in; its outcome waits for the guesses."""

    turn: int
    turns: int


@dataclass(frozen=True, kw_only=True)
class MonarchScored(Event):
    """Court mode, at the end: a monarch's score, its nation's plus 5 per traitor named with the
    nation it truly serves (``right``)."""

    nation: str
    nation_score: int
    right: tuple[str, ...]
    score: int


@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    scores: Mapping[str, int] = field(default_factory=dict)
    winners: tuple[str, ...] = ()
    reason: str = ""
