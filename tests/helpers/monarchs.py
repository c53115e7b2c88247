"""The Game of Monarchs for tests: three monarchs seated for the tick (board mode), and random legal
orders for the invariants and the privacy tests. Court mode's seats: tests/helpers/monarchs_court.py."""

from __future__ import annotations

import random
from pathlib import Path

from engine.monarchs import HEXES, Move, Orders, Position, neighbours
from engine.monarchs._board import home_of
from tests.conftest import Table, address

MONARCHS = {"Rhea": "red", "Gus": "green", "Bea": "blue"}
CONFIG = {
    "game": "monarchs",
    "turns": "2",
    "timezone": "UTC",
    "start": "2026-12-01 08:00",
    "deadlines": "20:00",
    "reminders": "none",
}


def table(root: Path, config: dict[str, str] | None = None) -> Table:
    rows = [{"name": n, "email": address(n), "role": r} for n, r in MONARCHS.items()]
    return Table(root, {**CONFIG, **(config or {})}, rows)


def random_orders(position: Position, nation: str, rng: random.Random) -> Orders:
    """Some of a nation's regiments sent to neighbouring hexes (never a foreign home), maybe a boost."""
    moves = []
    for hex_name, (owner, count) in sorted(position.armies.items()):
        if owner != nation:
            continue
        targets = [n for n in neighbours(hex_name) if home_of(n) in (None, nation)]
        left = count
        while left and rng.random() < 0.6:
            sent = rng.randint(1, left)
            moves.append(Move(hex_name, rng.choice(targets), sent))
            left -= sent
    boost = rng.choice(HEXES) if rng.random() < 0.8 else None
    return Orders(boost, tuple(moves))
