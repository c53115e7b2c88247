"""The seven factions of Star Trek Diplomacy and what the map tells about them: thresholds, colours,
abilities, and which systems a faction can see when the fog of war is on."""

from __future__ import annotations

from collections.abc import Iterable

from engine.core import fold
from engine.diplomacy import Map, Position, Variant, find_variant
from engine.diplomacy.maps.startrek import STARTREK as DATA

VARIANT: Variant = find_variant("startrek")
MAP: Map = VARIANT.map
FACTIONS: tuple[str, ...] = ("Federation", "Klingon", "Romulan", "Cardassian", "Ferengi", "Breen", "Gorn")
SOLO_CENTRES: dict[str, int] = dict(DATA["solo_centres"])
COLOURS: dict[str, str] = dict(DATA["colours"])
TITLES: dict[str, str] = dict(DATA["faction_titles"])
LATINUM_WIN = 100
LAST_YEAR = 2379  # the game is drawn when 2380 begins
ABILITIES: dict[str, str] = {
    "Federation": "diplomatic immunity (once per game)",
    "Klingon": "warrior's rage (toggle)",
    "Romulan": "Tal Shiar (once per game)",
    "Cardassian": "Obsidian Order (every turn)",
    "Ferengi": "latinum: bribe 20, sabotage 30, buy a neutral centre 50",
    "Breen": "energy dampening freeze (once per game)",
    "Gorn": "reptilian resilience (50% survival)",
}


def faction_named(word: str) -> str | None:
    """``klingon``, ``Klingons``, ``kli`` → ``Klingon``."""
    key = fold(word).rstrip("s")
    return next((f for f in FACTIONS if fold(f).startswith(key[:3]) and key[:3]), None)


def neighbours(system: str) -> set[str]:
    """Systems one lane away, on any layer (vertical lanes included)."""
    return {b for a, b in MAP.fleet_edges if a == system}


def visible_systems(position: Position, faction: str) -> frozenset[str]:
    """Fog of war: the systems of the faction's units and centres and every system next to them."""
    own = {u.province for u in position.units_of(faction)} | set(position.centres_of(faction))
    own |= {d.unit.province for d in position.dislodged if d.unit.power == faction}
    seen = set(own)
    for system in own:
        seen |= neighbours(system)
    return frozenset(seen)


def nearest_free_home(position: Position, faction: str, start: str, taken: Iterable[str] = ()) -> str | None:
    """The faction's empty home system fewest lanes from ``start`` (ties by name), if any."""
    occupied = {u.province for u in position.units} | set(taken)
    homes = {k for k, p in MAP.provinces.items() if p.home_of == faction and k not in occupied}
    frontier, seen = [start], {start}
    while frontier:
        found = sorted(s for s in frontier if s in homes)
        if found:
            return found[0]
        frontier = sorted({n for s in frontier for n in neighbours(s)} - seen)
        seen |= set(frontier)
    return None


def is_alive(position: Position, faction: str) -> bool:
    dislodged = any(d.unit.power == faction for d in position.dislodged)
    return bool(position.units_of(faction) or position.centres_of(faction) or dislodged)
