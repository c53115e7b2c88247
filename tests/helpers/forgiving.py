"""tests/data/forgiving.yaml (how each game's players write orders) and a game seated to read them
by mail: the mail rooms' tests send its texts through the tick, the contract test through the engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from tests.conftest import Table
from tests.helpers.clock import at
from tests.helpers.paths import DATA

FORGIVING = yaml.safe_load((DATA / "forgiving.yaml").read_text(encoding="utf-8"))
BY_MAIL = ["truce", "diplomacy", "startrek", "talossa"]  # games whose board the roles fix, whatever the seed
SCHEDULE = {
    "timezone": "UTC",
    "start": "2026-12-01 08:00",
    "deadlines": "20:00",
    "reminders": "none",
    "rounds": "3",
}


def forgiving_case(game: str, kind: str) -> dict[str, Any]:
    """The first case of a class ("sentence", "label", …) that the game reads as orders."""
    return next(c for c in FORGIVING[game]["cases"] if c["class"] == kind and "orders" in c)


def forgiving_table(root: Path, game: str) -> tuple[Table, str]:
    """The game with forgiving.yaml's players, opened; and the player who writes the cases."""
    spec = FORGIVING[game]
    roles = spec["options"].get("roles", {})
    rows = [
        {"name": p, "email": f"{p.lower()}@players.test", "role": roles.get(p, "")} for p in spec["players"]
    ]
    table = Table(root, {"game": game, **SCHEDULE}, rows)
    table.tick(at(0, 8, 5))
    return table, spec["writer"]
