"""A simple, sensible Diplomacy player for a seat nobody fills (standard and Star Trek boards).

It decides from a ``BoardView`` only: the board as its power sees it (everything in standard
Diplomacy; under Star Trek's fog, the systems in sight). It holds its centres when an enemy is next
door, takes undefended neutral and enemy centres, supports its own attacks on occupied ones,
retreats towards centres and builds in free home centres. Orders come out in the canonical text
form, read back by the game's own parser.

As Diplomacy's seat (``view_of``, ``bot_orders``) its view is the whole board (nothing in standard
Diplomacy is private once a phase is resolved) and its power. From 1920 on it votes for a draw in
every movement phase (the vote is secret; the game ends drawn only when every surviving player votes
so)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.diplomacy._map import Map
from engine.diplomacy._orders import Unit, province_of
from engine.diplomacy._phases import adjustment_due, free_home_centres
from engine.diplomacy._position import Position
from engine.diplomacy._retreat import retreat_options
from engine.diplomacy._variant import find_variant

if TYPE_CHECKING:
    from engine.diplomacy._ruleset import DiplomacyState

DRAW_FROM = 1920


@dataclass(frozen=True)
class BoardView:
    """What one power sees: the map, its power, and the position with only what is in sight."""

    map: Map
    power: str
    position: Position


def board_orders(view: BoardView, rng: random.Random) -> list[str]:
    kind = view.position.phase.kind
    if kind == "movement":
        return _movement(view, rng)
    if kind == "retreat":
        return _retreats(view)
    return _adjustments(view, rng)


# --- movement -------------------------------------------------------------------------------


def _movement(view: BoardView, rng: random.Random) -> list[str]:
    position, power = view.position, view.power
    units = list(position.units_of(power))
    rng.shuffle(units)  # who gets first pick of the targets
    claimed: set[str] = set()
    moves: dict[Unit, str] = {}
    for unit in units:
        if _guarding(view, unit):
            continue
        choice = _best_move(view, unit, claimed, rng)
        if choice is not None:
            moves[unit] = choice
            claimed.add(province_of(choice))
    orders = [f"{u} - {dest}" for u, dest in moves.items()]
    for unit in units:
        if unit in moves:
            continue
        helped = _support_for(view, unit, moves)
        orders.append(helped or f"{unit} H")
    return sorted(orders)


def _enemy_next_door(view: BoardView, province: str) -> bool:
    position, power = view.position, view.power
    return any(
        u.power != power and view.map.reaches_province(u.type, u.location, province) for u in position.units
    )


def _guarding(view: BoardView, unit: Unit) -> bool:
    """A unit on its own centre stays while an enemy could walk in."""
    return unit.province in view.position.centres_of(view.power) and _enemy_next_door(view, unit.province)


def _best_move(view: BoardView, unit: Unit, claimed: set[str], rng: random.Random) -> str | None:
    position, power = view.position, view.power
    scored: list[tuple[float, str]] = []
    for dest in view.map.neighbours(unit.type, unit.location):
        prov = province_of(dest)
        occupant = position.unit_in(prov)
        if prov in claimed or (occupant is not None and occupant.power == power):
            continue
        province = view.map.provinces[prov]
        owner = position.owner(prov)
        if province.supply_center and owner != power:
            score = 3.0 if occupant is None else 2.0
        elif occupant is None:
            score = 0.5
        else:
            continue
        scored.append((score + rng.random() * 0.4, dest))
    if not scored:
        return None
    score, dest = max(scored)
    return dest if score >= 1.0 or rng.random() < 0.5 else None


def _support_for(view: BoardView, unit: Unit, moves: dict[Unit, str]) -> str | None:
    """Support one of our own moves into an occupied province, if this unit can reach it."""
    for mover, dest in sorted(moves.items()):
        prov = province_of(dest)
        if view.position.unit_in(prov) is None or mover == unit:
            continue
        if view.map.reaches_province(unit.type, unit.location, prov):
            return f"{unit} S {mover.type} {mover.location} - {prov}"
    return None


# --- retreats and adjustments ---------------------------------------------------------------


def _retreats(view: BoardView) -> list[str]:
    orders = []
    for dislodged in view.position.dislodged:
        if dislodged.unit.power != view.power:
            continue
        options = retreat_options(view.map, view.position, dislodged)
        centres = [o for o in options if view.map.provinces[province_of(o)].supply_center]
        choices = centres or list(options)
        orders.append(f"{dislodged.unit} R {choices[0]}" if choices else f"{dislodged.unit} D")
    return orders


def _adjustments(view: BoardView, rng: random.Random) -> list[str]:
    position, power = view.position, view.power
    due = adjustment_due(view.map, position, power)
    if due > 0:
        homes = free_home_centres(view.map, position, power)[:due]
        return [f"{_build_type(view, home, rng)} {home} B" for home in homes]
    if due < 0:  # disband those standing off our centres first
        units = sorted(position.units_of(power), key=lambda u: (u.province in position.centres_of(power), u))
        return [f"{u} D" for u in units[:-due]]
    return []


def _build_type(view: BoardView, home: str, rng: random.Random) -> str:
    province = view.map.provinces[home]
    if province.kind == "sea":
        return "F"
    if province.kind == "land" or province.coasts:
        return "A"
    return "F" if rng.random() < 0.4 else "A"


def view_of(state: DiplomacyState, player: str) -> BoardView:
    return BoardView(find_variant(state.variant).map, state.power_of(player), state.position)


def bot_orders(view: BoardView, rng: random.Random) -> str:
    lines = board_orders(view, rng)
    phase = view.position.phase
    if phase.kind == "movement" and phase.year >= DRAW_FROM:
        lines.append("draw")
    return "\n".join(lines)
