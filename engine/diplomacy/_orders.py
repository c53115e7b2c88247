"""Diplomacy orders as values. Every order has a canonical text form (``str``) that the parser reads
back to the same value: ``A par - bur``, ``F nth C A lon - bel``, ``F spa/sc - wes``, ``A par B``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

UnitType = Literal["A", "F"]


def province_of(location: str) -> str:
    """``spa/sc`` → ``spa``: the province a location (possibly a coast) belongs to."""
    return location.split("/", 1)[0]


class Unit(NamedTuple):
    """A unit on the board. A named tuple, not a dataclass: units are made, hashed and sorted
    (by power, type, location) in every phase, and a tuple does all three in C."""

    power: str
    type: UnitType
    location: str  # a province key, or ``prov/coast`` for a fleet on a split coast

    @property
    def province(self) -> str:
        return province_of(self.location)

    def __str__(self) -> str:
        return f"{self.type} {self.location}"


_new_tuple = tuple.__new__


def moved(unit: Unit, location: str) -> Unit:
    """``Unit(unit.power, unit.type, location)``, without the call to ``Unit.__new__``."""
    return _new_tuple(Unit, (unit.power, unit.type, location))


@dataclass(frozen=True, slots=True)
class Hold:
    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} H"


@dataclass(frozen=True, slots=True)
class Move:
    unit: Unit
    destination: str  # a province, or a coast for a fleet
    via_convoy: bool = False  # explicitly ordered "via convoy"

    def __str__(self) -> str:
        return f"{self.unit} - {self.destination}{' VIA' if self.via_convoy else ''}"


@dataclass(frozen=True, slots=True)
class Support:
    """Support to hold (``destination is None``) or to move. ``supported`` is the supported unit's
    location as ordered (province level is what matters); ``supported_type`` as written, if any."""

    unit: Unit
    supported: str
    destination: str | None = None
    supported_type: UnitType | None = None

    def __str__(self) -> str:
        kind = f"{self.supported_type} " if self.supported_type else ""
        tail = f" - {self.destination}" if self.destination else ""
        return f"{self.unit} S {kind}{self.supported}{tail}"


@dataclass(frozen=True, slots=True)
class Convoy:
    unit: Unit  # the fleet
    army: str  # the convoyed army's province
    destination: str

    def __str__(self) -> str:
        return f"{self.unit} C A {self.army} - {self.destination}"


@dataclass(frozen=True, slots=True)
class Retreat:
    unit: Unit
    destination: str

    def __str__(self) -> str:
        return f"{self.unit} R {self.destination}"


@dataclass(frozen=True, slots=True)
class Disband:
    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} D"


@dataclass(frozen=True, slots=True)
class Build:
    power: str
    type: UnitType
    location: str

    def __str__(self) -> str:
        return f"{self.type} {self.location} B"


@dataclass(frozen=True, slots=True)
class Waive:
    power: str

    def __str__(self) -> str:
        return "waive"


MovementOrder = Hold | Move | Support | Convoy
RetreatOrder = Retreat | Disband
AdjustmentOrder = Build | Disband | Waive
Order = Hold | Move | Support | Convoy | Retreat | Disband | Build | Waive
