"""Step 5: resolve every round whose deadline passed (or that everyone has answered, when early
resolution is on). Claim, defaults, resolve, then the round and all its mail in one transaction:
a round is resolved at most once, ever, and never without its reports."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from courier import faults
from courier.commands.players import absent_players, away_deadline, away_record
from courier.config.game import GameConfig, Player
from courier.journal.backups import BackupFailed
from courier.journal.interface import GameRow
from courier.mail.pictures import forget_pictures, map_svgs, predraw, predraw_done
from courier.silent_seats import silent_seat
from courier.state.awaited import with_orders
from courier.state.context import GameView, LoadedGame, Tick
from courier.state.control import control, kicked, put_control, round_key
from courier.state.history import add_history_lines, history_lines
from courier.state.newcomers import participants
from courier.state.news import ORGANISER, drop, hold, waiting
from engine.core import (
    Event,
    MailsOnlyAwaited,
    OpenResults,
    Outcome,
    QuietRounds,
    Resolution,
    Submission,
    Windowed,
    event_to_json,
    rng_for,
    settle_silent,
    writers_of,
)

log = logging.getLogger(__name__)


def resolve_due(tick: Tick, loaded: LoadedGame) -> None:
    """Resolve the game's open round if it is due. One round only: the tick reads the mail that beat
    the next round's deadline before it resolves that one (``runbook.resolve_rounds``)."""
    view = tick.view(loaded.config.id)
    if view is None or view.row.finished:
        return
    at = _due_at(tick, loaded, view)
    if at is None:
        return
    try:
        tick.copy_journal()
    except BackupFailed:
        return  # no round resolves without a copy to go back to: it waits for room (told once)
    resolve_round(tick, loaded, view, at=at)


def _due_at(tick: Tick, loaded: LoadedGame, view: GameView) -> datetime | None:
    """When the round closes: its deadline if passed, now if everyone answered early, else None."""
    row = view.row
    if row.deadline is not None and tick.now >= row.deadline:
        return row.deadline
    settings = control(tick.journal, row.id)
    if settings.get("paused"):
        return None
    if settings.get("process") == row.phase_key:  # the organiser's `process now`
        return tick.now
    schedule, ruleset = loaded.config.schedule, loaded.config.ruleset
    if not schedule.early_resolution:
        return None
    awaited = ruleset.awaiting(view.state) - absent_players(tick, row) - set(loaded.config.bots)
    standing = with_orders(tick.journal, row)  # a mail with nothing usable in it is no orders
    if not awaited or not awaited <= standing.keys():
        return None
    last = max(standing.values())
    return tick.now if schedule.early_due(last, tick.now) else None


def final_submissions(tick: Tick, loaded: LoadedGame, view: GameView) -> tuple[Any, dict[str, Submission]]:
    """Each awaited player's standing orders, or the ruleset's default (or bot) for the silent; and
    the standing orders of any-time writers who wrote. Returns them with the state resolution starts
    from: where the game has silent seats act in turn (``SilentInTurn``), their orders applied."""
    ruleset, row, state = loaded.config.ruleset, view.row, view.state
    standing = tick.journal.standing(row.id, row.phase_key)

    def silent(state: Any, player: str) -> Submission:
        bot = loaded.config.bot_plays(player)
        return silent_seat(ruleset, state, player, seed=row.seed, phase_key=row.phase_key, bot=bot)

    written = {
        player: silent(state, player) if player in kicked(row) else Submission.from_json(standing[player][0])
        for player in sorted(writers_of(ruleset, state) & standing.keys())
    }  # a seat that left plays the default, even where it wrote
    return settle_silent(ruleset, state, written, silent)


def report_recipients(
    config: GameConfig, row: GameRow, state: Any, events: Sequence[Event], outcome: Outcome | None
) -> list[Player]:
    """Who hears of a resolved phase: everyone, unless the game mails only those who must act next
    (Veneer's many short phases) or names who hears of it (Star Trek's intelligence window), plus
    anyone with news of their own; everyone at the end."""
    everyone = participants(config, row)
    ruleset = config.ruleset
    told = ruleset.reported_to(state) if isinstance(ruleset, QuietRounds) else None
    if isinstance(ruleset, MailsOnlyAwaited) and ruleset.mail_only_awaited:
        told = frozenset(ruleset.awaiting(state))
    if outcome is not None or told is None:
        return everyone
    concerned = set(told) | {p for e in events if e.audience for p in e.audience}
    if isinstance(ruleset, OpenResults):
        concerned |= ruleset.told(state, events)
    return [p for p in everyone if p.name in concerned]


def predraw_due(tick: Tick) -> None:
    """Before any round is resolved, hand helper processes every map this tick's rounds will mail
    (pictures.py), so they draw while the tick writes mail. Each due round is resolved here in
    advance, which is only a forecast: nothing is written, and the round itself, resolved again
    the same way (its randomness is seeded), meets and reports any problem."""
    for game_id, loaded in tick.games.items():
        if game_id not in tick.failed_games:
            try:
                predraw(_maps_of_due_round(tick, loaded))  # the helpers start on the first game's
            except Exception:
                log.debug("no forecast of %s's maps", game_id, exc_info=True)
    predraw_done()


def _maps_of_due_round(tick: Tick, loaded: LoadedGame) -> list[str]:
    view = tick.view(loaded.config.id)
    if view is None or view.row.finished or _due_at(tick, loaded, view) is None:
        return []
    settled = settle(tick, loaded, view)
    viewers: list[str | None] = [*(p.name for p in settled.recipients), None]  # None: the organiser
    return map_svgs(loaded.config.ruleset, settled.resolution.state, viewers)


def _next_deadline(tick: Tick, config: GameConfig, row: GameRow, *, at: datetime, kind: str) -> datetime:
    """The next round's deadline from the schedule; after a `process now` (a round resolved before
    its deadline at the organiser's word) at least a normal round's length from now."""
    processed = control(tick.journal, row.id).get("process") == row.phase_key
    if processed and row.deadline is not None and at < row.deadline:
        return config.schedule.full_round_deadline(at, kind)
    return config.schedule.next_deadline(at, kind)


@dataclass(frozen=True)
class Settled:
    """A due round worked out: the state resolution starts from, the orders, the resolution, its
    outcome and who hears of it."""

    view: GameView
    state: Any
    submissions: dict[str, Submission]
    resolution: Resolution
    outcome: Outcome | None
    recipients: list[Player]


def settle(tick: Tick, loaded: LoadedGame, view: GameView) -> Settled:
    """The round's resolution, worked out once a tick: the maps' forecast and the round itself share
    it. It is kept only while the game's view is the one it was worked out from (any change to the
    game gives it a new view)."""
    kept = tick.settled.get(view.row.id)
    if isinstance(kept, Settled) and kept.view is view:
        return kept
    ruleset, row = loaded.config.ruleset, view.row
    state, submissions = final_submissions(tick, loaded, view)
    resolution = ruleset.resolve(state, submissions, rng_for(row.seed, row.phase_key, "resolve"))
    outcome = ruleset.outcome(resolution.state)
    recipients = report_recipients(loaded.config, row, resolution.state, resolution.events, outcome)
    settled = Settled(view, state, submissions, resolution, outcome, recipients)
    tick.settled[row.id] = settled
    return settled


def resolve_round(tick: Tick, loaded: LoadedGame, view: GameView, *, at: datetime) -> None:
    config = loaded.config
    ruleset, row, state = config.ruleset, view.row, view.state
    prefix = round_key(tick.journal, row)  # a round re-run after a rollback mails afresh
    settled = settle(tick, loaded, view)
    submissions, resolution, outcome = settled.submissions, settled.resolution, settled.outcome
    # the round whose results these are (a window's close gives its season's: Star Trek)
    resolved_label = (
        ruleset.results_label(state) if isinstance(ruleset, Windowed) else ruleset.phase(state).label
    )
    next_phase = ruleset.phase(resolution.state)
    deadline, away_by = None, timedelta(0)
    if outcome is None:  # a player away, where absence extends deadlines, moves the new one
        scheduled = _next_deadline(tick, config, row, at=at, kind=next_phase.kind)
        deadline = away_deadline(tick, config, row, scheduled)
        away_by = deadline - scheduled
    new_row = GameRow(
        id=row.id,
        ruleset=row.ruleset,
        seed=row.seed,
        setup=row.setup,
        state=ruleset.to_json(resolution.state),
        phase_key=next_phase.key,
        opened_at=at,
        deadline=deadline,
        finished=outcome is not None,
    )
    mails = [
        (
            player,
            tick.mailer.report(
                config,
                player,
                resolved_label=resolved_label,
                after=new_row,
                state=resolution.state,
                events=resolution.events,
                submissions=submissions,
                outcome=outcome,
                key=f"{prefix}/report/{player.name}",
                news=waiting(tick.journal, row.id, player.email, player.name),  # news that waited
            ),
        )
        for player in settled.recipients
    ]
    history = history_lines(tick, ruleset, resolution.events)
    arbiter_key = f"{prefix}/report/organiser"
    # A game of many short phases (Veneer) tells the organiser its phases in their news (a digest
    # every `news_every`), not a mail each; every other game, and every game's end, in a report.
    batched = isinstance(ruleset, MailsOnlyAwaited) and ruleset.mail_only_awaited and outcome is None
    arbiter = (
        None
        if batched
        else tick.mailer.organiser_report(
            config,
            loaded.organiser,
            resolved_label=resolved_label,
            state=resolution.state,
            events=resolution.events,
            key=arbiter_key,
            news=waiting(tick.journal, row.id, loaded.organiser, ORGANISER),
        )
    )
    with tick.journal.transaction() as db:
        claimed = db.record_round(
            game=row.id,
            phase_key=row.phase_key,
            resolved_at=at,
            state_before=row.state,
            submissions={p: s.to_json() for p, s in submissions.items()},
            state_after=new_row.state,
            events=[event_to_json(e) for e in resolution.events],
        )
        if not claimed:  # resolved before (impossible unless two journals diverged): change nothing
            log.error("%s %s was already resolved; not resolving it again", row.id, row.phase_key)
            tick.forget(row.id)
            return
        add_history_lines(tick, db, row.id, resolved_label, history)
        db.update_game(
            row.id,
            state=new_row.state,
            phase_key=new_row.phase_key,
            opened_at=at,
            deadline=deadline,
            finished=new_row.finished,
        )
        if away_by:  # it counts towards the new round's `away_limit`
            moved = away_record(tick.journal, new_row, away_by)
            put_control(db, row.id, {**control(tick.journal, row.id), "away_moved": moved})
        for player, message in mails:
            kind = "game_over" if outcome else "report"
            if tick.queue(db, key=f"{prefix}/report/{player.name}", message=message, game=row.id, kind=kind):
                drop(db, tick.journal, row.id, player.email, player.name)
        if arbiter is None:
            lines = tick.mailer.organiser_lines(config, loaded.organiser, resolution.events)
            told = [f"{resolved_label}: {line}" for line in lines]
            hold(
                db,
                tick.journal,
                game=row.id,
                to=loaded.organiser,
                name=ORGANISER,
                lines=told,
                now=at,
                cap=None,
            )
        elif tick.queue(db, key=arbiter_key, message=arbiter, game=row.id, kind="report"):
            drop(db, tick.journal, row.id, loaded.organiser, ORGANISER)
    tick.remember(new_row, resolution.state)
    tick.settled.pop(row.id, None)  # the round is done: its forecast, drawings and lines can go
    forget_pictures(resolution.state)
    tick.mailer.forget_event_lines()
    log.info("%s: resolved %s%s", row.id, row.phase_key, " (game over)" if outcome else "")
    faults.checkpoint("resolve.committed")
