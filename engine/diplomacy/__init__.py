"""Diplomacy: the map, positions, and the adjudicator (DATC v3.0, preferred options).

Resolve a phase with ``resolve_movement``, ``resolve_retreats`` or ``resolve_adjustments``; each
returns the result of every order and the position at the next phase that needs orders (phases
nobody has to order for are skipped, centres change hands after the last movement season).
``resolve_movement`` is ``check_movement_orders`` (legality) then ``adjudicate_movement``.

``DIPLOMACY`` is the ruleset the shell uses. Star Trek plays on this adjudicator through this face
alone: the board bot (``BoardView``, ``board_orders``), the order reader (``parse_orders``,
``Names``), the season's end (``after_movement``, ``end_of_season``) and the position's JSON form."""

from __future__ import annotations

from engine.diplomacy._adjustment import civil_disorder, resolve_adjustments
from engine.diplomacy._bot import BoardView, board_orders
from engine.diplomacy._json import position_from_json, position_to_json, read_orders, reason_text
from engine.diplomacy._legality import CheckedOrders, check_movement_orders
from engine.diplomacy._map import Map, Modifiers, Province, ProvinceKind
from engine.diplomacy._movement import adjudicate_movement, resolve_movement
from engine.diplomacy._names import Names
from engine.diplomacy._orders import (
    AdjustmentOrder,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    MovementOrder,
    Order,
    Retreat,
    RetreatOrder,
    Support,
    Unit,
    UnitType,
    Waive,
    province_of,
)
from engine.diplomacy._parse import order_vocabulary, parse_orders
from engine.diplomacy._phases import (
    adjustment_due,
    after_movement,
    end_of_season,
    free_home_centres,
    solo_winner,
    update_ownership,
)
from engine.diplomacy._position import (
    DislodgedUnit,
    Phase,
    PhaseKind,
    Position,
    Season,
    make_position,
    starting_position,
)
from engine.diplomacy._results import (
    AdjustmentResult,
    Bounced,
    ConvoyParadox,
    Dislodged,
    Duplicate,
    Illegal,
    MovementResult,
    NoConvoyRoute,
    NoneAllowed,
    OrderResult,
    Reason,
    RetreatResult,
    SupportCut,
    Unmatched,
)
from engine.diplomacy._retreat import resolve_retreats, retreat_options
from engine.diplomacy._ruleset import DIPLOMACY
from engine.diplomacy._standings import draw_among_survivors
from engine.diplomacy._variant import STANDARD, VARIANTS, Variant, find_variant

__all__ = [
    "DIPLOMACY",
    "STANDARD",
    "VARIANTS",
    "AdjustmentOrder",
    "AdjustmentResult",
    "BoardView",
    "Bounced",
    "Build",
    "CheckedOrders",
    "Convoy",
    "ConvoyParadox",
    "Disband",
    "Dislodged",
    "DislodgedUnit",
    "Duplicate",
    "Hold",
    "Illegal",
    "Map",
    "Modifiers",
    "Move",
    "MovementOrder",
    "MovementResult",
    "Names",
    "NoConvoyRoute",
    "NoneAllowed",
    "Order",
    "OrderResult",
    "Phase",
    "PhaseKind",
    "Position",
    "Province",
    "ProvinceKind",
    "Reason",
    "Retreat",
    "RetreatOrder",
    "RetreatResult",
    "Season",
    "Support",
    "SupportCut",
    "Unit",
    "UnitType",
    "Unmatched",
    "Variant",
    "Waive",
    "adjudicate_movement",
    "adjustment_due",
    "after_movement",
    "board_orders",
    "check_movement_orders",
    "civil_disorder",
    "draw_among_survivors",
    "end_of_season",
    "find_variant",
    "free_home_centres",
    "make_position",
    "order_vocabulary",
    "parse_orders",
    "position_from_json",
    "position_to_json",
    "province_of",
    "read_orders",
    "reason_text",
    "resolve_adjustments",
    "resolve_movement",
    "resolve_retreats",
    "retreat_options",
    "solo_winner",
    "starting_position",
    "update_ownership",
]
