"""What happens in Truce, as events. All are public (actions and Supplies are public knowledge)
except a failed gift, which only its giver hears about."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Event

__all__ = [
    "EVENT_TYPES",
    "ActionRevealed",
    "AttackFailed",
    "AttackSucceeded",
    "CoinsRemoved",
    "CoinsTaken",
    "GameEnded",
    "GiftFailed",
    "GiftGiven",
    "RoundOpened",
    "SpoilsBanked",
    "StashLooted",
    "SupportCounted",
    "SupportLost",
]


@dataclass(frozen=True, kw_only=True)
class GiftGiven(Event):
    giver: str
    receiver: str
    coins: int


@dataclass(frozen=True, kw_only=True)
class GiftFailed(Event):
    giver: str
    receiver: str
    coins: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class ActionRevealed(Event):
    """``action`` is what the player chose; when ``valid`` is false it counted as a Pass."""

    player: str
    action: str
    target: str | None
    valid: bool
    reason: str | None


@dataclass(frozen=True, kw_only=True)
class SupportCounted(Event):
    player: str
    supporters: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class SupportLost(Event):
    """Support that ran into a loop: nobody in the loop nor feeding into it counts."""

    supporters: tuple[str, ...]
    loop: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class StashLooted(Event):
    looters: tuple[str, ...]
    stash: int
    each: int


@dataclass(frozen=True, kw_only=True)
class AttackSucceeded(Event):
    attacker: str
    target: str
    attack: int
    defense: int
    automatic: bool  # the target looted


@dataclass(frozen=True, kw_only=True)
class AttackFailed(Event):
    attacker: str
    target: str
    attack: int
    defense: int


@dataclass(frozen=True, kw_only=True)
class CoinsTaken(Event):
    attacker: str
    target: str
    from_supply: int
    from_spoils: int


@dataclass(frozen=True, kw_only=True)
class CoinsRemoved(Event):
    coins: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class SpoilsBanked(Event):
    player: str
    coins: int
    supply: int


@dataclass(frozen=True, kw_only=True)
class RoundOpened(Event):
    round: int
    rounds: int
    stash: int


@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    winners: tuple[str, ...]
    reason: str


EVENT_TYPES: tuple[type[Event], ...] = (
    GiftGiven,
    GiftFailed,
    ActionRevealed,
    SupportCounted,
    SupportLost,
    StashLooted,
    AttackSucceeded,
    AttackFailed,
    CoinsTaken,
    CoinsRemoved,
    SpoilsBanked,
    RoundOpened,
    GameEnded,
)
