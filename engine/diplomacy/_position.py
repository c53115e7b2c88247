"""Where a Diplomacy game stands: the phase, the units, who was dislodged, where a standoff left a
province contested, and who owns which supply centre."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from engine.diplomacy._orders import Unit, UnitType, province_of

Season = Literal["spring", "fall", "winter"]
PhaseKind = Literal["movement", "retreat", "adjustment"]

_SEASON_LETTER = {"spring": "S", "fall": "F", "winter": "W"}
_KIND_LETTER = {"movement": "M", "retreat": "R", "adjustment": "A"}


@dataclass(frozen=True, order=True, slots=True)
class Phase:
    year: int
    season: Season
    kind: PhaseKind

    @property
    def key(self) -> str:
        """Short unique name, as judges write it: ``S1901M``, ``F1901R``, ``W1901A``."""
        return f"{_SEASON_LETTER[self.season]}{self.year}{_KIND_LETTER[self.kind]}"

    def __str__(self) -> str:
        return f"{self.season.capitalize()} {self.year} {self.kind}"


@dataclass(frozen=True, slots=True)
class DislodgedUnit:
    """A unit pushed out in the last movement phase, waiting to retreat or disband.
    ``attacker_from`` is the province the dislodging unit came from; an army that came by convoy
    does not close that province to the retreat (DATC 4.A.5, 2023 rules)."""

    unit: Unit
    attacker_from: str
    via_convoy: bool = False


@dataclass(frozen=True)
class Position:
    phase: Phase
    units: tuple[Unit, ...]
    dislodged: tuple[DislodgedUnit, ...] = ()
    contested: frozenset[str] = frozenset()  # provinces left empty by a standoff: no retreats there
    supply_centers: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def unit_in(self, province: str) -> Unit | None:
        return self.by_province.get(province)

    @cached_property
    def by_province(self) -> Mapping[str, Unit]:
        """The unit in each occupied province (the first listed, should two share one)."""
        # Built on first use; a frozen dataclass keeps it in its ``__dict__``, outside the fields.
        return {(province_of(loc) if "/" in (loc := u.location) else loc): u for u in reversed(self.units)}

    @cached_property
    def fleets(self) -> frozenset[str]:
        """The locations of the fleets."""
        return frozenset(u.location for u in self.units if u.type == "F")

    @cached_property
    def fleets_at(self) -> tuple[str, ...]:
        """The locations of the fleets, sorted."""
        return tuple(sorted(u.location for u in self.units if u.type == "F"))

    def owner(self, province: str) -> str | None:
        return next((p for p, scs in self.supply_centers.items() if province in scs), None)

    def centres_of(self, power: str) -> frozenset[str]:
        return self.supply_centers.get(power, frozenset())

    def units_of(self, power: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.power == power)

    @property
    def powers(self) -> tuple[str, ...]:
        """Every power with a unit or a centre, sorted."""
        named = {u.power for u in self.units} | {d.unit.power for d in self.dislodged}
        return tuple(sorted(named | {p for p, scs in self.supply_centers.items() if scs}))


def make_position(
    *,
    phase: Phase,
    units: Iterable[tuple[str, UnitType, str]],
    supply_centers: Mapping[str, Iterable[str]] | None = None,
    dislodged: Iterable[DislodgedUnit] = (),
    contested: Iterable[str] = (),
) -> Position:
    """Build a position from plain values: units as ``(power, "A"|"F", location)``."""
    return Position(
        phase=phase,
        units=tuple(sorted(Unit(p, t, loc) for p, t, loc in units)),
        dislodged=tuple(dislodged),
        contested=frozenset(contested),
        supply_centers={p: frozenset(scs) for p, scs in (supply_centers or {}).items()},
    )


def starting_position(data: Mapping[str, Any]) -> Position:
    """The opening position of a map's data (``starting_units``, ``starting_supply_centers``)."""
    start = data["starting_phase"]
    return make_position(
        phase=Phase(int(start["year"]), start["season"].lower(), start["kind"].lower()),
        units=[(u["power"], u["type"], u["location"]) for u in data["starting_units"]],
        supply_centers=data["starting_supply_centers"],
    )
