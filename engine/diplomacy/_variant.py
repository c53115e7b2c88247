"""Variants as data records, registered in one list (python-chess's ``find_variant``, godip's
``variants.Variants``). A new variant is a map's data plus a record here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from engine.diplomacy._map import Map
from engine.diplomacy._phases import STANDARD_SEASONS
from engine.diplomacy._position import Position, Season, starting_position
from engine.diplomacy.maps.standard import STANDARD as STANDARD_DATA
from engine.diplomacy.maps.startrek import STARTREK as STARTREK_DATA

BackupRuleName = Literal["szykman"]


@dataclass(frozen=True)
class Variant:
    name: str
    map: Map
    start: Callable[[], Position]  # a fresh opening position
    seasons: tuple[Season, ...]  # movement seasons of a year; adjustments follow the last
    solo_centers: int  # centres that win the game outright
    backup_rule: BackupRuleName  # how convoy paradoxes are settled

    @property
    def powers(self) -> tuple[str, ...]:
        return tuple(sorted({p.home_of for p in self.map.provinces.values() if p.home_of}))


_STANDARD_MAP = Map.from_data(STANDARD_DATA)

STANDARD = Variant(
    name="standard",
    map=_STANDARD_MAP,
    start=lambda: starting_position(STANDARD_DATA),
    seasons=STANDARD_SEASONS,
    solo_centers=18,
    backup_rule="szykman",
)

# Star Trek's three layers: hyperspace systems are seas (ships only), core systems coasts. Its
# per-faction thresholds and abilities live in ``engine.startrek``; 18 is the highest threshold.
STARTREK = Variant(
    name="startrek",
    map=Map.from_data(STARTREK_DATA),
    start=lambda: starting_position(STARTREK_DATA),
    seasons=STANDARD_SEASONS,
    solo_centers=18,
    backup_rule="szykman",
)

VARIANTS: tuple[Variant, ...] = (STANDARD, STARTREK)


def find_variant(name: str) -> Variant:
    """The registered variant called ``name`` (case-insensitive); ``KeyError`` if none."""
    for variant in VARIANTS:
        if variant.name.lower() == name.lower():
            return variant
    raise KeyError(f"no Diplomacy variant called {name!r}")
