"""After an outage (the server off, cron stopped), the first tick must not resolve every overdue round
at once: players would never get to answer the rounds in between. It resolves nothing, moves each
overdue deadline forward by the length of the outage (at least to now + the game's `outage_grace`),
and tells each affected game's players and organiser once. A clock that runs backwards stops the
tick: deadlines, reminders and lateness all assume time goes forward."""

from __future__ import annotations

from datetime import datetime

from courier.errors import CourierError
from courier.journal.interface import GameRow
from courier.journal.meta import LAST_TICK
from courier.journal.seen import last_seen
from courier.state.context import LoadedGame, Tick
from courier.state.history import add_history_note
from courier.state.newcomers import participants
from courier.tick.guards import each_game


class ClockError(CourierError):
    """The clock reads earlier than the last tick did."""


def _last_tick(tick: Tick) -> datetime | None:
    """The deployment's last tick: the journal's, or the later one the file beside it remembers when
    the journal was put back from a copy (Courier ran meanwhile: that was no outage)."""
    known = [t for t in (LAST_TICK.get(tick.journal), last_seen(tick.deployment.journal_path)) if t]
    return max(known, default=None)


def check_clock(tick: Tick) -> None:
    """Raises ``ClockError`` (before any mail is read) when time ran backwards since the last tick."""
    previous = _last_tick(tick)
    if previous is not None and tick.now < previous:
        raise ClockError(
            f"the clock reads {tick.now.isoformat(timespec='minutes')}, earlier than the last tick"
            f" ({previous.isoformat(timespec='minutes')}); nothing was done. Fix the system clock"
        )


def outage_guard(tick: Tick) -> bool:
    """Record this tick's time; True when an outage was found and this tick must resolve nothing.
    Each game's deadline moves under the per-game guard: one game's failure spares the others, and
    the time is recorded all the same, so the next tick meets no outage again."""
    previous = _last_tick(tick)
    stale = tick.deployment.stale_after
    moved: list[str] = []

    def move_overdue_deadline(tick: Tick, loaded: LoadedGame) -> None:
        assert previous is not None
        view = tick.view(loaded.config.id)
        row = view.row if view else None
        if row and not row.finished and row.deadline and previous < row.deadline <= tick.now:
            _move_deadline(tick, loaded, row, since=previous)
            moved.append(row.id)

    if previous is not None and stale and tick.now - previous > stale:
        each_game(tick, move_overdue_deadline)
    LAST_TICK.set(tick.journal, "", tick.now)  # after the moves: a crash repeats them
    return bool(moved)


def _move_deadline(tick: Tick, loaded: LoadedGame, row: GameRow, *, since: datetime) -> None:
    assert row.deadline is not None
    config = loaded.config
    outage = tick.now - since
    deadline = max(row.deadline + outage, tick.now + config.schedule.outage_grace)
    when = config.schedule.format_deadline
    text = (
        f"Courier was not running from {when(since)} to {when(tick.now)}, and this round's deadline"
        f" ({when(row.deadline)}) passed meanwhile. Nothing was resolved; the deadline is now"
        f" {when(deadline)}. Orders sent during the outage count."
    )
    key = f"{row.id}/{row.phase_key}/outage/{since.isoformat()}"
    moved = GameRow(**{**row.__dict__, "deadline": deadline})
    with tick.journal.transaction() as db:
        db.update_game(
            row.id,
            state=row.state,
            phase_key=row.phase_key,
            opened_at=row.opened_at,
            deadline=deadline,
            finished=False,
        )
        for player in participants(config, row):  # a kicked seat, a row added later: not in the game
            message = tick.mailer.announcement(
                config, player, row=moved, text=text, key=f"{key}/{player.name}"
            )
            tick.queue(db, key=f"{key}/{player.name}", message=message, game=row.id, kind="notice")
        add_history_note(tick, db, row.id, f"Outage: deadline moved to {when(deadline)}")
    tick.forget(row.id)
    tick.tell_organiser(row.id, loaded.organiser, f"game {row.id}: {text}")
