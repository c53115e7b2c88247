"""A later mail in the same phase replaces the orders of the units it orders and the ability lines
of the kinds it uses; everything else given earlier stands."""

from __future__ import annotations

from collections.abc import Sequence

from engine.startrek._parse import Ability, read_ability


def slot(line: str) -> str:
    """What a canonical line is about: ``ship earth`` for ``ship earth - vulcan``; an ability's kind."""
    ability = read_ability(line)
    if isinstance(ability, Ability):
        return f"{ability.kind} {ability.faction}" if ability.kind in ("ally", "break") else ability.kind
    return " ".join(line.split()[:2])


def combine_orders(earlier: Sequence[str], later: Sequence[str]) -> tuple[str, ...]:
    replaced = {slot(line) for line in later}
    for line in later:  # "ally with x" replaces an earlier "break with x", and the reverse
        ability = read_ability(line)
        if isinstance(ability, Ability) and ability.kind in ("ally", "break"):
            replaced |= {f"ally {ability.faction}", f"break {ability.faction}"}
    return tuple(line for line in earlier if slot(line) not in replaced) + tuple(later)


def replaced_notes(earlier: Sequence[str], later: Sequence[str]) -> list[str]:
    """What a receipt says of each line that replaced a different one on file for the same unit or
    ability: ``“ship earth H” replaces your earlier order “ship earth - vulcan”.``"""
    filed = {slot(line): line for line in earlier}
    return [
        f"“{line}” replaces your earlier order “{filed[slot(line)]}”."
        for line in later
        if slot(line) in filed and filed[slot(line)] != line
    ]
