"""``courier resolve startrek``: a request is a game state (as ``to_json`` writes it, or just a
``setup`` with ``players`` and ``options``) plus ``orders`` (player → order text) and ``seed``; the
answer is the state after the phase and the events, so one answer feeds the next request."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core import event_to_json, play_phase, rng_for

if TYPE_CHECKING:
    from engine.startrek._ruleset import StarTrek


def resolve_request(ruleset: StarTrek, request: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(request, Mapping):
        raise ValueError("a request is a JSON object: a state (or a setup) plus “orders”")
    seed = str(request.get("seed", 0))
    if "state" in request:
        state = ruleset.from_json(request["state"])
    else:
        setup = request.get("setup", {})
        state = ruleset.setup(
            list(setup.get("players", ())), dict(setup.get("options", {})), rng_for(seed, "setup")
        )
    orders = request.get("orders", {})
    if not isinstance(orders, Mapping):
        raise ValueError("“orders” must map each player to their order text")
    texts = {p: t if isinstance(t, str) else "\n".join(t) for p, t in orders.items()}
    submissions, resolution = play_phase(ruleset, state, texts, seed)
    return {
        "state": ruleset.to_json(resolution.state),
        "phase": ruleset.phase(resolution.state).label,
        "events": [event_to_json(e) for e in resolution.events],
        "receipts": {p: s.to_json() for p, s in submissions.items()},
    }
