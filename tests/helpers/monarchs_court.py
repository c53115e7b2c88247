"""The Game of Monarchs in court mode for tests: three kings, five courtiers per nation, two loyalties
fixed by the organiser (R5 spies for Blue), and the Config tab that plays it through the tick."""

from __future__ import annotations

from pathlib import Path

from engine.monarchs import NATIONS
from tests.conftest import Table, address

KINGS = {"Rex": "red", "Gil": "green", "Bly": "blue"}
COURTIERS = {f"{n[0].upper()}{i}": n for n in NATIONS for i in range(1, 6)}
FIXED = {"R5": "red courtier, spy for blue", "B1": "blue courtier loyal to blue"}
ROLES = {**KINGS, **{c: f"{n} courtier" for c, n in COURTIERS.items()}, **FIXED}
PLAYERS = [*KINGS, *COURTIERS]
CONFIG = {
    "game": "monarchs",
    "mode": "court",
    "turns": "2",
    "timezone": "UTC",
    "start": "2026-12-01 08:00",
    "deadlines": "20:00",
    "reminders": "none",
}


def court_table(root: Path) -> Table:
    """A court game of all 18 seats on local files, not yet started."""
    rows = [{"name": p, "email": address(p), "role": ROLES[p]} for p in PLAYERS]
    return Table(root, CONFIG, rows)
