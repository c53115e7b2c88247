"""``courier resolve veneer``: one phase from a JSON request to a JSON answer (format in the README).

Request: ``{"state": …, "orders": {player: text}, "seed": "…"}``; instead of ``state``, give
``"players": [...]`` (and optionally ``"options"``) to start a new game with that seed. Answer:
``{"state", "phase", "awaiting", "events", "errors", "outcome"}``; ``state`` is the state at the
next phase someone must act in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Submission, event_to_json
from engine.veneer._phases import awaiting, card_holders, phase_of
from engine.veneer._resolve import resolve_stage
from engine.veneer._setup import new_game
from engine.veneer._state import JSON, VeneerState, state_from_json, state_to_json
from engine.veneer._view import decide


def resolve_request(request: Mapping[str, Any], read: Callable[[VeneerState, str, str], Submission]) -> JSON:
    """``read`` is the ruleset's ``parse``, so orders read as in mail. Bad input → ``ValueError``
    saying what is wrong."""
    if not isinstance(request, Mapping):
        raise ValueError("the request must be a JSON object with “state”, “orders” and “seed”")
    seed = request.get("seed", "")
    if not isinstance(seed, (str, int)):
        raise ValueError("“seed” must be a string or a number")
    rng = random.Random(str(seed))
    state = _state(request, rng)
    orders = request.get("orders", {})
    if not isinstance(orders, Mapping) or not all(isinstance(t, str) for t in orders.values()):
        raise ValueError("“orders” must map player names to their order text")
    unknown = sorted(set(orders) - set(state.names))
    if unknown:
        raise ValueError(f"orders for unknown players {unknown}; the players are {list(state.names)}")
    waiting = awaiting(state) | card_holders(state)  # card holders may play at any time
    submissions = {p: read(state, p, orders[p]) for p in state.names if p in orders and p in waiting}
    after, events = resolve_stage(state, submissions, rng)
    outcome = decide(after)
    return {
        "state": state_to_json(after),
        "phase": phase_of(after).key,
        "awaiting": sorted(awaiting(after)),
        "events": [event_to_json(e) for e in events],
        "errors": {p: [e.to_json() for e in s.errors] for p, s in submissions.items() if s.errors},
        "ignored": sorted(p for p in orders if p not in waiting),
        "outcome": None
        if outcome is None
        else {
            "winners": list(outcome.winners),
            "ranking": [list(g) for g in outcome.ranking],
            "reason": outcome.reason,
        },
    }


def _state(request: Mapping[str, Any], rng: random.Random) -> VeneerState:
    if "state" in request:
        try:
            return state_from_json(request["state"])
        except (KeyError, TypeError) as e:
            raise ValueError(f"“state” is not a Veneer state: missing or wrong {e}") from e
    players = request.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ValueError("give a “state”, or “players” (a list of names) to start a new game")
    return new_game(players, request.get("options", {}), rng)
