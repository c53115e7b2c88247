"""A Diplomacy map as data: provinces, coasts, who may move where. Variants build one from a
plain dict (see ``maps/standard.py``), so a new map is data, not code."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.diplomacy._orders import UnitType, province_of

ProvinceKind = Literal["land", "coast", "sea"]


@dataclass(frozen=True)
class Province:
    key: str
    name: str
    kind: ProvinceKind
    supply_center: bool
    home_of: str | None  # the power whose home centre this is
    coasts: tuple[str, ...] = ()  # ("nc", "sc") on split-coast provinces
    layer: int = 0  # maps in layers (Star Trek): a unit supports only on its own layer


@dataclass(frozen=True)
class Modifiers:
    """A variant's abilities that bend strengths for one phase (Star Trek's immunity and rage),
    carried on a copy of the map made for that phase; the standard game has none."""

    immune: frozenset[str] = frozenset()  # provinces whose unit cannot be dislodged
    raging: frozenset[str] = frozenset()  # powers whose moves get +1 and whose units defend at -1


NO_MODIFIERS = Modifiers()


@dataclass(frozen=True)
class Map:
    """``army_edges`` are province pairs; ``fleet_edges`` are location pairs (coasts spelt out as
    ``spa/nc`` on split-coast provinces). Both are stored in both directions."""

    name: str
    provinces: Mapping[str, Province]
    army_edges: frozenset[tuple[str, str]]
    fleet_edges: frozenset[tuple[str, str]]
    aliases: Mapping[str, str] = field(default_factory=dict)  # alternative key -> province key
    modifiers: Modifiers = NO_MODIFIERS

    # --- places ---------------------------------------------------------------------------------

    def province(self, location: str) -> Province:
        return self.provinces[province_of(location)]

    def is_location(self, location: str) -> bool:
        prov, _, coast = location.partition("/")
        return prov in self.provinces and (not coast or coast in self.provinces[prov].coasts)

    def fleet_locations(self, province: str) -> tuple[str, ...]:
        """Where a fleet can stand in a province: its coasts if split, else the province itself."""
        p = self.provinces[province]
        if p.kind == "land":
            return ()
        return tuple(f"{province}/{c}" for c in p.coasts) if p.coasts else (province,)

    def can_hold(self, unit_type: UnitType, location: str) -> bool:
        if not self.is_location(location):
            return False
        p = self.province(location)
        if unit_type == "A":
            return p.kind != "sea" and "/" not in location
        return location in self.fleet_locations(p.key)

    # --- movement -------------------------------------------------------------------------------

    def adjacent(self, unit_type: UnitType, origin: str, destination: str) -> bool:
        """Can a unit of this type move from ``origin`` to ``destination`` in one step? For fleets
        both are locations (coast-exact); for armies provinces."""
        if unit_type == "A":
            return (province_of(origin), province_of(destination)) in self.army_edges
        return (origin, destination) in self.fleet_edges

    def reaches_province(self, unit_type: UnitType, origin: str, province: str) -> bool:
        """Adjacent to any location of ``province`` (what support needs: coasts do not matter)."""
        if unit_type == "A":
            return (province_of(origin), province) in self.army_edges
        return any((origin, loc) in self.fleet_edges for loc in self.fleet_locations(province))

    def fleet_destinations(self, origin: str, province: str) -> tuple[str, ...]:
        """The coasts of ``province`` a fleet at ``origin`` can reach."""
        return tuple(loc for loc in self.fleet_locations(province) if (origin, loc) in self.fleet_edges)

    def neighbours(self, unit_type: UnitType, origin: str) -> tuple[str, ...]:
        edges = self.army_edges if unit_type == "A" else self.fleet_edges
        key = province_of(origin) if unit_type == "A" else origin
        return tuple(sorted(b for a, b in edges if a == key))

    # --- building -------------------------------------------------------------------------------

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Map:
        provinces = {
            key: Province(
                key=key,
                name=p["name"],
                kind=p["type"],
                supply_center=bool(p["supply_center"]),
                home_of=p.get("home_center"),
                coasts=tuple(p.get("coasts", ())),
                layer=int(p.get("layer", 0)),
            )
            for key, p in data["provinces"].items()
        }
        return cls(
            name=data["variant"],
            provinces=provinces,
            army_edges=_symmetric(data["army_adjacency"]),
            fleet_edges=_symmetric(data["fleet_adjacency"]),
            aliases=dict(data.get("aliases", {})),
        )


def _symmetric(adjacency: Mapping[str, Sequence[str]]) -> frozenset[tuple[str, str]]:
    edges = {(a, b) for a, targets in adjacency.items() for b in targets}
    return frozenset(edges | {(b, a) for a, b in edges})
