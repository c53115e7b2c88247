"""The public JSON form of a Diplomacy position, and ``courier resolve diplomacy``.

A request is a position plus ``orders`` (power → order lines); the answer is the position at the
next phase that needs orders plus ``order_results``, so the output of one phase is the input of the
next. ``engine.request`` plays the phase as the tick does. The format is documented in docs/json.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import LineError, Played
from engine.diplomacy._events import OrderResolved
from engine.diplomacy._orders import Order, Unit
from engine.diplomacy._parse import parse_orders
from engine.diplomacy._position import DislodgedUnit, Phase, Position
from engine.diplomacy._results import (
    Bounced,
    ConvoyParadox,
    Dislodged,
    Duplicate,
    Illegal,
    NoConvoyRoute,
    NoneAllowed,
    OrderResult,
    Reason,
    SupportCut,
    Unmatched,
)
from engine.diplomacy._variant import Variant, find_variant

JSON = dict[str, Any]


def position_to_json(variant: Variant, position: Position) -> JSON:
    phase = position.phase
    return {
        "variant": variant.name,
        "phase": {"season": phase.season, "year": phase.year, "kind": phase.kind},
        "units": [_unit(u) for u in sorted(position.units)],
        "dislodged": [
            {
                **_unit(d.unit),
                "attacker_from": d.attacker_from,
                **({"via_convoy": True} if d.via_convoy else {}),
            }
            for d in position.dislodged
        ],
        "contested": sorted(position.contested),
        "supply_centers": {p: sorted(scs) for p, scs in sorted(position.supply_centers.items()) if scs},
    }


def position_from_json(data: Mapping[str, Any]) -> tuple[Variant, Position]:
    """Read a position; a missing ``supply_centers`` means each power owns its home centres."""
    try:
        variant = find_variant(str(data.get("variant", "standard")))
    except KeyError as e:
        raise ValueError(e.args[0]) from None
    phase = data.get("phase")
    if not isinstance(phase, Mapping):
        raise ValueError('“phase” must be an object: {"season": …, "year": …, "kind": …}')
    try:
        season, kind, year = str(phase["season"]).lower(), str(phase["kind"]).lower(), int(phase["year"])
        units = tuple(sorted(_read_unit(variant, u) for u in data.get("units", ())))
        dislodged = tuple(
            DislodgedUnit(_read_unit(variant, d), str(d["attacker_from"]).lower(), bool(d.get("via_convoy")))
            for d in data.get("dislodged", ())
        )
    except (KeyError, TypeError) as e:
        raise ValueError(f"a unit or the phase lacks {e}") from None
    if season not in (*variant.seasons, "winter") or kind not in ("movement", "retreat", "adjustment"):
        raise ValueError(f"no phase {season} {kind} in {variant.name}")
    centres = data.get("supply_centers")
    if centres is None:
        centres = {
            p.home_of: [k for k, q in variant.map.provinces.items() if q.home_of == p.home_of]
            for p in variant.map.provinces.values()
            if p.home_of
        }
    position = Position(
        phase=Phase(year, season, kind),  # type: ignore[arg-type]
        units=units,
        dislodged=dislodged,
        contested=frozenset(str(c).lower() for c in data.get("contested", ())),
        supply_centers={str(p): frozenset(str(s).lower() for s in scs) for p, scs in centres.items()},
    )
    return variant, position


def _dislodged(dislodged: DislodgedUnit) -> JSON:
    convoyed = {"via_convoy": True} if dislodged.via_convoy else {}
    return {**_unit(dislodged.unit), "attacker_from": dislodged.attacker_from, **convoyed}


def _unit(unit: Unit) -> JSON:
    return {"power": unit.power, "type": unit.type, "location": unit.location}


def _read_unit(variant: Variant, data: Mapping[str, Any]) -> Unit:
    unit = Unit(str(data["power"]), str(data["type"]).upper(), str(data["location"]).lower())  # type: ignore[arg-type]
    if unit.type not in ("A", "F") or not variant.map.can_hold(unit.type, unit.location):
        raise ValueError(f"no {unit.type} can stand in {unit.location!r}")
    return unit


def request_position(request: Mapping[str, Any]) -> tuple[Variant, Position, dict[str, str]]:
    """A request's position, and each power's order lines as one text."""
    variant, position = position_from_json(request)
    by_power = request.get("orders", {})
    if not isinstance(by_power, Mapping):
        raise ValueError("“orders” must map each power to a list of order lines")
    texts = {
        str(p): "\n".join(lines) if isinstance(lines, list) else str(lines) for p, lines in by_power.items()
    }
    return variant, position, texts


def answer_json(variant: Variant, played: Played) -> JSON:
    """The position at the next phase that needs orders, and every order's result: those the
    adjudicator judged, then the lines it could not read, quoted."""
    answer = position_to_json(variant, played.resolution.state.position)
    judged = [
        {"power": e.power, "order": e.order, "result": e.result, "reason": e.reason}
        for e in played.resolution.events
        if isinstance(e, OrderResolved)
    ]
    mails = [*played.submissions.values(), *played.refused.values()]
    answer["order_results"] = judged + [_refusal(s.player, e) for s in mails for e in s.errors]
    return answer


def read_orders(
    variant: Variant, position: Position, by_power: Mapping[str, Sequence[str]]
) -> tuple[list[Order], list[JSON]]:
    """Every power's order lines, parsed against the position; unreadable lines come back as
    ``illegal`` results quoting the line."""
    if not isinstance(by_power, Mapping):
        raise ValueError("“orders” must map each power to a list of order lines")
    orderable = (
        [d.unit for d in position.dislodged] if position.phase.kind == "retreat" else list(position.units)
    )
    orders: list[Order] = []
    refused: list[JSON] = []
    for power, lines in by_power.items():
        text = "\n".join(lines) if isinstance(lines, list) else str(lines)
        parsed, errors, _ = parse_orders(
            variant.map, orderable, power=power, phase_kind=position.phase.kind, text=text
        )
        orders.extend(parsed)
        refused.extend(_refusal(power, e) for e in errors)
    return orders, refused


def _refusal(power: str, error: LineError) -> JSON:
    return {"power": power, "order": error.line, "result": "illegal", "reason": str(error)}


def result_to_json(result: OrderResult) -> JSON:
    order = result.order
    power = order.unit.power if hasattr(order, "unit") else getattr(order, "power", "")
    verdict = "succeeds" if result.succeeded else ("illegal" if result.illegal else "fails")
    return {"power": power, "order": str(order), "result": verdict, "reason": reason_text(result.reason)}


def reason_text(reason: Reason | None) -> str | None:
    """A short English gloss of a failure reason (the reason itself stays data)."""
    match reason:
        case None:
            return None
        case Illegal(reason=why):
            return f"illegal: {why}"
        case Bounced(by=by):
            return f"bounced ({', '.join(by)})" if by else "bounced"
        case Dislodged(by_from=origin):
            return f"dislodged by the unit from {origin}"
        case SupportCut(by_from=origin):
            return f"support cut by the unit from {origin}"
        case NoConvoyRoute():
            return "no convoy route"
        case ConvoyParadox():
            return "convoy paradox (Szykman rule: the convoyed army holds)"
        case Unmatched():
            return "the supported or convoyed unit did not make that move"
        case NoneAllowed():
            return "no build or disband of this kind is due"
        case Duplicate():
            return "a second order for the same unit or place"
    return type(reason).__name__
