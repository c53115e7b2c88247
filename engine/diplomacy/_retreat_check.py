"""A retreat checked when it arrives, not only at the deadline: a unit ordered to retreat where it
may not (towards its attacker, into an occupied province or a standoff, out of reach) would be
disbanded, so the receipt says why and lists where it may go instead."""

from __future__ import annotations

import difflib

from engine.diplomacy._map import Map
from engine.diplomacy._orders import Retreat, province_of
from engine.diplomacy._position import DislodgedUnit, Position
from engine.diplomacy._retreat import retreat_options


def retreat_problem(map: Map, position: Position, retreat: Retreat) -> tuple[str, str | None] | None:
    """``None`` for a retreat the unit may make; else (why not, with the places it may go, and
    the place most like the one written, ``None`` when it can only disband)."""
    dislodged = next((d for d in position.dislodged if d.unit == retreat.unit), None)
    if dislodged is None:
        return None  # not a dislodged unit of this position: the parser has said so already
    options = sorted(retreat_options(map, position, dislodged))
    if retreat.destination in options:
        return None
    target = province_of(retreat.destination)
    because = _why(map, position, dislodged, target)
    why = f"{retreat.unit} cannot retreat to {map.provinces[target].name}: {because}"
    if not options:
        return f"{why}, and there is nowhere else: it can only disband", None
    listing = " or ".join([", ".join(options[:-1]), options[-1]] if len(options) > 1 else options)
    return f"{why}; it may retreat to {listing}, or disband", _likest(map, target, options)


def _why(map: Map, position: Position, dislodged: DislodgedUnit, target: str) -> str:
    if target == dislodged.attacker_from and not dislodged.via_convoy:
        return "the attack came from there"
    occupant = position.by_province.get(target)
    if occupant is not None:
        return f"{occupant} stands there"
    if target in position.contested:
        return "a standoff there left it empty, and nobody may retreat into it"
    return f"it is not next to {map.provinces[dislodged.unit.province].name}"


def _likest(map: Map, written: str, options: list[str]) -> str:
    """The option whose name is most like the one written (the first when none is)."""

    def likeness(option: str) -> float:
        names = (option, province_of(option), map.provinces[province_of(option)].name)
        mine = (written, map.provinces[written].name)
        pairs = ((a.casefold(), b.casefold()) for a in mine for b in names)
        return max(difflib.SequenceMatcher(None, a, b).ratio() for a, b in pairs)

    return max(options, key=likeness)
