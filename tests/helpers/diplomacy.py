"""A standard Diplomacy game of seven players seated for the tick (tests of the game and of the rooms)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import Table, address

POWERS = {
    "Anna": "Austria",
    "Ed": "England",
    "Fran": "France",
    "Gerd": "Germany",
    "Ida": "Italy",
    "Rus": "Russia",
    "Tur": "Turkey",
}
CONFIG = {
    "game": "diplomacy",
    "timezone": "UTC",
    "start": "2026-12-01 08:00",
    "deadlines": "20:00",
    "retreat_duration": "2h",
    "adjustment_duration": "2h",
    "reminders": "none",
}


def table(root: Path) -> Table:
    rows = [{"name": n, "email": address(n), "role": p} for n, p in POWERS.items()]
    return Table(root, CONFIG, rows)
