"""The order form a player copies into a reply: the orders on file for each unit (a unit with none
holds, a dislodged one disbands), the places a dislodged unit may retreat to, and in winter the
free home centres to build in. A form sent back unchanged changes nothing."""

from __future__ import annotations

from collections.abc import Sequence

from engine.diplomacy._map import Map
from engine.diplomacy._on_file import DRAW, unit_key
from engine.diplomacy._phases import adjustment_due, free_home_centres
from engine.diplomacy._position import DislodgedUnit, Position
from engine.diplomacy._retreat import retreat_options

MOVES = "# Moves: A par - bur   Support: A mar S A par - bur   Convoy: F nth C A lon - bel"


def order_form(map: Map, position: Position, power: str, on_file: Sequence[str]) -> list[str]:
    """The form's lines for ``power`` in the phase ``position`` is at."""
    filed = {unit_key(line): line for line in on_file if line != DRAW}
    kind = position.phase.kind
    lines = [f"# Orders for {power}, {position.phase} (lines starting with # are ignored)."]
    if filed:
        lines.append("# Your orders on file: change the lines you want to change and send the form back.")
    if kind == "movement":
        lines += [filed.get(str(u), f"{u} H") for u in position.units_of(power)]
        lines.append(MOVES)
    elif kind == "retreat":
        lines += [_retreat_line(map, position, d, filed) for d in position.dislodged if d.unit.power == power]
    else:
        lines += _adjustment_lines(map, position, power, filed)
    if DRAW in on_file:
        lines += [DRAW, "# `draw` is your vote for a draw; `no draw` withdraws it."]
    else:
        lines.append("# Add a line `draw` to vote (secretly) for a draw among the surviving powers.")
    return lines


def _retreat_line(map: Map, position: Position, dislodged: DislodgedUnit, filed: dict[str, str]) -> str:
    unit = str(dislodged.unit)
    options = sorted(retreat_options(map, position, dislodged))
    order = filed.get(unit, f"{unit} D")
    if not options:
        return f"{order}   # no retreat is possible: the unit is disbanded"
    others = f"{unit} D, or " if order != f"{unit} D" else ""
    return f"{order}   # or {others}{unit} R <province>, one of: {', '.join(options)}"


def _adjustment_lines(map: Map, position: Position, power: str, filed: dict[str, str]) -> list[str]:
    due = adjustment_due(map, position, power)
    if due > 0:
        free = free_home_centres(map, position, power)
        places = ", ".join(_build_places(map, province) for province in free)
        lines = [
            f"# Builds due: {due} (A {free[0]} B / F <centre> B / waive). Free home centres: {places}.",
            "# A build not ordered is waived.",
        ]
    else:
        units = ", ".join(str(u) for u in position.units_of(power))
        lines = [
            f"# Disbands due: {-due} (F tri D). Your units: {units}.",
            "# A disband not ordered: the unit farthest from your centres goes.",
        ]
    return lines + list(filed.values())


def _build_places(map: Map, province: str) -> str:
    """A free home centre as a build names it: a fleet needs the coast where there are two."""
    coasts = map.fleet_locations(province) if map.provinces[province].coasts else []
    return f"{province} (fleets: {' or '.join(coasts)})" if coasts else province
