"""Maps for Talossan RISK: the data format, its validator and the table of shipped maps.

A map is a JSON-like object::

    {"name": "talossa", "title": "Talossa", "size": [900, 600],
     "lands": [{"key": "vuo-abbavilla", "name": "Abbavilla", "province": "Vuode",
                "centre": [350, 250], "edge": false,
                "neighbours": ["ata-ankara", "vuo-downer", "vuo-farwell", "ben-falls"]}, ...]}

``key`` is a short stable identifier (state and JSON use it); ``name`` is what players read and type
(matched ignoring case and accents); ``centre`` is a point on a picture of ``size``, x to the east
and y to the south (it also decides compass directions); ``edge`` marks lands on the map's rim,
which the seed says do not count as borderlands for that (VI.8). Neighbours are listed by key and
must be symmetric; every land must be reachable from every other.
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import fold
from engine.talossa._talossa_map import TALOSSA_MAP

__all__ = ["GameMap", "Land", "MapError", "find_map", "load_map"]

MIN_LANDS = 2


class MapError(ValueError):
    """A map that cannot be played; ``problems`` lists every fault found, one sentence each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("the map is not valid: " + "; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Land:
    key: str
    name: str
    province: str
    centre: tuple[float, float]
    edge: bool
    neighbours: tuple[str, ...]


@dataclass(frozen=True)
class GameMap:
    name: str
    title: str
    size: tuple[int, int]
    lands: Mapping[str, Land]

    def land(self, key: str) -> Land:
        return self.lands[key]

    def neighbours(self, key: str) -> tuple[str, ...]:
        return self.lands[key].neighbours

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.lands[a].neighbours

    def bearing(self, origin: str, target: str) -> float:
        """Compass bearing in degrees from ``origin`` to ``target`` (0 = north, 90 = east)."""
        (x0, y0), (x1, y1) = self.lands[origin].centre, self.lands[target].centre
        return math.degrees(math.atan2(x1 - x0, y0 - y1)) % 360


def load_map(data: Mapping[str, Any]) -> GameMap:
    """Check a map in the documented format and build it; ``MapError`` lists every problem."""
    problems: list[str] = []
    raw = data.get("lands") if isinstance(data, Mapping) else None
    if not isinstance(raw, list) or len(raw) < MIN_LANDS:
        raise MapError([f"“lands” must be a list of at least {MIN_LANDS} lands"])
    lands = [_land(entry, i, problems) for i, entry in enumerate(raw)]
    built = {land.key: land for land in lands if land is not None}
    _check_unique(lands, problems)
    _check_neighbours(built, problems)
    if not problems:
        _check_connected(built, problems)
    if problems:
        raise MapError(problems)
    size = data.get("size", [1000, 1000])
    return GameMap(
        name=str(data.get("name", "map")),
        title=str(data.get("title", data.get("name", "Map"))),
        size=(int(size[0]), int(size[1])),
        lands=built,
    )


def _land(entry: Any, index: int, problems: list[str]) -> Land | None:
    where = f"land #{index + 1}"
    if not isinstance(entry, Mapping):
        problems.append(f"{where} is not an object")
        return None
    missing = [k for k in ("key", "name", "province", "centre", "neighbours") if k not in entry]
    if missing:
        problems.append(f"{where} ({entry.get('key', '?')}) lacks {', '.join(missing)}")
        return None
    centre = entry["centre"]
    if not (isinstance(centre, (list, tuple)) and len(centre) == 2 and all(_number(c) for c in centre)):
        problems.append(f"land {entry['key']}: “centre” must be two numbers [x, y], got {centre!r}")
        return None
    neighbours = entry["neighbours"]
    if not isinstance(neighbours, list) or not all(isinstance(n, str) for n in neighbours):
        problems.append(f"land {entry['key']}: “neighbours” must be a list of land keys")
        return None
    return Land(
        key=str(entry["key"]),
        name=str(entry["name"]),
        province=str(entry["province"]),
        centre=(float(centre[0]), float(centre[1])),
        edge=bool(entry.get("edge", False)),
        neighbours=tuple(neighbours),
    )


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_unique(lands: list[Land | None], problems: list[str]) -> None:
    seen: dict[str, str] = {}
    for land in lands:
        if land is None:
            continue
        for spelling in {fold(land.key), fold(land.name)}:
            if spelling in seen and seen[spelling] != land.key:
                problems.append(f"“{spelling}” names two lands: {seen[spelling]} and {land.key}")
            seen[spelling] = land.key


def _check_neighbours(lands: Mapping[str, Land], problems: list[str]) -> None:
    for land in lands.values():
        for other in land.neighbours:
            if other == land.key:
                problems.append(f"land {land.key} lists itself as a neighbour")
            elif other not in lands:
                close = difflib.get_close_matches(other, list(lands), n=1)
                hint = f" (did you mean {close[0]}?)" if close else ""
                problems.append(f"land {land.key}: unknown neighbour {other}{hint}")
            elif land.key not in lands[other].neighbours:
                problems.append(f"{land.key} borders {other}, but {other} does not list {land.key}")


def _check_connected(lands: Mapping[str, Land], problems: list[str]) -> None:
    start = next(iter(lands))
    reached, frontier = {start}, [start]
    while frontier:
        for other in lands[frontier.pop()].neighbours:
            if other not in reached:
                reached.add(other)
                frontier.append(other)
    cut_off = sorted(set(lands) - reached)
    if cut_off:
        problems.append(f"no way from {start} to {', '.join(cut_off)}: every land must be reachable")


MAPS: dict[str, GameMap] = {"talossa": load_map(TALOSSA_MAP)}


def find_map(name: str) -> GameMap:
    try:
        return MAPS[name.strip().lower()]
    except KeyError:
        raise KeyError(f"unknown map {name!r}; known maps: {', '.join(sorted(MAPS))}") from None


_LOADED: dict[str, GameMap] = {}


def map_for(name: str, data: Mapping[str, Any] | None) -> GameMap:
    """A state's map: an organiser's own (its data travels in the state, so replay needs no file),
    else the built-in one by name. Organiser maps are checked once and kept for the process."""
    if data is None:
        return find_map(name)
    key = json.dumps(data, sort_keys=True)
    if key not in _LOADED:
        _LOADED[key] = load_map(data)
    return _LOADED[key]
