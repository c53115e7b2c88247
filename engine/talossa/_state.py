"""Talossan RISK state: frozen records between steps, and ``Board``, the working copy a step's
resolution (and a receipt's dry run) changes action by action."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine.core import fold
from engine.talossa._map import GameMap, map_for

MIN_FORCE = 12  # "...multiplied by 3, but no less than 12 new units"
FORCE_PER_BORDERLAND = 3
MAX_ACTIONS = 10
CAPITAL_MIN_LANDS = 10
CAPITALSHIFT_COOLDOWN = 5
FORCED_COOLDOWN, FORCED_STEP = 10, 5  # VI.9: 10 withdrawals, then 15, 20...


@dataclass(frozen=True)
class Arrival:
    """How a conqueror came in, for its welcome (rulings): the land it got, and the land it asked
    for when it did not get it, with who held that land (None: no land has that name); likewise
    the colour asked for, why it was not given (``_colours``: unknown, free, taken) and whose
    colour it was too like."""

    land: str
    asked_land: str | None = None
    holder: str | None = None
    asked_colour: str | None = None
    colour_reason: str | None = None
    colour_holder: str | None = None


@dataclass(frozen=True)
class Country:
    player: str
    name: str
    colour: str
    stack: int = 0  # the Force Stack
    capital: str | None = None
    conquer_ban: int = 0  # this many of the player's next actions may not be Conquer
    declaration_due: int = 0  # >0: a capital must be declared, with this many withdrawals after
    fallen: bool = False
    arrival: Arrival | None = None  # None in positions made by hand
    leader: str = ""  # who leads it once a substitute took the seat ("Cyrus (for Cy Land)"), else ""


@dataclass(frozen=True)
class Holding:
    """One land: who holds it (None = free) with how many units, and the name its conqueror gave."""

    owner: str | None = None
    units: int = 0
    stronghold: bool = False
    given_name: str | None = None


@dataclass(frozen=True)
class Mark:
    """What the last step did to a land, for the map: ``conquered`` (a free land taken), ``captured``
    (a battle won), ``held`` (a battle the defender won); ``origin`` the land attacked from."""

    land: str
    origin: str
    player: str  # the attacker
    kind: str


@dataclass(frozen=True)
class TalossaState:
    map: str
    step: int
    countries: tuple[Country, ...]
    lands: Mapping[str, Holding] = field(default_factory=dict)  # only lands not free and unnamed
    submitted: tuple[str, ...] = ()  # players in the order of their last accepted plan this step
    winner: str | None = None
    finished: bool = False
    starting_units: int = 1
    custom_map: Mapping[str, Any] | None = None  # an organiser's map data (`map_file`), else None
    marks: tuple[Mark, ...] = ()  # the last step's conquests and battles, in the order they came

    @property
    def game_map(self) -> GameMap:
        return map_for(self.map, self.custom_map)

    def country(self, player: str) -> Country:
        for c in self.countries:
            if c.player == player:
                return c
        raise KeyError(f"{player!r} has no country in this game")

    @property
    def alive(self) -> tuple[str, ...]:
        return tuple(c.player for c in self.countries if not c.fallen)


class Board:
    """A mutable view of the lands and countries with the rule-book's questions as methods."""

    def __init__(self, state: TalossaState) -> None:
        self.map: GameMap = state.game_map
        self.holdings: dict[str, Holding] = {k: state.lands.get(k, Holding()) for k in self.map.lands}
        self.countries: dict[str, Country] = {c.player: c for c in state.countries}
        self.reinforced: set[str] = set()  # countries that had this step's capital bonus
        self.marks: list[Mark] = []  # this step's conquests and battles so far

    def state(self, base: TalossaState, **changes: object) -> TalossaState:
        lands = {k: h for k, h in self.holdings.items() if h != Holding()}
        countries = tuple(self.countries.values())  # in the order the conquerors joined
        return dataclasses.replace(base, lands=lands, countries=countries, **changes)  # type: ignore[arg-type]

    # --- questions -------------------------------------------------------------------------------

    def owner(self, key: str) -> str | None:
        return self.holdings[key].owner

    def units(self, key: str) -> int:
        return self.holdings[key].units

    def lands_of(self, player: str) -> list[str]:
        return [k for k, h in self.holdings.items() if h.owner == player]

    def is_innerland(self, key: str) -> bool:
        owner = self.owner(key)
        return owner is not None and all(self.owner(n) == owner for n in self.map.neighbours(key))

    def borderlands(self, player: str) -> list[str]:
        return [k for k in self.lands_of(player) if not self.is_innerland(k)]

    def is_capital(self, key: str) -> bool:
        owner = self.owner(key)
        return owner is not None and self.countries[owner].capital == key

    def is_stronghold(self, key: str) -> bool:
        """The capital always is; any other stronghold only while it is not an innerland (VI.11)."""
        return self.is_capital(key) or (self.holdings[key].stronghold and not self.is_innerland(key))

    def label(self, key: str) -> str:
        """How events name a land: its given name first, then the map's name."""
        given = self.holdings[key].given_name
        name = self.map.land(key).name
        return f"{given} ({name})" if given else name

    def spellings(self) -> dict[str, str]:
        """Every accepted spelling of a land (key, map name, given name) → the land's key."""
        names = {land.name: key for key, land in self.map.lands.items()}
        names.update({key: key for key in self.map.lands})
        names.update({h.given_name: k for k, h in self.holdings.items() if h.given_name})
        return names

    def name_taken(self, name: str) -> bool:
        return fold(name) in {fold(s) for s in self.spellings()}

    def force_due(self, player: str) -> int:
        return max(MIN_FORCE, FORCE_PER_BORDERLAND * len(self.borderlands(player)))

    def free_lands(self) -> list[str]:
        return [k for k, h in self.holdings.items() if h.owner is None]

    # --- changes -----------------------------------------------------------------------------------

    def set_land(self, key: str, **changes: object) -> None:
        self.holdings[key] = replace(self.holdings[key], **changes)  # type: ignore[arg-type]

    def set_country(self, player: str, **changes: object) -> None:
        self.countries[player] = replace(self.countries[player], **changes)  # type: ignore[arg-type]

    def add_units(self, key: str, units: int) -> None:
        self.set_land(key, units=self.units(key) + units)

    def free(self, key: str) -> None:
        """The land is left empty: free, no stronghold; the name it was given stays as an alias."""
        self.set_land(key, owner=None, units=0, stronghold=False)

    def lost_strongholds(self) -> Iterator[str]:
        """Strongholds that became innerlands lose the status (VI.11); yields each such land."""
        for key, holding in self.holdings.items():
            if holding.stronghold and self.is_innerland(key) and not self.is_capital(key):
                self.set_land(key, stronghold=False)
                yield key
