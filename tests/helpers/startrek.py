"""Star Trek Diplomacy for tests: seven players and positions built by hand for the rules tests,
and seven players seated for the tick (`table`)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TypeVar

from engine.core import Event, Resolution
from engine.diplomacy import Phase, make_position
from engine.startrek import STARTREK, Options, StarTrekState
from engine.startrek._events import OrderResolved
from tests.conftest import Table, address

E = TypeVar("E", bound=Event)

PLAYERS = {
    "fed": "Federation",
    "kli": "Klingon",
    "rom": "Romulan",
    "car": "Cardassian",
    "fer": "Ferengi",
    "bre": "Breen",
    "gor": "Gorn",
}
PLAYER_OF = {f: p for p, f in PLAYERS.items()}

# Seven players seated for the tick, each by the faction in their Role.
FACTIONS = {
    "Fay": "Federation",
    "Kor": "Klingon",
    "Rom": "Romulan",
    "Cat": "Cardassian",
    "Fez": "Ferengi",
    "Bre": "Breen",
    "Gil": "Gorn",
}
CONFIG = {
    "game": "startrek",
    "timezone": "UTC",
    "start": "2026-12-01 08:00",
    "deadlines": "20:00",
    "intelligence_duration": "2h",
    "retreat_duration": "2h",
    "adjustment_duration": "2h",
    "reminders": "none",
}


def table(root: Path, **options: str) -> Table:
    rows = [{"name": n, "email": address(n), "role": f} for n, f in FACTIONS.items()]
    return Table(root, {**CONFIG, **options}, rows)


def board(
    units: Iterable[tuple[str, str, str]],
    centres: Mapping[str, Iterable[str]] | None = None,
    *,
    season: str = "spring",
    year: int = 2370,
    window: bool = False,
    fog: bool = False,
    **fields: object,
) -> StarTrekState:
    """A movement phase with these units (faction, "F"/"A", system) and centres."""
    position = make_position(
        phase=Phase(year, season, "movement"),  # type: ignore[arg-type]
        units=list(units),  # type: ignore[arg-type]
        supply_centers=centres or {},
    )
    return StarTrekState(position, dict(PLAYERS), Options(fog=fog, window=window), **fields)  # type: ignore[arg-type]


def play(state: StarTrekState, orders: Mapping[str, str], seed: int = 0) -> Resolution:
    """Resolve one phase; ``orders`` by faction; the silent get the default."""
    rng = random.Random(seed)
    submissions = {}
    for player in sorted(STARTREK.awaiting(state)):
        text = orders.get(PLAYERS[player])
        submissions[player] = (
            STARTREK.parse(state, player, text) if text else STARTREK.default(state, player, rng)
        )
    return STARTREK.resolve(state, submissions, rng)


def named(events: Iterable[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def result_of(resolution: Resolution, order: str) -> str:
    found = [e for e in named(resolution.events, OrderResolved) if e.order == order]
    assert found, f"no result for {order!r}"
    return found[0].result


def gorn_seed(survives: bool) -> int:
    """A seed whose first Gorn roll saves the unit (or not)."""
    return next(s for s in range(100) if (random.Random(s).random() < 0.5) == survives)
