"""``courier resolve veneer``'s answer (format in docs/json.md). The request is ``engine.request``'s:
``{"state": …, "orders": {player: text}, "seed": "…"}``, or ``"players": [...]`` (and optionally
``"options"``) instead of ``state`` to start a new game from the seed, played as the tick plays it.
Answer: ``{"state", "phase", "awaiting", "events", "errors", "ignored", "outcome"}``; ``state`` is the
state at the next phase someone must act in; ``ignored``, the players who wrote though the phase
took no orders from them."""

from __future__ import annotations

from collections.abc import Mapping

from engine.core import Played, event_to_json
from engine.veneer._phases import awaiting, phase_of
from engine.veneer._state import JSON, VeneerState, state_to_json
from engine.veneer._view import decide


def check_players(state: VeneerState, texts: Mapping[str, str]) -> None:
    """Orders come only from the game's players."""
    unknown = sorted(set(texts) - set(state.names))
    if unknown:
        raise ValueError(f"orders for unknown players {unknown}; the players are {list(state.names)}")


def answer_json(played: Played) -> JSON:
    after = played.resolution.state
    outcome = decide(after)
    return {
        "state": state_to_json(after),
        "phase": phase_of(after).key,
        "awaiting": sorted(awaiting(after)),
        "events": [event_to_json(e) for e in played.resolution.events],
        "errors": {p: [e.to_json() for e in s.errors] for p, s in played.submissions.items() if s.errors},
        "ignored": sorted(played.refused),
        "outcome": None
        if outcome is None
        else {
            "winners": list(outcome.winners),
            "ranking": [list(g) for g in outcome.ranking],
            "reason": outcome.reason,
        },
    }
