"""The map between turns: who owns each hex and whose regiments stand on it (one nation per hex)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.monarchs._board import HEXES, HOMES, NATIONS, is_hex, neighbours, starting_map


@dataclass(frozen=True)
class Position:
    owners: Mapping[str, str | None]  # every hex → its nation, or None (the centre at the start)
    armies: Mapping[str, tuple[str, int]]  # occupied hexes only → (nation, regiments ≥ 1)

    @classmethod
    def start(cls) -> Position:
        owners, armies = starting_map()
        return cls(owners, armies)

    def hexes_of(self, nation: str) -> list[str]:
        return [h for h in HEXES if self.owners[h] == nation]

    def regiments_of(self, nation: str) -> int:
        return sum(n for owner, n in self.armies.values() if owner == nation)

    def visible_to(self, nation: str) -> list[str]:
        """What a nation's map shows with counts: its own hexes and their neighbours."""
        own = set(self.hexes_of(nation))
        seen = own | {n for h in own for n in neighbours(h)}
        return [h for h in HEXES if h in seen]

    def describe(self, hex_name: str) -> str:
        """``E3 red 2`` or ``I5 unowned, empty``."""
        owner = self.owners[hex_name] or "unowned"
        army = self.armies.get(hex_name)
        return f"{hex_name} {owner} {army[1]}" if army else f"{hex_name} {owner}, empty"

    def to_json(self) -> dict[str, Any]:
        return {h: {"owner": self.owners[h], "regiments": self.armies.get(h, (None, 0))[1]} for h in HEXES}

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Read ``{"E3": {"owner": "red", "regiments": 2}, ...}``; regiments stand on their owner's hex."""
        if not isinstance(data, Mapping) or set(data) != set(HEXES):
            missing = sorted(set(HEXES) - set(data)) if isinstance(data, Mapping) else []
            wrong = sorted(h for h in data if not is_hex(h)) if isinstance(data, Mapping) else []
            raise ValueError(f"the map must list all 61 hexes (missing {missing}, not hexes {wrong})")
        owners: dict[str, str | None] = {}
        armies: dict[str, tuple[str, int]] = {}
        for h in HEXES:
            cell = data[h]
            owner, count = (
                (cell.get("owner"), cell.get("regiments", 0)) if isinstance(cell, Mapping) else (0, 0)
            )
            if owner not in (*NATIONS, None) or not isinstance(count, int) or count < 0:
                raise ValueError(
                    f"{h}: owner must be red, green, blue or null and regiments ≥ 0, got {cell!r}"
                )
            if count and owner is None:
                raise ValueError(f"{h}: regiments stand on an unowned hex")
            owners[h] = owner
            if count and owner is not None:
                armies[h] = (owner, count)
        for nation, home in HOMES.items():  # unconquerable: a lost regiment always goes home
            if owners[home] != nation:
                raise ValueError(
                    f"{home} is {nation}'s home base: it belongs to {nation}, got {owners[home]}"
                )
        return cls(owners, armies)
