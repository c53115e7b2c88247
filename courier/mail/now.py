"""The top of a player's mail (issue 30): their own result of the round, in one line, and the
action asked of them now, for the subject and the block ``id="courier-now"``.

Both come from optional hooks of the game (``Headline``, ``Asked`` in ``engine/core.py``). The
headline is asked of the events the player may see only, so it cannot tell what they may not. Who
is asked anything follows the rule of ``courier/state/awaited.py`` as far as a mail can know it:
the game awaits them, their seat is not a bot's, and the game keeps no orders standing for them (a
player with orders standing is told so by the receipt and the reminder, whatever this says).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.core import Asked, Event, Headline, Standing, visible_to

if TYPE_CHECKING:
    from courier.config.game import GameConfig

__all__ = ["Now", "asked_of", "headline_of"]


def headline_of(ruleset: Any, state: Any, events: Sequence[Event], viewer: str) -> str:
    """``viewer``'s own result of the phase just resolved, from the events they may see; ``""``
    when the game says nothing of it."""
    if not isinstance(ruleset, Headline):
        return ""
    return " ".join((ruleset.headline(state, visible_to(events, viewer), viewer) or "").split())


@dataclass(frozen=True)
class Now:
    """What a mail asks of its player now: ``awaited`` (the game waits for their orders) and
    ``asked``, the game's words for it ("Vote now: Disarmament"; ``""``: the shell's own words)."""

    awaited: bool
    asked: str


def asked_of(config: GameConfig, state: Any, player: str) -> Now:
    """What the open phase asks of ``player``: nothing once the game is over, when the game does
    not wait for them (they may still write, e.g. an action card), when their seat is a bot's,
    or when orders of theirs stand (``Standing``)."""
    ruleset = config.ruleset
    if ruleset.outcome(state) is not None or player not in ruleset.awaiting(state):
        return Now(False, "")
    if player in config.bots:  # a bot's seat (`absent = bot` only stands in for a silent player)
        return Now(False, "")
    if isinstance(ruleset, Standing) and ruleset.standing(state, player) is not None:
        return Now(False, "")
    asked = ruleset.asked(state, player) if isinstance(ruleset, Asked) else None
    return Now(True, " ".join((asked or "").split()))
