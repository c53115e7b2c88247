"""Veneer for tests: a game in progress built by hand (`scene`) and resolved (`run`) for the rules
tests, and five players seated for the tick with a warlike script (`table`, `orders_for`)."""

from __future__ import annotations

import dataclasses
import random
from datetime import datetime
from pathlib import Path
from typing import Any

from engine.core import Event
from engine.veneer import VENEER, VeneerState
from engine.veneer._effects import troop_price
from tests.conftest import Table, address

PLAYERS = ["Agatha", "Barney", "Charles", "Darcy", "Emmett"]
CONFIG = {
    "game": "veneer",
    "timezone": "UTC",
    "start": "2026-12-01 08:00",
    "duration": "6h",
    "vote_duration": "1h",
    "response_duration": "1h",
    "reminders": "none",
}


def table(root: Path) -> Table:
    return Table(root, CONFIG, [{"name": n, "email": address(n)} for n in PLAYERS])


def current(t: Table) -> tuple[VeneerState, datetime | None, bool]:
    journal = t.journal()
    try:
        row = journal.game("truce-1")
    finally:
        journal.close()
    assert row is not None
    return VENEER.from_json(row.state), row.deadline, row.finished


def orders_for(state: VeneerState, player: str) -> str:
    """A warlike script: vote yes, spend everything on attackers, attack a living target."""
    seat = state.seat(player)
    if state.stage == "vote":
        return "vote yes" if player != "Emmett" else ""  # Emmett never votes: it counts as no
    if state.stage == "end" and player == state.active and state.turn == 1:
        return "ally with Barney"
    if state.stage == "end" and player == "Barney":
        return "ally with Agatha"
    if state.stage != "muster":
        return ""  # defaults: no veto, all defenders intercept, lent troops back in seating order
    price = troop_price(state, player)
    buy = (seat.coins - 1) // price
    lines = [f"buy {buy} attackers"] if buy else []
    if seat.defenders:
        lines.append(f"reassign {seat.defenders} to attackers")
    victims = [v for v in seat.targets if state.seat(v).alive] or [n for n in state.living if n != player]
    attackers = seat.attackers + seat.defenders + buy
    if attackers and "Ceasefire" not in state.laws:
        lines.append(f"attack {victims[0]} with {attackers}")
    return "\n".join(lines)


def scene(
    *,
    stage: str = "muster",
    active: str = "Agatha",
    seats: dict[str, dict[str, Any]] | None = None,
    n: int = 4,
    **changes: Any,
) -> VeneerState:
    """A game in progress: no factions (no abilities) unless given, targets in a circle."""
    names = PLAYERS[:n]
    state = VENEER.setup(names, {}, random.Random(0))
    plain = tuple(
        dataclasses.replace(s, faction="", dealt=(), targets=(names[(i + 1) % n], names[(i + 2) % n]))
        for i, s in enumerate(state.seats)
    )
    state = dataclasses.replace(state, seats=plain, stage=stage, active=active, **{"turn": 1, **changes})
    for name, fields in (seats or {}).items():
        state = state.with_seat(name, **fields)
    return state


def run(state: VeneerState, orders: dict[str, str], seed: int = 0) -> tuple[VeneerState, list[Event]]:
    submissions = {}
    for player, text in orders.items():
        submissions[player] = VENEER.parse(state, player, text)
        assert not submissions[player].errors, submissions[player].errors
    resolution = VENEER.resolve(state, submissions, random.Random(seed))
    return resolution.state, list(resolution.events)
