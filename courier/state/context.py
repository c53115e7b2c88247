"""What one tick works with: the deployment, the journal, the backends, the clock reading and the
games whose config loaded. Passed to each step so steps stay small functions."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from typing import Any

from courier.backends.base import BackendError, Inbox, SheetSnapshot, Transport, Workbook
from courier.backends.sheets_quota import SheetsQuota
from courier.config.deployment import Deployment
from courier.config.game import GameConfig, is_bot_address
from courier.errors import ConfigError, JournalError
from courier.journal.backups import BackupFailed, backup_journal
from courier.journal.interface import GameRow, Journal, Transaction
from courier.journal.meta import WARNED, BudgetSpent
from courier.mail.compose import Composed, journal_bytes
from courier.mail.mailer import Mailer
from courier.mail.render import RenderError
from courier.state import budgets
from engine import find_ruleset

log = logging.getLogger(__name__)

# An operator's problem (a backend, the config, an organiser's template): reported, and the rest
# of the tick goes on. Anything else is a bug and stops the tick, losing nothing already committed.
OPERATOR_ERRORS = (BackendError, ConfigError, RenderError)
# Failures of the machine or the journal, not of one game: they stop the tick (nothing is lost).
NOT_A_GAMES_FAULT = (JournalError, MemoryError)  # the journal raises no other error of its own


@dataclass
class LoadedGame:
    config: GameConfig
    workbook: Workbook
    snapshot: SheetSnapshot
    organiser: str
    fixed_seed: str | None


@dataclass(frozen=True)
class GameView:
    """A game as the journal holds it, its state decoded once (style.md, "Decode once")."""

    row: GameRow
    state: Any


@dataclass
class Tick:
    deployment: Deployment
    journal: Journal
    inbox: Inbox
    transport: Transport
    mailer: Mailer
    now: datetime
    games: dict[str, LoadedGame] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    broken: set[str] = field(default_factory=set)  # games whose config did not load this tick
    failed_games: dict[str, str] = field(default_factory=dict)  # game → its error this tick
    publish: bool = True
    backed_up: bool = False  # a copy of the journal was taken this tick, before the first resolution
    backup_failed: str = ""  # why no copy could be taken this tick (then nothing resolves)
    new_journal: bool = False  # the operator's word that an empty journal starts every game over
    reread_since: datetime | None = None  # journal again the inbox's mail since then (courier tick)
    views: dict[str, GameView] = field(default_factory=dict)  # decoded games; see ``view``
    settled: dict[str, Any] = field(default_factory=dict)  # rounds resolved ahead (rounds.settle)
    cause: str | None = None  # whose mail is being read: what it causes counts to their budget
    basis: dict[str, BudgetSpent] = field(default_factory=dict)  # the sender's count before it
    sheets_quota: SheetsQuota | None = None  # see ``sheets``
    behind: dict[str, bool] = field(default_factory=dict)  # games Sheets did not serve → reached?
    held_last: bool = False  # the last mail ``queue`` put in the outbox was held by a budget

    def sheets(self) -> SheetsQuota:
        """The tick's one budget of Google Sheets requests, shared by every game's sheet."""
        if self.sheets_quota is None:
            self.sheets_quota = SheetsQuota(self.deployment.sheets)
        return self.sheets_quota

    def view(self, game_id: str) -> GameView | None:
        """The game's journal row and its decoded state, read once per tick and kept up to date by
        ``remember`` (or dropped by ``forget``) wherever a step writes the game."""
        if game_id not in self.views:
            row = self.journal.game(game_id)
            if row is None:
                return None
            self.views[game_id] = GameView(row, find_ruleset(row.ruleset).from_json(row.state))
        return self.views[game_id]

    def remember(self, row: GameRow, state: Any) -> None:
        """Call after committing ``row`` (whose ``state`` is ``state``'s JSON)."""
        self.views[row.id] = GameView(row, state)

    def forget(self, game_id: str) -> None:
        self.views.pop(game_id, None)

    def copy_journal(self) -> None:
        """One consistent copy of the journal a tick, before its first resolution or rollback.
        Raises ``BackupFailed`` when none can be made (no room, no permission): one line and one
        mail to the organiser, and the same answer for the rest of the tick without trying again."""
        if self.backup_failed:
            raise BackupFailed(self.backup_failed)
        if self.backed_up:
            return
        try:
            backup_journal(
                self.journal, self.deployment.backup_dir, now=self.now, policy=self.deployment.backups
            )
        except BackupFailed as e:
            self.backup_failed = str(e)
            self.problem(self.backup_failed)
            self.tell_organiser(None, self.deployment.organiser, self.backup_failed)
            raise
        self.backed_up = True

    @contextmanager
    def caused_by(self, sender: str) -> Iterator[None]:
        """While one input is read: the mail it causes counts to its sender's budget."""
        self.cause = sender
        try:
            yield
        finally:
            self.cause = None
            self.basis.clear()

    def queue(self, db: Transaction, *, key: str, message: EmailMessage, game: str | None, kind: str) -> bool:
        """Put one composed mail in the outbox (inside the caller's transaction); a bot's seat gets none.
        Mail an input causes beyond a budget is held, not sent (courier/state/budgets.py)."""
        to = str(message["To"])
        self.held_last = False
        if is_bot_address(to):
            return False
        if self.cause is None or kind not in budgets.BUDGETED:
            return self._put(db, key=key, message=message, game=game, kind=kind)
        counted = budgets.accounts(self.deployment.budgets, sender=self.cause, recipient=to)
        bill = budgets.charge(self.journal, counted, now=self.now, basis=self.basis)
        sender = counted[0]  # budgets.accounts puts the sender first
        self.basis.setdefault(sender.name, bill.spent[sender])
        queued = self._put(db, key=key, message=message, game=game, kind=kind, held=bool(bill.tripped))
        self.held_last = queued and bool(bill.tripped)
        if queued:
            bill.commit(db)
            for trip in (t for t in bill.tripped if t.first):
                self._tell_tripped(db, trip, game=game)
        return queued

    def _put(
        self,
        db: Transaction,
        *,
        key: str,
        message: EmailMessage,
        game: str | None,
        kind: str,
        held: bool = False,
    ) -> bool:
        raw, pictures = journal_bytes(message)
        queued = db.queue(
            key=key,
            message_id=str(message["Message-ID"]),
            game=game,
            kind=kind,
            recipient=str(message["To"]),
            raw=raw,
            pictures=pictures,
            created_at=self.now,
            held=held,
        )
        if queued and not held and isinstance(message, Composed):  # its lines, for a reply that
            # quotes it unmarked (held mail is never read)
            db.keep_lines(
                message_id=str(message["Message-ID"]),
                recipient=str(message["To"]),
                game=game,
                prints=message.sent_lines.pack(),
                created_at=self.now,
            )
        return queued

    def _tell_tripped(self, db: Transaction, trip: budgets.Tripped, *, game: str | None) -> None:
        """The first mail a budget holds in its period: the address it stopped and the organiser hear
        of it, once each (the outbox keys name the address and the period)."""
        address, lines = trip.account.address, [budgets.told_player(trip)]
        key = f"budget/{address.lower()}/{trip.stamp}"
        told = self.mailer.answer(None, to=address, name="", topic="Mail held", lines=lines, key=key)
        self._put(db, key=key, message=told, game=game, kind="budget")
        problem = budgets.told_organiser(trip)
        log.warning("%s", problem)
        organiser = self.games[game].organiser if game in self.games else self.deployment.organiser
        key = f"organiser/budget/{trip.account.name}/{trip.stamp}"
        self._put(
            db,
            key=key,
            message=self.mailer.organiser(game, organiser, problem, key=key),
            game=game,
            kind="organiser",
        )

    def problem(self, text: str) -> None:
        """A problem of this tick, for whoever runs it to report (the ``courier`` command prints
        each once on stderr). Not logged too: a problem would print twice."""
        self.problems.append(text)

    def warn_once(self, game_id: str | None, organiser: str, warning: str) -> None:
        """A problem that stops nothing (a misspelt setting): on stderr and to the organiser, once."""
        digest = hashlib.sha256(warning.encode()).hexdigest()[:16]
        if WARNED.get(self.journal, digest) is None:
            log.warning("%s", warning)
            self.tell_organiser(game_id, organiser, warning)
            WARNED.set(self.journal, digest, warning)

    def tell_organiser(self, game_id: str | None, organiser: str, problem: str) -> None:
        """One mail to the organiser per distinct problem, ever (the outbox key dedups it)."""
        digest = hashlib.sha256(problem.encode()).hexdigest()[:16]
        message = self.mailer.organiser(game_id, organiser, problem, key=f"organiser/{game_id}/{digest}")
        with self.journal.transaction() as db:
            self.queue(
                db, key=f"organiser/{game_id}/{digest}", message=message, game=game_id, kind="organiser"
            )
