"""Talossan RISK (seed 004): conquer the map of Talossa by Action Plans sent by mail.

``TALOSSA`` is the ruleset the shell uses; ``load_map`` checks a map in the documented format
(see ``engine.talossa._map``); the event classes are exported for templates and tests.
"""

from __future__ import annotations

from engine.talossa._events import (
    EVENT_TYPES,
    ActionFailed,
    BattleFought,
    CapitalDeclarationDue,
    CapitalDeclared,
    ConquerorJoined,
    CountryFell,
    ForceProduced,
    FreeLandConquered,
    GameWon,
    LandCaptured,
    LandNamed,
    LegFailed,
    PlanPublished,
    Reinforced,
    StartingLandAssigned,
    StepBegun,
    StrongholdChanged,
    StrongholdLost,
    Throw,
    UnitsMoved,
)
from engine.talossa._map import GameMap, Land, MapError, find_map, load_map
from engine.talossa._ruleset import Talossa
from engine.talossa._state import Board, Country, Holding, TalossaState
from engine.talossa._talossa_map import TALOSSA_MAP

__all__ = [
    "EVENT_TYPES",
    "TALOSSA",
    "TALOSSA_MAP",
    "ActionFailed",
    "BattleFought",
    "Board",
    "CapitalDeclarationDue",
    "CapitalDeclared",
    "ConquerorJoined",
    "Country",
    "CountryFell",
    "ForceProduced",
    "FreeLandConquered",
    "GameMap",
    "GameWon",
    "Holding",
    "Land",
    "LandCaptured",
    "LandNamed",
    "LegFailed",
    "MapError",
    "PlanPublished",
    "Reinforced",
    "StartingLandAssigned",
    "StepBegun",
    "StrongholdChanged",
    "StrongholdLost",
    "Talossa",
    "TalossaState",
    "Throw",
    "UnitsMoved",
    "find_map",
    "load_map",
]

TALOSSA = Talossa()
