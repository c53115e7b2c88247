"""``courier resolve truce``: one round from a JSON request to a JSON answer (format in docs/json.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Outcome, Played, event_to_json
from engine.truce._events import CoinsRemoved
from engine.truce._state import JSON, MIN_PLAYERS, Player, Result, TruceState
from engine.truce._view import decide


def read_request(request: Mapping[str, Any]) -> tuple[TruceState, dict[str, str]]:
    """The round's state (the format above) and each player's orders, in the players' order."""
    state = read_state(request.get("state"))
    return state, _read_orders(request.get("orders", {}), state)


def answer_json(played: Played) -> JSON:
    """The round resolved: each player's result, the coins that left the game (gifts' included),
    every event (the gifts on receipt first), each player's errors, the outcome after the last
    round. Truce has no chance, so the seed changes nothing."""
    after = played.resolution.state
    events = [*played.received, *played.resolution.events]
    outcome = decide(after) if after.finished else None
    return {
        "state": write_state(after),
        "results": {r.player: _result_json(r) for r in after.last},
        "removed": sum(e.coins for e in events if isinstance(e, CoinsRemoved)),
        "events": [event_to_json(e) for e in events],
        "errors": {p: [e.to_json() for e in s.errors] for p, s in played.submissions.items() if s.errors},
        "outcome": None if outcome is None else _outcome_json(outcome),
    }


def read_state(data: Any) -> TruceState:
    if not isinstance(data, Mapping):
        raise ValueError("“state” must be an object with round, rounds, stash and players")
    round_, rounds, stash = (_count(data, key) for key in ("round", "rounds", "stash"))
    if not 1 <= round_ <= rounds:
        raise ValueError(f"state: round {round_} is not a round of a {rounds}-round game")
    players = data.get("players")
    if not isinstance(players, list) or len(players) < MIN_PLAYERS:
        raise ValueError(f"state: “players” must be a list of at least {MIN_PLAYERS} players")
    records = tuple(_player(p) for p in players)
    names = [p.name for p in records]
    if len(set(names)) != len(names):
        raise ValueError(f"state: player names must be distinct, got {names}")
    nicknames = data.get("nicknames", {})
    if not isinstance(nicknames, Mapping) or not set(nicknames) <= set(names):
        raise ValueError("state: “nicknames” must map player names to lists of nicknames")
    return TruceState(
        players=records,
        stash=stash,
        round=round_,
        rounds=rounds,
        nicknames=tuple((n, tuple(str(k) for k in nicknames[n])) for n in names if n in nicknames),
    )


def write_state(state: TruceState) -> JSON:
    data: JSON = {
        "round": state.round,
        "rounds": state.rounds,
        "stash": state.stash,
        "players": [{"name": p.name, "supply": p.supply, "spoils": p.spoils} for p in state.players],
    }
    if state.nicknames:
        data["nicknames"] = {name: list(nicks) for name, nicks in state.nicknames}
    return data


def _count(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"state: “{key}” must be a whole number ≥ 0, got {value!r}")
    return value


def _player(data: Any) -> Player:
    if not isinstance(data, Mapping) or not isinstance(data.get("name"), str) or not data["name"].strip():
        raise ValueError(f"state: each player needs a “name”, got {data!r}")
    return Player(data["name"], _count(data, "supply"), _count({"spoils": 0, **data}, "spoils"))


def _read_orders(orders: Any, state: TruceState) -> dict[str, str]:
    if not isinstance(orders, Mapping):
        raise ValueError("“orders” must map player names to their order text")
    unknown = sorted(set(orders) - set(state.names))
    if unknown:
        raise ValueError(f"orders for unknown players {unknown}; the players are {list(state.names)}")
    if not all(isinstance(text, str) for text in orders.values()):
        raise ValueError("each player's orders must be a string")
    return {p: orders[p] for p in state.names if p in orders}


def _result_json(result: Result) -> JSON:
    return {
        "action": result.action,
        "target": result.target,
        "valid": result.valid,
        "reason": result.reason,
        "supporters": result.supporters,
    }


def _outcome_json(outcome: Outcome) -> JSON:
    return {
        "winners": list(outcome.winners),
        "ranking": [list(g) for g in outcome.ranking],
        "reason": outcome.reason,
    }
