"""One tick, as design.md lays it out: lock, config, ingest, interpret, resolve, remind, publish,
send. Each step is a short function over a ``Tick``; one broken game never stops the others."""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import json
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from courier import faults
from courier.backends.base import BackendError, FormResponse, Inbox, TransientError, Transport
from courier.backends.factory import open_inbox, open_transport, open_workbook
from courier.backends.files import sweep_temporaries
from courier.backends.sheets_quota import NotReached
from courier.config.deployment import Deployment, GameSource
from courier.config.game import game_config
from courier.errors import ConfigError
from courier.journal.interface import GameRow, Transaction
from courier.journal.meta import CONFIG, GoodConfig
from courier.journal.opener import open_journal
from courier.mail.incoming import raw_message_id
from courier.mail.mailer import Mailer
from courier.mail.pictures import end_drawing
from courier.state.context import OPERATOR_ERRORS, LoadedGame, Tick
from courier.state.control import with_seats
from courier.state.newcomers import admit_newcomers
from courier.state.news import deliver_news
from courier.state.quarantine import quarantined, settle_failures
from courier.tick.guards import each_game as _each_game
from courier.tick.guards import refuse_lost_journal
from courier.tick.interpret import interpret_inputs
from courier.tick.outage import check_clock, outage_guard
from courier.tick.publish import publish_game
from courier.tick.put_back import refuse_put_back_journal, remember_last_tick
from courier.tick.remind import send_reminders
from courier.tick.rounds import predraw_due, resolve_due
from courier.tick.send import drain_outbox
from courier.tick.settings_changed import tell_changes
from courier.tick.sheets_first import in_order, left_behind
from courier.tick.sheets_first import remember as remember_behind
from engine.core import rng_for

log = logging.getLogger(__name__)


@contextmanager
def run_lock(path: Path) -> Iterator[bool]:
    """An flock on a file in the state dir: True if this tick holds it, False if another does."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def run_tick(
    deployment: Deployment,
    *,
    now: datetime,
    inbox: Inbox | None = None,
    transport: Transport | None = None,
    send: bool = True,
    publish: bool = True,
    new_journal: bool = False,
    reread_since: datetime | None = None,
) -> list[str]:
    """Run one tick. Returns the problems met (empty when all went well)."""
    with run_lock(deployment.lock_path) as held:
        if not held:
            log.info("another tick holds the lock; nothing to do")
            return []
        journal = open_journal(deployment.journal_path, kind=deployment.journal_kind)
        inbox = inbox or open_inbox(deployment.inbox, last_uid=journal.last_uid)
        transport = transport or open_transport(deployment.outbox)
        mailer = Mailer(deployment, now=now, secret=journal.mail_secret())
        tick = Tick(
            deployment,
            journal,
            inbox,
            transport,
            mailer,
            now,
            publish=publish,
            new_journal=new_journal,
            reread_since=reread_since,
        )
        try:
            _steps(tick, send=send)
        finally:
            end_drawing()
            inbox.close()
            transport.close()
            journal.close()
        return tick.problems


def _steps(tick: Tick, *, send: bool) -> None:
    _sweep_temporaries(tick.deployment)
    load_games(tick)
    if refuse_lost_journal(tick) or refuse_put_back_journal(tick):
        if send:
            drain_outbox(tick)
        return
    check_clock(tick)
    ingest_mail(tick)
    ingest_forms(tick)
    _each_game(tick, start_game)
    _each_game(tick, admit_newcomers)
    outage = outage_guard(tick)  # before reading orders: lateness is judged by the moved deadline
    remember_last_tick(tick)
    interpret_inputs(tick)
    if not outage:  # after an outage, deadlines move instead of rounds resolving
        predraw_due(tick)
        resolve_rounds(tick)
    _each_game(tick, send_reminders)
    _each_game(tick, deliver_news)  # news that waited news_every for a mail going anyway
    if tick.publish:
        _each_game(tick, publish_game)
    remember_behind(tick)  # games Google Sheets did not serve go first next tick
    _report_broken_templates(tick)
    settle_failures(tick)
    if send:
        drain_outbox(tick)


def resolve_rounds(tick: Tick) -> None:
    """Resolve every due round, one round of each game at a time, and between them read the mail
    that waited for the round it beat: a game with several rounds due (a gap with `stale_after = 0`,
    a journal put back, a game released from quarantine) counts each mail for the round whose
    deadline it beat by its journalled arrival, whatever order the tick meets them in."""
    while True:
        before = _open_rounds(tick)
        _each_game(tick, resolve_due)
        if _open_rounds(tick) == before:
            return
        interpret_inputs(tick)  # what arrived after the round just resolved closed


def _open_rounds(tick: Tick) -> dict[str, str]:
    return {game_id: view.row.phase_key for game_id in tick.games if (view := tick.view(game_id))}


def _report_broken_templates(tick: Tick) -> None:
    for problem in sorted(tick.mailer.broken_templates):
        notice = f"{problem}. Courier used its built-in template instead, so no mail waits; fix yours."
        log.warning("%s", notice)
        tick.tell_organiser(None, tick.deployment.organiser, notice)


def _sweep_temporaries(deployment: Deployment) -> None:
    """Files a killed tick was writing (the files outbox, a local workbook) are never half there: the
    rename did not happen. Their temporary copies are removed here: beside the workbooks each tick,
    in the outbox's recipient folders once a day (listing every mail ever sent is not a tick's work)."""
    folders = {Path(g.workbook).parent: 0 for g in deployment.games if g.workbook is not None}
    files_outbox = deployment.outbox.get("type", "files") == "files" and "path" in deployment.outbox
    if files_outbox and _due_daily(deployment.state_dir / SWEPT_STAMP):
        folders[Path(deployment.outbox["path"])] = 1  # one folder per recipient
    for folder, depth in folders.items():
        for path in sweep_temporaries(folder, depth=depth):
            log.info("removed %s, left by an interrupted write", path)


SWEPT_STAMP = "outbox.swept"  # in state_dir: when the outbox was last swept


def _due_daily(stamp: Path) -> bool:
    """True at most once a day (by the stamp file's time), and then the stamp is renewed."""
    try:
        if time.time() - stamp.stat().st_mtime < 24 * 3600:
            return False
        stamp.touch()
    except FileNotFoundError:
        if stamp.parent.is_dir():
            stamp.touch()
    return True


# --- config ---------------------------------------------------------------------------------------


def load_games(tick: Tick) -> None:
    for warning in tick.deployment.warnings:
        tick.warn_once(None, tick.deployment.organiser, warning)
    set_aside = quarantined(tick.journal)
    for source in in_order(tick, tick.deployment.games):
        if source.id in set_aside:
            log.warning(
                "game %s is quarantined (courier release %s): %s", source.id, source.id, set_aside[source.id]
            )
            tick.broken.add(source.id)  # its players' mail waits in the journal
            continue
        try:
            tick.games[source.id] = _load_game(tick, source)
        except NotReached:  # the tick's Sheets quota is spent: one line for all such games
            tick.broken.add(source.id)
            left_behind(tick, source.id, reached=False)
        except OPERATOR_ERRORS as e:
            tick.broken.add(source.id)
            if isinstance(e, TransientError) and source.sheet is not None:
                left_behind(tick, source.id, reached=True)
            problem = str(e) if isinstance(e, ConfigError) else f"game {source.id}: {e}"
            tick.problem(problem)
            if not isinstance(e, TransientError):  # a passing outage is the operator's, via cron
                tick.tell_organiser(source.id, source.organiser, problem)
            if not isinstance(e, TransientError | ConfigError):  # a bad config already waits, told
                tick.failed_games[source.id] = problem


def _load_game(tick: Tick, source: GameSource) -> LoadedGame:
    """Read and validate a game's sheet. An invalid edit keeps the last good config running (the
    organiser is told once which cell to fix); with no good config yet, the game waits."""
    quota = tick.sheets() if source.sheet is not None else None
    workbook = open_workbook(
        workbook=source.workbook, sheet=source.sheet, sheets=tick.deployment.sheets, quota=quota
    )
    snapshot = workbook.read()
    try:
        config = game_config(source, snapshot)
    except ConfigError as e:
        good = CONFIG.get(tick.journal, source.id)
        if good is None:
            raise
        # The game runs on, so this is no failure of the tick: the organiser's one mail says it all.
        log.warning("%s; the last good settings stay in force", e)
        notice = f"{e}. Until it is fixed the last good settings stay in force."
        tick.tell_organiser(source.id, source.organiser, notice)
        snapshot = replace(
            snapshot, config=good["config"], players=good["players"], config_cells={}, player_rows=[]
        )
        config = game_config(source, snapshot)
        replaced = None
    else:
        replaced = CONFIG.replace(
            tick.journal, source.id, GoodConfig(config=snapshot.config, players=snapshot.players)
        )
    config = with_seats(config, tick.journal.game(source.id))  # substitutes take their seats
    for warning in config.warnings:
        tick.warn_once(source.id, source.organiser, warning)
    zone = config.schedule.timezone.key
    if source.workbook is not None and zone != "UTC":  # a local file's form times are in the game's zone
        workbook = open_workbook(
            workbook=source.workbook, sheet=source.sheet, sheets=tick.deployment.sheets, timezone=zone
        )
        again = workbook.read()
        snapshot = replace(snapshot, responses=again.responses, unreadable=again.unreadable)
    for problem in snapshot.unreadable:  # a form row skipped: told once, ever, not at every tick
        tick.warn_once(source.id, source.organiser, problem)
    loaded = LoadedGame(config, workbook, snapshot, source.organiser, source.seed)
    if replaced is not None:
        tell_changes(tick, loaded, replaced)
    return loaded


# --- ingest: raw first, then mark ------------------------------------------------------------------


def ingest_mail(tick: Tick) -> None:
    """Journal every new message in one transaction (one sync to disk, however much mail came),
    then mark each processed."""
    try:
        messages = tick.inbox.fetch_new()
        if tick.reread_since is not None:  # the operator's word: journal again what a lost journal forgot
            messages = tick.inbox.fetch_since(tick.reread_since) + messages
    except BackendError as e:
        tick.problem(f"inbox: {e}")
        return
    with tick.journal.transaction() as db:
        for message in messages:
            # A clock running ahead of ours (or a test's simulated one) never puts mail in the future.
            db.add_input(
                source="mail",
                source_id=message.source_id,
                message_id=raw_message_id(message.raw),
                received_at=min(message.received_at or tick.now, tick.now),
                raw=message.raw,
            )
    unmarked: dict[str, int] = {}
    for message in messages:
        faults.checkpoint("ingest.journalled")
        try:
            tick.inbox.mark_processed(message.source_id)
        except BackendError as e:  # journalled already: nothing is lost, the next tick marks it
            unmarked[str(e)] = unmarked.get(str(e), 0) + 1
        faults.checkpoint("ingest.marked")
    for error, count in unmarked.items():  # one line, however much mail: the journal has it all
        tick.problem(f"inbox: {count} mail(s) journalled but not marked read: {error}")


def ingest_forms(tick: Tick) -> None:
    """Form rows have no id and may be sorted by hand: key them on time, address and content. The
    whole sheet is read every tick, so its rows are journalled in one transaction."""
    with tick.journal.transaction() as db:
        for game_id, loaded in tick.games.items():
            for response in loaded.snapshot.responses:
                _journal_form_row(tick, db, game_id, response)


def _journal_form_row(tick: Tick, db: Transaction, game_id: str, response: FormResponse) -> None:
    body = {
        "game": response.game.strip() or game_id,
        "email": response.email.strip().lower(),
        "orders": response.orders,
        "secret": response.secret,
        "timestamp": response.timestamp.isoformat(),
    }
    digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:20]
    key = f"form:{game_id}:{response.timestamp.isoformat()}:{body['email']}:{digest}"
    db.add_input(
        source="form",
        source_id=key,
        message_id=key,
        received_at=response.timestamp,
        raw=json.dumps(body).encode(),
    )


# --- game start -----------------------------------------------------------------------------------


def game_seed(tick: Tick, game_id: str) -> str:
    """A game's secret seed (its hash published at the start, itself at the end): drawn from the
    journal's own random key and the game's id, so that `courier tick --dry-run`, which works on a
    copy of the journal, deals exactly as the tick after it does."""
    key = tick.journal.mail_secret()
    return hmac.new(key, f"game-seed/{game_id}".encode(), hashlib.sha256).hexdigest()[:32]


def start_game(tick: Tick, loaded: LoadedGame) -> None:
    config = loaded.config
    game_id = config.id
    if tick.view(game_id) is not None:
        return
    opened_at = config.schedule.first_opening(tick.now)
    if opened_at > tick.now:
        return
    seed = loaded.fixed_seed or game_seed(tick, game_id)
    names = [p.name for p in config.players]
    try:
        state = config.ruleset.setup(names, config.options, rng_for(seed, "setup"))
    except ValueError as e:  # the rules refuse these players or options: the organiser's to fix
        raise ConfigError(f"cannot start: {e}") from e
    row = GameRow(
        id=game_id,
        ruleset=config.ruleset.name,
        seed=seed,
        setup={"players": names, "options": config.options},
        state=config.ruleset.to_json(state),
        phase_key=config.ruleset.phase(state).key,
        opened_at=opened_at,
        deadline=config.schedule.next_deadline(opened_at, config.ruleset.phase(state).kind),
        finished=False,
    )
    with tick.journal.transaction() as db:
        db.create_game(row)
        for player in config.players:
            message = tick.mailer.welcome(config, player, state, row, seed)
            tick.queue(
                db, key=f"{game_id}/welcome/{player.name}", message=message, game=game_id, kind="welcome"
            )
    log.info("game %s started, first deadline %s", game_id, row.deadline)
    faults.checkpoint("start.committed")
