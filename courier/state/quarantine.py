"""A game that keeps failing is set aside, so it cannot take the other games down with it.

A game whose steps fail in ``quarantine_after`` ticks in a row (a broken sheet, a bug in its rules)
is quarantined: its mail waits in the journal, the other games go on, the organiser gets one mail
naming the error and how to release it (``courier release GAME``), and ``courier status`` shows it.
A passing outage (a backend's TransientError) counts for nothing.
"""

from __future__ import annotations

import logging

from courier.journal.interface import Journal
from courier.journal.meta import FAILURES, QUARANTINE
from courier.state.context import Tick

log = logging.getLogger(__name__)


def quarantined(journal: Journal) -> dict[str, str]:
    """Every quarantined game with the error that put it there."""
    return QUARANTINE.every(journal)


def settle_failures(tick: Tick) -> None:
    """After a tick: count a failure for each game that failed, clear the count of the others."""
    for source in tick.deployment.games:
        error = tick.failed_games.get(source.id)
        failures = FAILURES.get(tick.journal, source.id)
        if error is None:
            if failures:
                FAILURES.set(tick.journal, source.id, 0)
            continue
        count = (failures or 0) + 1
        FAILURES.set(tick.journal, source.id, count)
        if count >= tick.deployment.quarantine_after and source.id not in quarantined(tick.journal):
            _quarantine(tick, source.id, source.organiser, error, count)


def _quarantine(tick: Tick, game_id: str, organiser: str, error: str, count: int) -> None:
    QUARANTINE.set(tick.journal, game_id, error)
    notice = (
        f"game {game_id} failed in {count} ticks in a row and is set aside; the other games go on and "
        f"its players' mail waits. The last error: {error}. Fix it, then run `courier release {game_id}`."
    )
    tick.problem(notice)
    tick.tell_organiser(game_id, organiser, notice)


def release(journal: Journal, game_id: str) -> bool:
    """Put a quarantined game back into play; False if it was not quarantined."""
    if game_id not in quarantined(journal):
        return False
    with journal.transaction() as db:
        QUARANTINE.delete(db, game_id)
        FAILURES.put(db, game_id, 0)
    log.info("game %s released", game_id)
    return True
