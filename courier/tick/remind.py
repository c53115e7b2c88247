"""Step 6: remind players who have not written, once per reminder window per deadline."""

from __future__ import annotations

from courier.state.awaited import awaited
from courier.state.context import LoadedGame, Tick
from courier.state.control import round_key
from courier.state.newcomers import participants
from courier.state.news import drop, waiting


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
    # Without valid orders standing (a mail with only a typo or a gift is none), not away, not gone,
    # not the bot's: the players `courier status` lists as awaited.
    config = loaded.config
    silent = awaited(tick.journal, config.ruleset, row, state, now=tick.now, bots=config.bots)
    with tick.journal.transaction() as db:
        for player in participants(loaded.config, row):
            if player.name not in silent:
                continue
            key = f"{round_key(tick.journal, row)}/reminder/{int(window.total_seconds())}/{player.name}"
            news = waiting(tick.journal, row.id, player.email, player.name)  # news that waited for a mail
            message = tick.mailer.reminder(loaded.config, player, row=row, state=state, key=key, news=news)
            if tick.queue(db, key=key, message=message, game=row.id, kind="reminder"):
                drop(db, tick.journal, row.id, player.email, player.name)
