"""The SQLite journal: one file, the source of truth for everything a tick has seen and done.

Raw input is written here before anything else happens to it; a round's result and every mail it
causes are committed in one transaction; the outbox is drained from here. The sheet and the mail are
projections of this file. ``SqliteJournal`` is the reading side and the transaction;
``sqlite_writes.SqliteTransaction`` the writes; ``sqlite_schema`` the numbered migrations. Every
``sqlite3`` failure leaves here as a ``JournalError`` (the tick's ``NOT_A_GAMES_FAULT``).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import logging
import os
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from courier.errors import JournalError
from courier.journal.interface import PICTURE_AT, Act, GameRow, Input, OutboxRow
from courier.journal.sqlite_schema import migrate
from courier.journal.sqlite_writes import OUTBOX_ROW, SqliteTransaction, ts

log = logging.getLogger(__name__)

PICTURES_AT_HAND = 8


def _damaged(path: Path, error: sqlite3.DatabaseError) -> str:
    return (
        f"the journal {path} is damaged or not a journal ({error}); nothing was read or sent."
        ' Put back a copy (`courier restore`, see README "Recovery") or move it aside'
        " and start over with `courier tick --new-journal`"
    )


def _unwritable(path: Path, error: sqlite3.OperationalError) -> str:
    text = str(error)
    if "full" in text:
        fix = "free some space on that disk"
    elif "readonly" in text or "read-only" in text or "unable to open" in text:
        fix = (
            f"give this user write access to {path.parent} and to the journal and its -wal and -shm"
            " files (chown or chmod)"
        )
    elif "locked" in text:
        fix = "another program holds it (a second courier, a database browser): close it"
    else:
        fix = "check the disk and the file's permissions"
    return f"the journal {path} cannot be written ({text}): {fix}; nothing was lost, run the tick again"


FULL_CHECK_EVERY = 24 * 3600.0  # seconds: a journal left untouched is still checked once a day


def _file_stamp(path: Path) -> str:
    parts = []
    for file in (path, path.with_name(path.name + "-wal")):
        try:
            st = file.stat()
            parts.append(f"{st.st_ino}:{st.st_size}:{st.st_mtime_ns}")
        except FileNotFoundError:
            parts.append("-")
    return " ".join(parts)


def _failed(path: Path, error: sqlite3.Error) -> str:
    return (
        f"the journal {path} failed ({error}); what was committed before stays."
        ' Check it with `courier status` (see README "Recovery") and run the tick again'
    )


def _as_journal_error(path: Path, error: sqlite3.Error) -> JournalError:
    if isinstance(error, sqlite3.OperationalError):
        return JournalError(_unwritable(path, error))
    return JournalError(_failed(path, error))


P = ParamSpec("P")
R = TypeVar("R")


def _guarded(read: Callable[P, R]) -> Callable[P, R]:
    """A read whose ``sqlite3`` failure (a damaged page, an I/O error) is a ``JournalError``."""

    @functools.wraps(read)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return read(*args, **kwargs)
        except sqlite3.Error as e:
            journal = args[0]
            raise _as_journal_error(getattr(journal, "path", Path("?")), e) from e

    return guarded


def _dt(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def copy_file(source: Path, target: Path) -> None:
    """Copy a journal file that no Journal has open (a dry run's scratch copy, a backup put back),
    page by page with SQLite's backup API: consistent even while a tick writes the source."""
    try:
        source_db = sqlite3.connect(source)
        target_db = sqlite3.connect(target)
    except sqlite3.Error as e:
        raise _as_journal_error(target, e) from e
    try:
        source_db.backup(target_db)
    except sqlite3.DatabaseError as e:
        raise JournalError(_damaged(source, e)) from e
    finally:
        source_db.close()
        target_db.close()


class SqliteJournal:
    """The journal in one SQLite file (courier/journal/interface.py, ``Journal``). Every write
    happens inside ``transaction()``."""

    def __init__(self, path: Path, *, create: bool = True) -> None:
        if not create and not path.exists():
            raise JournalError(f"no journal at {path}: check state_dir in the deployment file")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.exists():
                # Created 0600: the journal holds every player's orders and the games' secret seeds.
                os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        except OSError as e:
            raise JournalError(f"cannot create the journal {path}: {e.strerror}; check state_dir") from e
        self.path = path
        self._pictures: dict[str, bytes] = {}  # see ``picture``
        self.db = sqlite3.connect(path, isolation_level=None, timeout=30)
        try:
            self._open()
        except sqlite3.OperationalError as e:  # the file is fine; this user or this disk is not
            self.db.close()
            raise JournalError(_unwritable(path, e)) from e
        except sqlite3.DatabaseError as e:
            self.db.close()
            raise JournalError(_damaged(path, e)) from e

    def _open(self) -> None:
        # Checked before any step runs, so a damaged journal stops the tick before mail is marked read.
        # quick_check reads the whole file (0.1-0.4 s at 500 MB), so it is skipped when the file is
        # exactly as the last clean close left it and was checked within a day (see ``_unchanged``).
        self.checked = not self._unchanged()
        if self.checked:
            verdict = self.db.execute("PRAGMA quick_check").fetchone()[0]
            if verdict != "ok":
                raise sqlite3.DatabaseError(str(verdict).splitlines()[0])
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        migrate(self.db)
        if self.db.execute("SELECT 1 FROM meta WHERE key = 'outbox/compact'").fetchone() is None:
            self._compact_outbox()

    def _compact_outbox(self) -> None:
        """Once per journal: sent mail that earlier versions blanked in place is put back without
        its bytes (see ``forget_sent``). A journal that cannot be written now is compacted later."""
        with contextlib.suppress(JournalError), self.transaction() as db:
            db.without_bytes(self.db.execute(f"SELECT {OUTBOX_ROW} FROM outbox WHERE raw = X''").fetchall())
            db.put_meta("outbox/compact", "1")

    @_guarded
    def is_empty(self) -> bool:
        """True for a journal that has never started a game (new, or a lost one's 0-byte stand-in)."""
        return self.db.execute("SELECT 1 FROM games LIMIT 1").fetchone() is None

    def close(self) -> None:
        self.db.close()
        self._note_clean_close()

    # --- when to run quick_check ------------------------------------------------------------------

    @property
    def _closed_stamp(self) -> Path:
        return self.path.with_name(self.path.name + ".closed")

    def _unchanged(self) -> bool:
        """The journal (and its -wal) has the inode, size and mtime a clean close recorded, and its
        last quick_check is less than a day old. A kill, another program, a copy put back or a
        damaged write changes the stamp, and the check runs."""
        try:
            stamp, checked_at = self._closed_stamp.read_text(encoding="ascii").split("\n")[:2]
            return stamp == _file_stamp(self.path) and time.time() - float(checked_at) < FULL_CHECK_EVERY
        except (OSError, ValueError):
            return False

    def _note_clean_close(self) -> None:
        try:
            previous = self._closed_stamp.read_text(encoding="ascii").split("\n")[1]
        except (OSError, IndexError):
            previous = "0"
        checked_at = str(time.time()) if self.checked else previous
        with contextlib.suppress(OSError):  # no stamp: the next open checks, nothing else changes
            self._closed_stamp.write_text(f"{_file_stamp(self.path)}\n{checked_at}\n", encoding="ascii")

    @contextmanager
    def transaction(self, *, durable: bool = True) -> Iterator[SqliteTransaction]:
        """All or nothing. A journal that cannot be written (read-only, disk full) is one clear
        ``JournalError``; what was committed before stays, and the next tick goes on from it.

        ``durable=False`` for a write whose loss in a power cut only repeats work (a mail marked
        sent is sent once more): its commit is not synced to disk, which is most of its cost. It
        survives a crash of the tick all the same, and the next durable commit syncs it too."""
        if not durable:
            self.db.execute("PRAGMA synchronous=NORMAL")
        try:
            self.db.execute("BEGIN IMMEDIATE")
            yield SqliteTransaction(self.db)
            self.db.execute("COMMIT")
        except BaseException as e:
            if self.db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self.db.execute("ROLLBACK")
            if isinstance(e, sqlite3.Error):
                raise _as_journal_error(self.path, e) from e
            raise
        finally:
            if not durable:
                with contextlib.suppress(sqlite3.Error):
                    self.db.execute("PRAGMA synchronous=FULL")

    # --- inputs ---------------------------------------------------------------------------------

    def add_input(
        self, *, source: str, source_id: str, message_id: str, received_at: datetime, raw: bytes
    ) -> bool:
        """``SqliteTransaction.add_input`` in a transaction of its own."""
        with self.transaction() as db:
            return db.add_input(
                source=source, source_id=source_id, message_id=message_id, received_at=received_at, raw=raw
            )

    @_guarded
    def reused_message_id(self, item: Input) -> bool:
        """Whether an earlier input, with other content, carried this input's Message-ID."""
        return bool(
            item.message_id
            and self.db.execute(
                "SELECT 1 FROM inputs WHERE message_id = ? AND id < ? AND status != 'duplicate'",
                (item.message_id, item.id),
            ).fetchone()
        )

    @_guarded
    def last_uid(self, prefix: str) -> int:
        """The highest numeric suffix of the source ids journalled under ``prefix`` (IMAP uids)."""
        # A range on the unique index (prefix <= id < the prefix's successor) reads no raw mail.
        upper = prefix[:-1] + chr(ord(prefix[-1]) + 1) if prefix else "\U0010ffff"
        rows = self.db.execute(
            "SELECT source_id FROM inputs WHERE source_id >= ? AND source_id < ?", (prefix, upper)
        ).fetchall()
        return max((int(r[0][len(prefix) :]) for r in rows if r[0][len(prefix) :].isdigit()), default=0)

    @_guarded
    def pending_inputs(self) -> list[Input]:
        rows = self.db.execute(
            "SELECT id, source, source_id, message_id, received_at, raw FROM inputs"
            " WHERE status = 'new' ORDER BY received_at, id"
        ).fetchall()
        return [Input(r[0], r[1], r[2], r[3], datetime.fromisoformat(r[4]), bytes(r[5])) for r in rows]

    @_guarded
    def input_status(self, input_id: int) -> str:
        return str(self.db.execute("SELECT status FROM inputs WHERE id = ?", (input_id,)).fetchone()[0])

    # --- games ----------------------------------------------------------------------------------

    @_guarded
    def game(self, game_id: str) -> GameRow | None:
        row = self.db.execute(
            "SELECT id, ruleset, seed, setup, state, phase_key, opened_at, deadline, finished"
            " FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            return None
        opened = _dt(row[6])
        assert opened is not None
        return GameRow(
            row[0],
            row[1],
            row[2],
            json.loads(row[3]),
            json.loads(row[4]),
            row[5],
            opened,
            _dt(row[7]),
            bool(row[8]),
        )

    @_guarded
    def games(self) -> list[GameRow]:
        ids = [r[0] for r in self.db.execute("SELECT id FROM games ORDER BY id")]
        return [g for g in map(self.game, ids) if g is not None]

    # --- submissions ----------------------------------------------------------------------------

    @_guarded
    def standing(self, game: str, phase_key: str) -> dict[str, tuple[dict[str, Any], datetime]]:
        """The submission that stands for each player who wrote in this phase, with its time."""
        rows = self.db.execute(
            "SELECT player, standing, received_at FROM submissions WHERE game = ? AND phase_key = ?"
            " AND kind = 'orders' AND void = 0 ORDER BY id",
            (game, phase_key),
        ).fetchall()
        return {r[0]: (json.loads(r[1]), datetime.fromisoformat(r[2])) for r in rows}

    @_guarded
    def acts(self, game: str, phase_key: str) -> list[Act]:
        """Everything that changed a phase's state on receipt, in order: what replay re-applies."""
        rows = self.db.execute(
            "SELECT player, kind, text, parsed FROM submissions WHERE game = ? AND phase_key = ? AND void = 0"
            " ORDER BY id",
            (game, phase_key),
        ).fetchall()
        return [Act(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    # --- rounds ---------------------------------------------------------------------------------

    @_guarded
    def rounds(self, game: str) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT phase_key, resolved_at, state_before, submissions, state_after, events FROM rounds"
            " WHERE game = ? ORDER BY rowid",
            (game,),
        ).fetchall()
        keys = ("phase_key", "resolved_at", "state_before", "submissions", "state_after", "events")
        return [
            {
                k: (json.loads(v) if k not in ("phase_key", "resolved_at") else v)
                for k, v in zip(keys, r, strict=True)
            }
            for r in rows
        ]

    @_guarded
    def round_count(self, game: str) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM rounds WHERE game = ?", (game,)).fetchone()[0])

    @_guarded
    def states_after(self, game: str, *, skip: int) -> list[tuple[str, dict[str, Any]]]:
        """(phase key, state after) of each round but the first ``skip``, oldest first: reads only
        those rows."""
        rows = self.db.execute(
            "SELECT phase_key, state_after FROM rounds WHERE rowid IN"
            " (SELECT rowid FROM rounds WHERE game = ? ORDER BY rowid LIMIT -1 OFFSET ?) ORDER BY rowid",
            (game, skip),
        ).fetchall()
        return [(r[0], json.loads(r[1])) for r in rows]

    # --- outbox ---------------------------------------------------------------------------------

    @_guarded
    def picture(self, key: str) -> bytes:
        """A queued mail's picture (its base64 lines) by key; the last few are kept at hand, since a
        round's mails, queued one after another, share theirs."""
        if key not in self._pictures:
            found = self.db.execute("SELECT data FROM outbox_pictures WHERE key = ?", (key,)).fetchone()
            if found is None:  # not by anything Courier does; the mail is refused, not the tick stopped
                raise LookupError(f"its picture {key} is missing from the journal")
            while len(self._pictures) >= PICTURES_AT_HAND:
                del self._pictures[next(iter(self._pictures))]
            self._pictures[key] = bytes(found[0])
        return self._pictures[key]

    def with_pictures(self, raw: bytes) -> bytes:
        """A queued mail's bytes as sent: its pictures put back where they stand."""
        if b"\x00" not in raw:
            return raw
        return PICTURE_AT.sub(lambda found: self.picture(found.group(1).decode("ascii")), raw)

    @_guarded
    def forget_pictures(self) -> int:
        """Drop the pictures no unsent mail stands for. Returns how many were dropped."""
        unsent = self.db.execute("SELECT raw FROM outbox WHERE status = 'queued' AND instr(raw, X'00') > 0")
        wanted = {key.decode("ascii") for (raw,) in unsent for key in PICTURE_AT.findall(bytes(raw))}
        stored = {key for (key,) in self.db.execute("SELECT key FROM outbox_pictures")}
        unwanted = [(key,) for key in stored - wanted]
        if unwanted:
            with self.transaction():
                self.db.executemany("DELETE FROM outbox_pictures WHERE key = ?", unwanted)
        self._pictures.clear()
        return len(unwanted)

    @_guarded
    def queued(self) -> list[OutboxRow]:
        rows = self.db.execute(
            "SELECT id, key, message_id, game, kind, recipient, raw, attempts, tried_at FROM outbox"
            " WHERE status = 'queued' ORDER BY id"
        ).fetchall()
        return [OutboxRow(r[0], r[1], r[2], r[3], r[4], r[5], bytes(r[6]), r[7], _dt(r[8])) for r in rows]

    def mark_sent(self, row_id: int, at: datetime, *, kept: bytes | None = None) -> None:
        """The mail went out; ``kept`` replaces its bytes (the copy kept for a while, see send.py)."""
        with self.transaction(durable=False):  # lost in a power cut: sent once more
            self.db.execute(
                "UPDATE outbox SET status = 'sent', sent_at = ?, raw = COALESCE(?, raw) WHERE id = ?",
                (ts(at), kept, row_id),
            )

    def mark_attempt(
        self, row_id: int, error: str, *, failed: bool, at: datetime, kept: bytes | None = None
    ) -> None:
        """A try that failed; ``kept`` replaces the bytes of a mail that failed for good."""
        with self.transaction(durable=False):  # lost in a power cut: tried once more
            self.db.execute(
                "UPDATE outbox SET attempts = attempts + 1, error = ?, status = ?, tried_at = ?,"
                " raw = COALESCE(?, raw) WHERE id = ?",
                (error, "failed" if failed else "queued", ts(at), kept if failed else None, row_id),
            )

    def forget_sent(self, before: datetime) -> int:
        """Drop the bytes of mail sent before ``before`` (the row stays: key, recipient, when). A
        round's reports are kept whole two days, so kept forever they would make the journal, and
        every copy of it, grow by megabytes a round. Returns how many were dropped.

        Each row is put back without its bytes rather than blanked in place: a row written with a
        report's text fills a page of its own, and SQLite keeps that page for the blanked row, so
        the outbox was mostly empty pages that every copy of the journal read."""
        with self.transaction() as db:
            kept = self.db.execute(
                f"SELECT {OUTBOX_ROW} FROM outbox WHERE status = 'sent' AND sent_at < ? AND length(raw) > 0",
                (ts(before),),
            ).fetchall()
            db.without_bytes(kept)
        return len(kept)

    @_guarded
    def sent_lines(self, recipient: str, game: str | None, message_ids: Sequence[str]) -> list[bytes]:
        """The kept digests of the mails to ``recipient`` in ``game`` among ``message_ids``, else of
        the latest one to them (``SqliteTransaction.keep_lines``)."""
        to, game_id = recipient.lower(), game or ""
        ids = sorted(set(message_ids))
        rows = []
        if ids:
            rows = self.db.execute(
                "SELECT prints FROM sent_lines WHERE recipient = ? AND game = ?"
                f" AND message_id IN ({', '.join('?' * len(ids))}) ORDER BY id",
                (to, game_id, *ids),
            ).fetchall()
        if not rows:
            rows = self.db.execute(
                "SELECT prints FROM sent_lines WHERE recipient = ? AND game = ? ORDER BY id DESC LIMIT 1",
                (to, game_id),
            ).fetchall()
        return [bytes(r[0]) for r in rows]

    @_guarded
    def outbox_counts(self) -> dict[str, int]:
        rows = self.db.execute("SELECT status, COUNT(*) FROM outbox GROUP BY status").fetchall()
        return {r[0]: r[1] for r in rows}

    # --- meta -----------------------------------------------------------------------------------

    def mail_secret(self) -> bytes:
        """This journal's own random key for Message-IDs, made once and kept (courier/mail/mailer.py)."""
        stored = self.meta("mail/secret")
        if stored is None:
            stored = secrets.token_hex(32)
            with self.transaction():
                self.db.execute(
                    "INSERT OR IGNORE INTO meta (key, value) VALUES ('mail/secret', ?)", (stored,)
                )
            stored = self.meta("mail/secret") or stored
        return bytes.fromhex(stored)

    @_guarded
    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.put_meta(key, value)

    @_guarded
    def meta_under(self, prefix: str) -> dict[str, str]:
        # A range of the primary key (the prefix's successor bounds it): the table is never scanned.
        upper = prefix[:-1] + chr(ord(prefix[-1]) + 1)
        rows = self.db.execute("SELECT key, value FROM meta WHERE key >= ? AND key < ?", (prefix, upper))
        return {str(k).removeprefix(prefix): str(v) for k, v in rows.fetchall()}

    # --- the whole file ---------------------------------------------------------------------------

    @_guarded
    def integrity_problem(self) -> str | None:
        """A full ``PRAGMA integrity_check`` (slower than the open's quick_check)."""
        verdict = [str(r[0]) for r in self.db.execute("PRAGMA integrity_check").fetchall()]
        return None if verdict == ["ok"] else verdict[0]

    @_guarded
    def copy_to(self, target: Path) -> None:
        """A consistent, compact copy: ``VACUUM INTO`` writes only the pages in use (a journal keeps
        the pages of delivered maps for reuse: a copy page by page was four times as large, and
        three times as slow); the page-by-page backup API where SQLite is too old for it."""
        try:
            self.db.execute("VACUUM INTO ?", (str(target),))
        except sqlite3.OperationalError as e:
            log.info("VACUUM INTO failed (%s); copying the journal page by page", e)
            target.unlink(missing_ok=True)
            try:
                copy = sqlite3.connect(target)
                try:
                    self.db.backup(copy)
                finally:
                    copy.close()
            except sqlite3.Error as failed:  # no room, no permission: the copy's folder, not the journal
                raise OSError(errno.EIO, str(failed), str(target)) from failed
