"""Games Google Sheets did not serve this tick go first at the next.

The tick's one budget of Sheets requests (courier/backends/sheets_quota.py) may run out before the
last game: the quota is used up, the tick has waited all it may, or Google keeps failing. A game
it did not reach, or whose request gave up, waits with nothing lost (its mail stays in the journal,
its sheet catches up), and the journal remembers it (``SHEETS_BEHIND``): the next tick loads and
publishes those games before the others, so a deployment larger than one tick's quota serves every
game in turn instead of always starving the same last ones. The games not reached are one line of
the tick, not one each, and no mail to any organiser: a passing limit is the operator's (cron's).
"""

from __future__ import annotations

from collections.abc import Sequence

from courier.config.deployment import GameSource
from courier.journal.meta import SHEETS_BEHIND
from courier.state.context import Tick

SHOWN = 10  # games named in the tick's line; the rest are counted


def in_order(tick: Tick, sources: Sequence[GameSource]) -> list[GameSource]:
    """The deployment's games, those left behind by the last tick first (in the order it met them)."""
    behind = SHEETS_BEHIND.get(tick.journal) or []
    rank = {game_id: n for n, game_id in enumerate(behind)}
    return sorted(sources, key=lambda source: rank.get(source.id, len(rank)))


def left_behind(tick: Tick, game_id: str, *, reached: bool) -> None:
    """``game_id`` was not served this tick: ``reached`` when its request went out and gave up (its
    own line says so), else the quota sent none (``remember`` names it)."""
    tick.behind.setdefault(game_id, reached)


def remember(tick: Tick) -> None:
    """After the tick's Sheets work: keep the games left behind for the next tick, and say in one
    line which games the quota did not reach, and why."""
    behind = list(tick.behind)
    if behind != (SHEETS_BEHIND.get(tick.journal) or []):
        if behind:
            SHEETS_BEHIND.set(tick.journal, "", behind)
        else:
            with tick.journal.transaction() as db:
                SHEETS_BEHIND.delete(db)
    waiting = [game_id for game_id, reached in tick.behind.items() if not reached]
    if not waiting:
        return
    named = ", ".join(waiting[:SHOWN])
    if len(waiting) > SHOWN:
        named += f" and {len(waiting) - SHOWN} more"
    why = tick.sheets_quota.stopped if tick.sheets_quota else ""
    tick.problem(
        f"Google Sheets: {why or 'not reached'}; {len(waiting)} game(s) wait for the next tick, which"
        f" does them first: {named}"
    )
