"""What happens in Talossan RISK, as public events (the seed publishes plans and resolutions).

Lands are named as players read them (``Wellington (Fiôvâ Heights)``); every battle carries all its
dice, throw by throw, so players can check the arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Event


@dataclass(frozen=True, kw_only=True)
class ConquerorJoined(Event):
    player: str
    country: str
    colour: str
    land: str
    asked: str | None  # the land asked for, when it was taken or unknown and another was drawn
    holder: str | None = None  # the country that held it (None: no land has that name)


@dataclass(frozen=True, kw_only=True)
class StartingLandAssigned(Event):
    """Told to the conqueror alone, in its welcome: where it starts, and why not where it asked."""

    player: str
    country: str
    colour: str
    land: str
    asked: str | None  # as in ``ConquerorJoined``
    holder: str | None
    colour_asked: str | None = None  # the colour asked for, when another was given
    colour_reason: str | None = None  # unknown (the map does not know it), free or taken (too like)
    colour_holder: str | None = None  # the country whose colour it was too like


@dataclass(frozen=True, kw_only=True)
class PlanPublished(Event):
    player: str
    country: str
    position: int  # 1 = resolves first in every round of actions
    actions: tuple[str, ...]
    drawn: bool  # no plan came: the actions were drawn at random
    leader: str = ""  # the seat's holder as named, when a substitute took it


@dataclass(frozen=True, kw_only=True)
class ActionFailed(Event):
    player: str
    country: str
    number: int
    action: str
    reason: str
    skipped: bool  # it depended on an earlier action of the plan that failed


@dataclass(frozen=True, kw_only=True)
class Reinforced(Event):
    country: str
    number: int
    land: str
    units: int
    asked: int
    stack: int  # left in the Force Stack
    bonus: tuple[str, ...]  # lands that got the capital's +1 (capital first)


@dataclass(frozen=True, kw_only=True)
class FreeLandConquered(Event):
    country: str
    number: int
    origin: str
    land: str
    units: int


@dataclass(frozen=True, kw_only=True)
class Throw:
    """One throw of a battle: a die per unit; the defender adds ``bonus`` per die on a stronghold."""

    attacker: tuple[int, ...]
    defender: tuple[int, ...]
    bonus: int
    attack: int
    defence: int


@dataclass(frozen=True, kw_only=True)
class BattleFought(Event):
    country: str
    number: int
    origin: str
    land: str
    defender: str  # the defending country
    throws: tuple[Throw, ...]  # more than one when ties were re-rolled
    won: bool


@dataclass(frozen=True, kw_only=True)
class LandCaptured(Event):
    country: str
    land: str
    defender: str
    captured: int  # the defenders left after halving, now the conqueror's
    moved: int  # units moved in from the attacking land
    stronghold_lost: bool


@dataclass(frozen=True, kw_only=True)
class LandNamed(Event):
    country: str
    land: str
    given: str  # the name the conqueror gave (``name`` is the event's own)


@dataclass(frozen=True, kw_only=True)
class StrongholdChanged(Event):
    country: str
    number: int
    land: str
    built: bool


@dataclass(frozen=True, kw_only=True)
class StrongholdLost(Event):
    land: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class LegFailed:
    """One leg of a Move that did not happen, while others did (rulings: which leg, why)."""

    number: int  # 1 = the first leg of the action
    leg: str  # as the plan wrote it
    reason: str


@dataclass(frozen=True, kw_only=True)
class UnitsMoved(Event):
    country: str
    number: int
    legs: tuple[str, ...]  # "Abbavilla >> Downer, 3" as moved (after any shortfall)
    failed: tuple[LegFailed, ...] = ()


@dataclass(frozen=True, kw_only=True)
class CapitalDeclared(Event):
    country: str
    number: int
    land: str
    previous: str | None
    withdrawals: int  # the next this many actions may not be Conquer


@dataclass(frozen=True, kw_only=True)
class CountryFell(Event):
    player: str
    country: str
    reason: str
    freed: tuple[str, ...]  # lands left free
    leader: str = ""  # the seat's holder as named, when a substitute took it


@dataclass(frozen=True, kw_only=True)
class CapitalDeclarationDue(Event):
    player: str
    country: str
    lands: int
    withdrawals: int


@dataclass(frozen=True, kw_only=True)
class ForceProduced(Event):
    country: str
    units: int
    borderlands: int
    stack: int


@dataclass(frozen=True, kw_only=True)
class StepBegun(Event):
    step: int


@dataclass(frozen=True, kw_only=True)
class GameWon(Event):
    player: str
    country: str
    lands: int
    leader: str = ""  # the seat's holder as named, when a substitute took it


EVENT_TYPES: tuple[type[Event], ...] = (
    ConquerorJoined,
    StartingLandAssigned,
    PlanPublished,
    ActionFailed,
    Reinforced,
    FreeLandConquered,
    BattleFought,
    LandCaptured,
    LandNamed,
    StrongholdChanged,
    StrongholdLost,
    UnitsMoved,
    CapitalDeclared,
    CountryFell,
    CapitalDeclarationDue,
    ForceProduced,
    StepBegun,
    GameWon,
)
