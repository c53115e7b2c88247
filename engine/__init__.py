"""Courier's rules engine: pure game logic behind one contract (see ``engine.core``)."""

from __future__ import annotations

from engine.core import Event, LineError, Outcome, Phase, Resolution, Ruleset, Submission
from engine.diplomacy import DIPLOMACY
from engine.monarchs import MONARCHS
from engine.startrek import STARTREK
from engine.talossa import TALOSSA
from engine.truce import TRUCE
from engine.veneer import VENEER

__all__ = [
    "RULESETS",
    "Event",
    "LineError",
    "Outcome",
    "Phase",
    "Resolution",
    "Ruleset",
    "Submission",
    "find_ruleset",
]

# The explicit table of games: a new game is one line here.
RULESETS: dict[str, Ruleset] = {
    ruleset.name: ruleset for ruleset in (TRUCE, DIPLOMACY, TALOSSA, STARTREK, MONARCHS, VENEER)
}


def find_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name`` (case-insensitive), or ``KeyError`` naming the known ones."""
    try:
        return RULESETS[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(RULESETS))
        raise KeyError(f"unknown game {name!r}; known games: {known}") from None
