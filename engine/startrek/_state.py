"""Where a Star Trek game stands: the Diplomacy position plus what the abilities remember (latinum,
once-per-game uses, the Klingon rage, secret alliances) and, during an intelligence window, the
orders given at the main deadline. JSON round-trips it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import Outcome
from engine.diplomacy import Position, position_from_json, position_to_json
from engine.startrek._factions import VARIANT


@dataclass(frozen=True)
class Options:
    fog: bool = False  # each faction sees only systems next to its units and centres
    window: bool = True  # informed factions may amend after the main deadline (else: information only)
    allied_centres: int = 24  # centres a registered alliance needs together; 0: no allied victory
    latinum_public: bool = False  # the Ferengi treasury on the public ledger


@dataclass(frozen=True)
class YearRecord:
    year: int
    centres: Mapping[str, int]
    latinum: int


@dataclass(frozen=True)
class Route:
    """A move or retreat of the last phase, for the map: who reads its order line (``None``:
    everybody; under the fog of war the players who see the systems it names)."""

    faction: str
    kind: str  # move | retreat
    origin: str
    target: str
    succeeded: bool
    audience: frozenset[str] | None = None


@dataclass(frozen=True)
class StarTrekState:
    position: Position
    factions: Mapping[str, str]  # player -> faction
    options: Options = Options()
    latinum: int = 0
    used: frozenset[str] = frozenset()  # once-per-game abilities spent: immunity, tal shiar, freeze
    rage: bool = False
    alliances: frozenset[tuple[str, str]] = frozenset()  # (faction, the faction it declared for)
    openly: frozenset[tuple[str, str]] = frozenset()  # those declared openly: public once both are
    held: Mapping[str, tuple[str, ...]] | None = None  # in a window: each player's orders at the deadline
    informed: frozenset[str] = frozenset()  # players who may amend in the window
    result: Outcome | None = None
    phases: int = 1
    history: tuple[YearRecord, ...] = field(default=())
    routes: tuple[Route, ...] = ()  # the last phase's moves and retreats, drawn as arrows
    # player -> the lines standing in this phase as their mails left them (the form shows them): private
    on_file: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def player_of(self, faction: str) -> str | None:
        return next((p for p, f in self.factions.items() if f == faction), None)


def state_to_json(state: StarTrekState) -> dict[str, Any]:
    result = state.result
    return {
        **position_to_json(VARIANT, state.position),
        "factions": dict(state.factions),
        "options": {
            "fog": state.options.fog,
            "window": state.options.window,
            "allied_centres": state.options.allied_centres,
            "latinum_public": state.options.latinum_public,
        },
        "latinum": state.latinum,
        "used": sorted(state.used),
        "rage": state.rage,
        "alliances": sorted([a, b] for a, b in state.alliances),
        "openly": sorted([a, b] for a, b in state.openly),
        "held": None if state.held is None else {p: list(o) for p, o in state.held.items()},
        "informed": sorted(state.informed),
        "result": None
        if result is None
        else {
            "ranking": [list(g) for g in result.ranking],
            "winners": list(result.winners),
            "reason": result.reason,
        },
        "phases": state.phases,
        "history": [
            {"year": r.year, "centres": dict(r.centres), "latinum": r.latinum} for r in state.history
        ],
        "routes": [_route_json(r) for r in state.routes],
        **({"orders_on_file": {p: list(o) for p, o in state.on_file.items()}} if state.on_file else {}),
    }


def _route_json(route: Route) -> dict[str, Any]:
    audience = None if route.audience is None else sorted(route.audience)
    return {
        "faction": route.faction,
        "kind": route.kind,
        "from": route.origin,
        "to": route.target,
        "succeeded": route.succeeded,
        "audience": audience,
    }


def _route(data: Mapping[str, Any]) -> Route:
    audience = data.get("audience")
    return Route(
        faction=str(data["faction"]),
        kind=str(data["kind"]),
        origin=str(data["from"]),
        target=str(data["to"]),
        succeeded=bool(data["succeeded"]),
        audience=None if audience is None else frozenset(audience),
    )


def state_from_json(data: Mapping[str, Any]) -> StarTrekState:
    _, position = position_from_json({**data, "variant": "startrek"})
    result = data.get("result")
    held = data.get("held")
    return StarTrekState(
        position=position,
        factions=dict(data["factions"]),
        options=Options(**data.get("options", {})),
        latinum=int(data.get("latinum", 0)),
        used=frozenset(data.get("used", ())),
        rage=bool(data.get("rage", False)),
        alliances=frozenset((a, b) for a, b in data.get("alliances", ())),
        openly=frozenset((a, b) for a, b in data.get("openly", ())),
        held=None if held is None else {p: tuple(o) for p, o in held.items()},
        informed=frozenset(data.get("informed", ())),
        result=None
        if result is None
        else Outcome(tuple(tuple(g) for g in result["ranking"]), tuple(result["winners"]), result["reason"]),
        phases=int(data.get("phases", 1)),
        history=tuple(
            YearRecord(int(r["year"]), dict(r["centres"]), int(r["latinum"])) for r in data.get("history", ())
        ),
        routes=tuple(_route(r) for r in data.get("routes", ())),
        on_file={str(p): tuple(map(str, o)) for p, o in data.get("orders_on_file", {}).items()},
    )
