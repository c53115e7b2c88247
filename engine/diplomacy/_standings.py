"""The standings of a game the organiser ends early (issue 29 QA): by Diplomacy's convention no
power wins alone then; the end is a draw among the surviving powers (every power still holding a
supply centre), ranked by centres. Star Trek uses the same rule."""

from __future__ import annotations

from collections.abc import Mapping

from engine.core import Outcome, rank_by
from engine.diplomacy._position import Position


def draw_among_survivors(players: Mapping[str, str], position: Position) -> Outcome:
    """``players`` maps each player to its power (or faction). The ranking is every player by
    centres, most first; the winners are those still holding a centre, sharing the draw."""

    def centres(player: str) -> int:
        return len(position.centres_of(players[player]))

    ranking = rank_by(players, centres)
    survivors = tuple(p for group in ranking for p in group if centres(p) > 0)
    named = ", ".join(f"{p} ({players[p]}, {centres(p)})" for p in survivors)
    return Outcome(ranking, survivors, f"a draw among the surviving powers, ranked by centres: {named}")
