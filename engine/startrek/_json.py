"""``courier resolve startrek``'s answer (the request is ``engine.request``'s: a game state as
``to_json`` writes it, or a ``setup`` with ``players`` and ``options``, plus ``orders`` and
``seed``): the state after the phase and the events, so one answer feeds the next request."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import Played, event_to_json

if TYPE_CHECKING:
    from engine.startrek._ruleset import StarTrek


def answer_json(ruleset: StarTrek, played: Played) -> dict[str, Any]:
    after = played.resolution.state
    return {
        "state": ruleset.to_json(after),
        "phase": ruleset.phase(after).label,
        "events": [event_to_json(e) for e in played.resolution.events],
        "receipts": {p: s.to_json() for p, s in played.submissions.items()},
    }
