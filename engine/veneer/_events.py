"""What happens in Veneer, as events. Targets, dealt factions and secret faction knowledge go only
to their owner (``audience``); everything else is public, the action cards in front of each player
included. ``OPEN_RESULTS`` go to every living player's mail, whoever must act next."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Event


@dataclass(frozen=True, kw_only=True)
class TargetsDealt(Event):
    player: str
    targets: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class FactionChosen(Event):
    player: str
    faction: str
    text: str


@dataclass(frozen=True, kw_only=True)
class SecretLearned(Event):
    player: str
    secret: str


@dataclass(frozen=True, kw_only=True)
class TurnBegan(Event):
    turn: int
    player: str


@dataclass(frozen=True, kw_only=True)
class IncomeCollected(Event):
    player: str
    coins: int
    allies: tuple[str, ...]  # each gained one coin too


@dataclass(frozen=True, kw_only=True)
class CardFlipped(Event):
    player: str
    card: str
    kind: str
    text: str


@dataclass(frozen=True, kw_only=True)
class ActionDrawn(Event):
    """The flipped card was an action: placed face up in front of the active player (public)."""

    player: str
    card: str
    text: str


@dataclass(frozen=True, kw_only=True)
class DeckReshuffled(Event):
    cards: int


@dataclass(frozen=True, kw_only=True)
class BallotCounted(Event):
    """``yes_voters``/``no_voters`` are empty under a secret ballot: only the tally is told."""

    card: str
    passed: bool
    yes: int
    no: int
    secret: bool
    yes_voters: tuple[str, ...] = ()
    no_voters: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class LawEnacted(Event):
    law: str
    text: str


@dataclass(frozen=True, kw_only=True)
class LawRepealed(Event):
    law: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class MotionCarried(Event):
    motion: str
    text: str


@dataclass(frozen=True, kw_only=True)
class CardPlayed(Event):
    player: str
    card: str
    target: str | None
    text: str


@dataclass(frozen=True, kw_only=True)
class CoinsChanged(Event):
    player: str
    change: int
    coins: int  # after the change
    reason: str


@dataclass(frozen=True, kw_only=True)
class TroopsChanged(Event):
    player: str
    attackers: int  # change, + or −
    defenders: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class TroopsBought(Event):
    player: str
    count: int
    side: str  # attackers | defenders
    cost: int


@dataclass(frozen=True, kw_only=True)
class TroopsReassigned(Event):
    player: str
    count: int
    side: str  # what they became


@dataclass(frozen=True, kw_only=True)
class AttackDeclared(Event):
    attacker: str
    target: str
    attackers: int
    forced: bool = False


@dataclass(frozen=True, kw_only=True)
class AttackVetoed(Event):
    attacker: str
    target: str
    vetoers: tuple[str, ...]
    price: int


@dataclass(frozen=True, kw_only=True)
class DefendersLent(Event):
    lender: str
    receiver: str
    count: int


@dataclass(frozen=True, kw_only=True)
class AttackResolved(Event):
    attacker: str
    target: str
    attackers: int
    interceptors: int
    attackers_lost: int
    defenders_lost: int
    survivors: int
    coins_destroyed: int
    ally: bool  # attacked an ally: its defenders were ignored


@dataclass(frozen=True, kw_only=True)
class TroopsReturned(Event):
    debtor: str
    lender: str
    count: int
    lent: int


@dataclass(frozen=True, kw_only=True)
class AllianceOffered(Event):
    sender: str
    receiver: str


@dataclass(frozen=True, kw_only=True)
class AllianceFormed(Event):
    first: str
    second: str


@dataclass(frozen=True, kw_only=True)
class AllianceBroken(Event):
    first: str
    second: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class PlayerEliminated(Event):
    player: str


@dataclass(frozen=True, kw_only=True)
class OrderRefused(Event):
    player: str
    order: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class GameWon(Event):
    winners: tuple[str, ...]
    reason: str


EVENT_TYPES: tuple[type[Event], ...] = (
    TargetsDealt,
    FactionChosen,
    SecretLearned,
    TurnBegan,
    IncomeCollected,
    CardFlipped,
    ActionDrawn,
    DeckReshuffled,
    BallotCounted,
    LawEnacted,
    LawRepealed,
    MotionCarried,
    CardPlayed,
    CoinsChanged,
    TroopsChanged,
    TroopsBought,
    TroopsReassigned,
    AttackDeclared,
    AttackVetoed,
    DefendersLent,
    AttackResolved,
    TroopsReturned,
    AllianceOffered,
    AllianceFormed,
    AllianceBroken,
    PlayerEliminated,
    OrderRefused,
    GameWon,
)

# Told to every living player in the phase's mail and listed on History (rulings 2026-11-24): the
# flipped card, every vote, every attack and its outcome; and the public cards as they are played.
OPEN_RESULTS: tuple[type[Event], ...] = (
    CardFlipped,
    ActionDrawn,
    CardPlayed,
    BallotCounted,
    AttackDeclared,
    AttackVetoed,
    AttackResolved,
)
