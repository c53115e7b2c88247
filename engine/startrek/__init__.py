"""Star Trek Diplomacy: the Diplomacy adjudicator on a three-layer map of 67 systems, with seven
factions and their abilities, latinum, secret alliances, an intelligence window and fog of war."""

from __future__ import annotations

from engine.startrek._factions import FACTIONS, MAP, SOLO_CENTRES, VARIANT, visible_systems
from engine.startrek._parse import Ability, display, read_ability, to_diplomacy
from engine.startrek._ruleset import STARTREK, StarTrek
from engine.startrek._state import Options, StarTrekState

__all__ = [
    "FACTIONS",
    "MAP",
    "SOLO_CENTRES",
    "STARTREK",
    "VARIANT",
    "Ability",
    "Options",
    "StarTrek",
    "StarTrekState",
    "display",
    "read_ability",
    "to_diplomacy",
    "visible_systems",
]
