"""The fog of war over a phase's report: who may read a line, and what of it."""

from __future__ import annotations

import re

from engine.diplomacy import Position
from engine.startrek._factions import MAP, visible_systems
from engine.startrek._state import StarTrekState


class Sight:
    """The fog of war over one phase's report: a player reads a line only when they see every
    system it names (before or after the phase); a faction always reads its own lines."""

    def __init__(self, state: StarTrekState, before: Position) -> None:
        self.factions = state.factions
        self.sight: dict[str, frozenset[str]] | None = None
        if state.options.fog:
            self.sight = {
                p: visible_systems(before, f) | visible_systems(state.position, f)
                for p, f in state.factions.items()
            }

    def sees(self, player: str, text: str | None) -> bool:
        return self.sight is None or _named(text) <= self.sight[player]

    def who(self, owners: set[str], text: str) -> frozenset[str] | None:
        """Everyone without fog (``None``); with it, the owners and those who see ``text``."""
        if self.sight is None:
            return None
        return frozenset(p for p, f in self.factions.items() if f in owners or self.sees(p, text))

    def tell(
        self,
        owners: set[str],
        text: str,
        detail: str | None,
        vague: str | None,
        privy: set[str] | None = None,
    ) -> list[tuple[str | None, frozenset[str] | None]]:
        """A line ``text`` with its ``detail`` (a reason, a place), as (detail, audience) pairs:
        the detail for whoever sees the systems it names (and belongs to a ``privy`` faction, if
        given), ``vague`` for the other readers of ``text``. The first pair always comes, so the
        organiser's report has the whole story."""
        readers = self.who(owners, text)
        if readers is None and privy is None:
            return [(detail, None)]
        readers = frozenset(self.factions) if readers is None else readers
        told = frozenset(
            p for p in readers if self.sees(p, detail) and (privy is None or self.factions[p] in privy)
        )
        pairs: list[tuple[str | None, frozenset[str] | None]] = [(detail, told)]
        if readers - told:
            pairs.append((None if _named(vague) else vague, readers - told))
        return pairs


def _named(text: str | None) -> set[str]:
    """The systems a line names."""
    return {w for w in re.findall(r"[a-z0-9_]+", text or "") if w in MAP.provinces}
