"""The phase machine: which phase follows which, skipping phases nobody has to order for, and
the change of centre ownership at the end of each year's last movement season."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from engine.diplomacy._board import map_index
from engine.diplomacy._map import Map
from engine.diplomacy._orders import Unit
from engine.diplomacy._position import DislodgedUnit, Phase, Position, Season

STANDARD_SEASONS: tuple[Season, ...] = ("spring", "fall")
"""The movement seasons of a year, in order; the adjustment phase follows the last one."""


def after_movement(
    map: Map,
    position: Position,
    units: tuple[Unit, ...],
    dislodged: tuple[DislodgedUnit, ...],
    contested: frozenset[str],
    *,
    seasons: Sequence[Season] = STANDARD_SEASONS,
) -> Position:
    phase = position.phase
    if dislodged:
        retreats = Phase(phase.year, phase.season, "retreat")
        return Position(retreats, units, dislodged, contested, position.supply_centers)
    return _next_season(map, phase, units, position.supply_centers, seasons)


def end_of_season(map: Map, position: Position, *, seasons: Sequence[Season] = STANDARD_SEASONS) -> Position:
    """The position once a season's movement and retreats are over."""
    return _next_season(map, position.phase, position.units, position.supply_centers, seasons)


def _next_season(
    map: Map,
    phase: Phase,
    units: tuple[Unit, ...],
    centres: Mapping[str, frozenset[str]],
    seasons: Sequence[Season],
) -> Position:
    """The position of the next phase that needs orders, with these units and centres. Each
    position is built once: this runs after every movement phase."""
    if phase.season != seasons[-1]:
        following = Phase(phase.year, seasons[seasons.index(phase.season) + 1], "movement")
        return Position(following, units, supply_centers=centres)
    centres = _owned_centres(map, centres, units)
    adjusting = Position(Phase(phase.year, "winter", "adjustment"), units, supply_centers=centres)
    if adjustments_due(map, adjusting):
        return adjusting
    return Position(Phase(phase.year + 1, seasons[0], "movement"), units, supply_centers=centres)


def after_adjustments(position: Position, *, seasons: Sequence[Season] = STANDARD_SEASONS) -> Position:
    return replace(position, phase=Phase(position.phase.year + 1, seasons[0], "movement"))


def update_ownership(map: Map, position: Position) -> Position:
    """A centre belongs to the power whose unit stands in it; empty centres keep their owner."""
    return replace(position, supply_centers=_owned_centres(map, position.supply_centers, position.units))


def _owned_centres(
    map: Map, centres: Mapping[str, frozenset[str]], units: tuple[Unit, ...]
) -> Mapping[str, frozenset[str]]:
    """``centres`` as they are once every centre with a unit in it belongs to the unit's power
    (the same mapping if nothing changes hands). Every power listed stays listed."""
    centre_at = map_index(map).centre_at
    taken = {
        centre: unit.power
        for unit in units
        if (centre := centre_at.get(unit.location)) is not None and centre not in centres.get(unit.power, ())
    }
    if not taken:
        return centres
    owned = dict(centres)
    for centre, taker in taken.items():
        loser = next((p for p, scs in owned.items() if centre in scs), None)
        if loser is not None:
            owned[loser] = owned[loser] - {centre}
        owned[taker] = owned.get(taker, frozenset()) | {centre}
    return {p: owned[p] for p in sorted(owned)}


def adjustment_due(map: Map, position: Position, power: str) -> int:
    """Builds (positive) or disbands (negative) a power may or must make; builds are capped by
    the owned home centres left empty."""
    surplus = len(position.centres_of(power)) - len(position.units_of(power))
    if surplus <= 0:
        return surplus
    return min(surplus, len(free_home_centres(map, position, power)))


def free_home_centres(map: Map, position: Position, power: str) -> list[str]:
    occupied = position.by_province
    return sorted(
        sc for sc in position.centres_of(power) if map.provinces[sc].home_of == power and sc not in occupied
    )


def adjustments_due(map: Map, position: Position) -> bool:
    """Whether any power has an ``adjustment_due``: units counted once for all powers, and free
    home centres looked for only when no power must disband."""
    units: dict[str, int] = {}
    for unit in position.units:  # a plain count: ``Counter`` checks its argument's type at length
        units[unit.power] = units.get(unit.power, 0) + 1
    surplus = {
        power: len(centres) - units.pop(power, 0) for power, centres in position.supply_centers.items()
    }
    if units or any(n < 0 for n in surplus.values()):  # a power with more units than centres
        return True
    return any(n > 0 and free_home_centres(map, position, power) for power, n in surplus.items())


def solo_winner(position: Position, solo_centers: int) -> str | None:
    return next((p for p, scs in position.supply_centers.items() if len(scs) >= solo_centers), None)
