"""The phase machine: which phase follows which, skipping phases nobody has to order for, and
the change of centre ownership at the end of each year's last movement season."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
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
    if dislodged:
        retreats = replace(position.phase, kind="retreat")
        return replace(position, phase=retreats, units=units, dislodged=dislodged, contested=contested)
    return end_of_season(
        map, replace(position, units=units, dislodged=(), contested=frozenset()), seasons=seasons
    )


def end_of_season(map: Map, position: Position, *, seasons: Sequence[Season] = STANDARD_SEASONS) -> Position:
    """The position once a season's movement and retreats are over."""
    phase = position.phase
    if position.dislodged or position.contested:
        position = replace(position, dislodged=(), contested=frozenset())
    if phase.season != seasons[-1]:
        following = Phase(phase.year, seasons[seasons.index(phase.season) + 1], "movement")
        return replace(position, phase=following)
    settled = update_ownership(map, position)
    if adjustments_due(map, settled):
        return replace(settled, phase=Phase(phase.year, "winter", "adjustment"))
    return replace(settled, phase=Phase(phase.year + 1, seasons[0], "movement"))


def after_adjustments(position: Position, *, seasons: Sequence[Season] = STANDARD_SEASONS) -> Position:
    return replace(position, phase=Phase(position.phase.year + 1, seasons[0], "movement"))


def update_ownership(map: Map, position: Position) -> Position:
    """A centre belongs to the power whose unit stands in it; empty centres keep their owner."""
    owners = {sc: power for power, scs in position.supply_centers.items() for sc in scs}
    province_of_location = map_index(map).locations
    for unit in position.units:
        province = province_of_location[unit.location]
        if map.provinces[province].supply_center:
            owners[province] = unit.power
    centres: dict[str, set[str]] = {
        p: set() for p in sorted(set(position.supply_centers) | set(owners.values()))
    }
    for sc, owner in owners.items():
        centres[owner].add(sc)
    return replace(position, supply_centers={p: frozenset(scs) for p, scs in centres.items()})


def adjustment_due(map: Map, position: Position, power: str) -> int:
    """Builds (positive) or disbands (negative) a power may or must make; builds are capped by
    the owned home centres left empty."""
    surplus = len(position.centres_of(power)) - len(position.units_of(power))
    if surplus <= 0:
        return surplus
    return min(surplus, len(free_home_centres(map, position, power)))


def free_home_centres(map: Map, position: Position, power: str) -> list[str]:
    occupied = {u.province for u in position.units}
    return sorted(
        sc for sc in position.centres_of(power) if map.provinces[sc].home_of == power and sc not in occupied
    )


def adjustments_due(map: Map, position: Position) -> bool:
    """Whether any power has an ``adjustment_due``: units counted once for all powers."""
    units = Counter(u.power for u in position.units)
    for power in position.powers:
        surplus = len(position.centres_of(power)) - units[power]
        if surplus < 0 or (surplus > 0 and free_home_centres(map, position, power)):
            return True
    return False


def solo_winner(position: Position, solo_centers: int) -> str | None:
    return next((p for p, scs in position.supply_centers.items() if len(scs) >= solo_centers), None)
