"""Province names as players type them: keys, full names, map aliases and the other names the
hobby uses (``St. Petersburg``, ``Gulf of Lions``, ``Tyrol``), folded for case, accents and hyphens."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.core import fold
from engine.diplomacy._map import Map

# Other names for a province, keyed by its name on the map, so every map with a "Gulf of Lyon"
# gets them. Only names players really use: the rulebook's, the judges' and the hobby's.
ALTERNATIVE_NAMES: dict[str, tuple[str, ...]] = {
    "St Petersburg": ("Saint Petersburg", "St Petersbourg", "Petersburg"),
    "Gulf of Lyon": ("Gulf of Lyons", "Gulf of Lions", "Gulf of Lion", "Lyon", "Lyons"),
    "Mid-Atlantic Ocean": ("Mid Atlantic", "Mid-Atlantic"),
    "North Atlantic Ocean": ("North Atlantic",),
    "Helgoland Bight": ("Heligoland Bight", "Helgoland", "Heligoland"),
    "Tyrolia": ("Tyrol", "Tirol"),
    "Holland": ("Netherlands", "The Netherlands"),
    "Marseilles": ("Marseille",),
    "Munich": ("München", "Muenchen"),
    "Sevastopol": ("Sebastopol",),
    "Rumania": ("Romania",),
    "Skagerrak": ("Skagerak",),
    "Ukraine": ("The Ukraine",),
    "English Channel": ("Channel", "ech"),
    "Eastern Mediterranean": ("East Mediterranean", "Eastern Med", "East Med", "emed", "eme"),
    "Western Mediterranean": ("West Mediterranean", "Western Med", "West Med", "wmed", "wme"),
    "Gulf of Bothnia": ("Bothnia",),
    "Norwegian Sea": ("Norwegian",),
    "Tyrrhenian Sea": ("Tyrrhenian",),
    "Yorkshire": ("York",),
}

# Coast spellings → coast code: ``nc``, ``north coast``, ``n coast``.
COASTS: dict[str, str] = {
    spelling: d[0] + "c"
    for d in ("north", "south", "east", "west")
    for spelling in (d[0] + "c", f"{d} coast", f"{d[0]} coast", f"{d}ern coast")
}

_DROPPED = re.compile(r"[.'’]")
_SPACED = re.compile(r"[-_\s]+")


def normal(text: str) -> str:
    """The form names are compared in: ``St. Petersburg`` → ``st petersburg``."""
    return _SPACED.sub(" ", _DROPPED.sub("", fold(text))).strip()


def split_coast(words: Sequence[str]) -> tuple[list[str], str | None]:
    """``[spain, south, coast]`` → ``([spain], "sc")``; words without a coast come back unchanged."""
    for size in (2, 1):
        if len(words) > size and " ".join(words[-size:]) in COASTS:
            return list(words[:-size]), COASTS[" ".join(words[-size:])]
    return list(words), None


# Maps are frozen but hold dicts, so they cannot key a dict: key by the ids of the parts the names
# come from, as ``_board.map_index`` does; each entry keeps its parts alive, so their ids stay theirs.
_NAMES: dict[tuple[int, ...], tuple[tuple[object, ...], Names]] = {}
_NAMES_KEPT = 16


@dataclass(frozen=True, eq=False)
class Names:
    """Every accepted spelling of every province of one map. Compared (and hashed) by identity:
    one per map, from ``Names.of``."""

    spellings: dict[str, str]  # normal spelling → province key
    hyphenated: frozenset[str]  # folded hyphenated words of names ("mid-atlantic"), kept whole

    @classmethod
    def of(cls, map: Map) -> Names:
        """The names of ``map``, built once per map (every order of every player reads them)."""
        parts = (map.provinces, map.aliases)
        key = tuple(id(part) for part in parts)
        entry = _NAMES.get(key)
        if entry is None:
            if len(_NAMES) >= _NAMES_KEPT:
                _NAMES.clear()
            entry = _NAMES[key] = (parts, cls._build(map))
        return entry[1]

    @classmethod
    def _build(cls, map: Map) -> Names:
        spellings: dict[str, str] = {}
        hyphenated: set[str] = set()

        def add(spelling: str, key: str) -> None:
            hyphenated.update(w for w in fold(spelling).split() if "-" in w)
            spellings.setdefault(normal(spelling), key)  # earlier kinds of name win a clash

        for key in map.provinces:
            add(key, key)
        for p in map.provinces.values():
            add(p.name, p.key)
        for alias, key in map.aliases.items():
            add(alias, key)
        for p in map.provinces.values():
            for other in ALTERNATIVE_NAMES.get(p.name, ()):
                add(other, p.key)
        return cls(spellings, frozenset(hyphenated))

    def exact(self, phrase: str) -> str | None:
        return self.spellings.get(normal(phrase))

    def by_prefix(self, phrase: str) -> set[str]:
        """The provinces one of whose names starts with ``phrase``."""
        start = normal(phrase)
        return {key for spelling, key in self.spellings.items() if start and spelling.startswith(start)}

    def close(self, phrase: str, prefer: Iterable[str] = ()) -> str | None:
        """The province most likely meant by a misspelt ``phrase``; ties go to ``prefer`` (the
        provinces next to the unit) and then to anagrams (``bru`` → ``bur``)."""
        typed = normal(phrase)
        preferred = set(prefer)
        best: dict[str, float] = {}
        for spelling, key in self.spellings.items():
            score = difflib.SequenceMatcher(None, typed, spelling).ratio()
            if score < 0.6:
                continue
            score += 0.1 if sorted(typed) == sorted(spelling) else 0.0
            score += 0.15 if key in preferred else 0.0
            best[key] = max(best.get(key, score), score)
        return max(best, key=lambda k: (best[k], k), default=None)
