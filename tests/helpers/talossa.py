"""Talossan RISK for tests: positions for scenario tests, resolving one step of plans, and four
conquerors seated for the tick."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.core import Event
from engine.talossa import TALOSSA, Country, Holding, TalossaState
from engine.talossa._state import Board
from tests.conftest import Table, address

COUNTRIES = {"Al": "Alvania", "Bea": "Beatria", "Cy": "Cyland", "Di": "Dilonia"}
ROLES = {
    "Al": "Alvania; red; Abbavilla",
    "Bea": "Beatria; blue; Downer",
    "Cy": "Cyland; green; Farwell",
    "Di": "Dilonia; yellow; Ankara Street",
}
CONFIG = {
    "game": "talossa",
    "timezone": "UTC",
    "start": "2026-12-01 08:00",
    "deadlines": "20:00",
    "reminders": "none",
}


def table(root: Path) -> Table:
    """The four conquerors of ROLES, registered by their Role, for a game through the tick."""
    rows = [{"name": n, "email": address(n), "role": r} for n, r in ROLES.items()]
    return Table(root, CONFIG, rows)


def position(
    lands: Mapping[str, tuple[object, ...]],
    *,
    stacks: Mapping[str, int] | None = None,
    capitals: Mapping[str, str] | None = None,
    **country_fields: Mapping[str, int],
) -> TalossaState:
    """Lands by key → (player, units[, stronghold]); every player of COUNTRIES has a country."""
    holdings = {
        key: Holding(owner=str(spec[0]), units=int(str(spec[1])), stronghold=bool(spec[2:] and spec[2]))
        for key, spec in lands.items()
    }
    countries = tuple(
        Country(
            player=p,
            name=name,
            colour="red",
            stack=(stacks or {}).get(p, 12),
            capital=(capitals or {}).get(p),
            fallen=all(h.owner != p for h in holdings.values()),  # a country without land is gone
            **_fields(country_fields, p),
        )
        for p, name in COUNTRIES.items()
    )
    return TalossaState(map="talossa", step=1, countries=countries, lands=holdings)


def _fields(country_fields: Mapping[str, Mapping[str, int]], player: str) -> dict[str, Any]:
    return {field: values[player] for field, values in country_fields.items() if player in values}


def step(state: TalossaState, plans: Mapping[str, str], seed: int = 1) -> tuple[TalossaState, list[Event]]:
    """Plans in the order given are the order of submission."""
    submissions = {}
    for player, text in plans.items():
        submissions[player] = TALOSSA.parse(state, player, text)
        assert not submissions[player].errors, submissions[player].errors
        state, _ = TALOSSA.immediate(state, submissions[player])
    resolution = TALOSSA.resolve(state, submissions, random.Random(seed))
    return resolution.state, list(resolution.events)


def of(events: list[Event], kind: type) -> list:  # type: ignore[type-arg]
    return [e for e in events if isinstance(e, kind)]


def units(state: TalossaState, key: str) -> int:
    return Board(state).units(key)


def owner(state: TalossaState, key: str) -> str | None:
    return Board(state).owner(key)
