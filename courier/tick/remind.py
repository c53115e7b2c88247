"""Step 6: remind players who have not written, once per reminder window per deadline."""

from __future__ import annotations

from courier.state.context import LoadedGame, Tick
from courier.state.control import away, round_key
from courier.state.newcomers import participants
from engine.core import Standing


def send_reminders(tick: Tick, loaded: LoadedGame) -> None:
    view = tick.view(loaded.config.id)
    if view is None:
        return
    row, state = view.row, view.state
    if row.finished or row.deadline is None:
        return
    # A window that began before the round opened has nothing to remind of: the round's own
    # opening mail just went out.
    due = loaded.config.schedule.reminders_due(row.deadline, tick.now, opened_at=row.opened_at)
    if not due:
        return
    window = min(due)  # after an outage only the latest window's reminder is worth sending
    ruleset = loaded.config.ruleset
    silent = ruleset.awaiting(state) - tick.journal.standing(row.id, row.phase_key).keys()
    if isinstance(ruleset, Standing):  # orders the game keeps for them already stand
        silent = frozenset(p for p in silent if ruleset.standing(state, p) is None)
    silent -= away(tick.journal, row.id, tick.now)  # told us they are away: no reminders meanwhile
    with tick.journal.transaction() as db:
        for player in participants(loaded.config, row):
            if player.name not in silent:
                continue
            key = f"{round_key(tick.journal, row)}/reminder/{int(window.total_seconds())}/{player.name}"
            message = tick.mailer.reminder(loaded.config, player, row=row, state=state, key=key)
            tick.queue(db, key=key, message=message, game=row.id, kind="reminder")
