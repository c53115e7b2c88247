"""What happened, as frozen records; each renders from ``templates/startrek/events/<Name>.txt.j2``.
``audience`` holds player names: intelligence and latinum are private, and under the fog of war
so is every order and ability that names a system the player cannot see."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.core import Event


@dataclass(frozen=True, kw_only=True)
class FactionDealt(Event):
    """The welcome's word to a player: the faction they play."""

    faction: str
    ability: str


@dataclass(frozen=True, kw_only=True)
class OrderResolved(Event):
    faction: str
    order: str
    result: str  # succeeds | fails | illegal
    reason: str | None
    given: bool = True  # False: the hold the rules gave a unit nobody ordered (no order of the player's)


@dataclass(frozen=True, kw_only=True)
class AbilityUsed(Event):
    """An ability line and what it did (``effect``), or why it did nothing (``refused``)."""

    faction: str
    ability: str
    effect: str = ""
    refused: str = ""


@dataclass(frozen=True, kw_only=True)
class IntelligenceReceived(Event):
    faction: str
    source: str  # Tal Shiar | Obsidian Order | bribe of <faction>
    lines: tuple[str, ...]
    window: bool  # may the faction still amend its orders?


@dataclass(frozen=True, kw_only=True)
class GornRolled(Event):
    unit: str
    survived: bool
    place: str | None  # where the unit stands now, if it survived


@dataclass(frozen=True, kw_only=True)
class LatinumCounted(Event):
    income: int
    latinum: int


@dataclass(frozen=True, kw_only=True)
class AbilitiesLeft(Event):
    faction: str
    left: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class AllianceNoted(Event):
    """A declaration, its confirmation or withdrawal: told to everyone (``public``) once both sides
    declared it openly; ``openly`` when this side asked for that."""

    faction: str
    other: str
    status: str  # registered | confirmed | withdrawn
    openly: bool = False


@dataclass(frozen=True, kw_only=True)
class CentresCounted(Event):
    year: int
    centres: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class FactionEliminated(Event):
    faction: str


@dataclass(frozen=True, kw_only=True)
class PhaseBegun(Event):
    label: str


@dataclass(frozen=True, kw_only=True)
class GameWon(Event):
    factions: tuple[str, ...]
    reason: str


@dataclass(frozen=True, kw_only=True)
class GameDrawn(Event):
    year: int
    factions: tuple[str, ...]
