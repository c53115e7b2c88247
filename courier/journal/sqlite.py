"""The journal: one SQLite file, the source of truth for everything a tick has seen and done.

Raw input is written here before anything else happens to it; a round's result and every mail it
causes are committed in one transaction; the outbox is drained from here. The sheet and the mail are
projections of this file.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import sqlite3
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from courier.errors import JournalError

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS inputs (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL,                 -- 'mail', 'form' or 'cli' (an organiser's command, JSON)
    source_id TEXT NOT NULL UNIQUE,       -- maildir key, imap uid, form row key, cli:<time>:<n>
    message_id TEXT NOT NULL,             -- Message-ID (or the form row key): dedup across sources
    received_at TEXT NOT NULL,
    raw BLOB NOT NULL,
    status TEXT NOT NULL DEFAULT 'new',   -- new | used | ignored | unreadable | duplicate
    game TEXT, player TEXT, phase_key TEXT, note TEXT
);
CREATE INDEX IF NOT EXISTS inputs_message_id ON inputs (message_id);
-- The tick's hot queries never scan a table that grows with history (tests/test_journal_plan.py).
CREATE INDEX IF NOT EXISTS inputs_pending ON inputs (received_at, id) WHERE status = 'new';
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    seed TEXT NOT NULL,
    setup TEXT NOT NULL,                  -- JSON: players and options given to setup()
    state TEXT NOT NULL,                  -- JSON: the current state, immediates applied
    phase_key TEXT NOT NULL,
    opened_at TEXT NOT NULL,
    deadline TEXT,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS submissions (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL, phase_key TEXT NOT NULL, player TEXT NOT NULL,
    input_id INTEGER NOT NULL REFERENCES inputs (id),
    received_at TEXT NOT NULL,
    text TEXT NOT NULL,
    parsed TEXT NOT NULL,                 -- JSON Submission as parsed from this message
    standing TEXT NOT NULL,               -- JSON Submission that stands after it
    kind TEXT NOT NULL DEFAULT 'orders',  -- 'orders', 'join' (text = the role), 'amend' (JSON option)
    void INTEGER NOT NULL DEFAULT 0       -- 1: its phase was undone by a rollback
);
CREATE INDEX IF NOT EXISTS submissions_phase ON submissions (game, phase_key);
CREATE TABLE IF NOT EXISTS rounds (
    game TEXT NOT NULL, phase_key TEXT NOT NULL,
    resolved_at TEXT NOT NULL,
    state_before TEXT NOT NULL, submissions TEXT NOT NULL, state_after TEXT NOT NULL,
    events TEXT NOT NULL,
    PRIMARY KEY (game, phase_key)         -- a round is resolved at most once, ever
);
CREATE TABLE IF NOT EXISTS undone_rounds (  -- rounds a rollback took back, kept for the record
    game TEXT NOT NULL, phase_key TEXT NOT NULL,
    resolved_at TEXT NOT NULL, undone_at TEXT NOT NULL,
    state_before TEXT NOT NULL, submissions TEXT NOT NULL, state_after TEXT NOT NULL,
    events TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,             -- what this mail is: queued at most once
    message_id TEXT NOT NULL,
    game TEXT, kind TEXT NOT NULL, recipient TEXT NOT NULL,
    raw BLOB NOT NULL,
    created_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'queued', -- queued | sent | failed
    attempts INTEGER NOT NULL DEFAULT 0,
    sent_at TEXT, error TEXT,
    tried_at TEXT                         -- the last failed attempt: the next waits (courier/tick/send.py)
);
CREATE INDEX IF NOT EXISTS outbox_queued ON outbox (id) WHERE status = 'queued';
CREATE INDEX IF NOT EXISTS outbox_kept ON outbox (sent_at) WHERE status = 'sent' AND length(raw) > 0;
CREATE TABLE IF NOT EXISTS outbox_pictures (  -- each picture of unsent mail once (compose.journal_bytes)
    key TEXT PRIMARY KEY,
    data BLOB NOT NULL
);
"""


def same_content(a: bytes, b: bytes) -> bool:
    """Two copies of one mail (another folder, another delivery) differ in their headers only."""
    return _body(a) == _body(b)


def _body(raw: bytes) -> bytes:
    raw = raw.replace(b"\r\n", b"\n")
    head, blank, body = raw.partition(b"\n\n")
    return body.strip() if blank else head.strip()


@dataclass(frozen=True)
class Input:
    id: int
    source: str
    source_id: str
    message_id: str
    received_at: datetime
    raw: bytes


@dataclass(frozen=True)
class Act:
    """One journalled act: a player's parsed orders (``kind='orders'``) or a newcomer joining
    (``kind='join'``, ``text`` = the role)."""

    player: str
    kind: str
    text: str
    parsed: dict[str, Any]


@dataclass(frozen=True)
class GameRow:
    id: str
    ruleset: str
    seed: str
    setup: dict[str, Any]
    state: dict[str, Any]
    phase_key: str
    opened_at: datetime
    deadline: datetime | None
    finished: bool


@dataclass(frozen=True)
class OutboxRow:
    id: int
    key: str
    message_id: str
    game: str | None
    kind: str
    recipient: str
    raw: bytes
    attempts: int
    tried_at: datetime | None = None


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


# A queued mail's picture is stored once (outbox_pictures) and stands in the mail as one line. A NUL
# byte never occurs in composed mail (text is quoted-printable, pictures base64): no text passes for one.
PICTURE_AT = re.compile(rb"\x00picture ([0-9a-f]{32})\x00\n")
PICTURES_AT_HAND = 8


def picture_line(key: str) -> str:
    return f"\x00picture {key}\x00\n"


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


def _ts(dt: datetime) -> str:
    if dt.tzinfo is None:
        raise ValueError("the journal stores aware datetimes only")
    return dt.isoformat()


def _dt(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


# An outbox row's columns, all but its bytes.
_OUTBOX_ROW = (
    "id, key, message_id, game, kind, recipient, created_at, status, attempts, sent_at, error, tried_at"
)


def _without_bytes(db: sqlite3.Connection, rows: list[tuple[Any, ...]]) -> None:
    """Put these outbox rows back with no bytes (``forget_sent`` says why not in place)."""
    db.executemany("DELETE FROM outbox WHERE id = ?", [(row[0],) for row in rows])
    db.executemany(f"INSERT INTO outbox ({_OUTBOX_ROW}, raw) VALUES ({', '.join('?' * 12)}, X'')", rows)


class Journal:
    """A thin, typed face over the SQLite file. Every write happens inside ``transaction()``."""

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
        self.db.executescript(SCHEMA)
        columns = {r[1] for r in self.db.execute("PRAGMA table_info(submissions)")}
        if "kind" not in columns:  # a journal from before players could join mid-game
            self.db.execute("ALTER TABLE submissions ADD COLUMN kind TEXT NOT NULL DEFAULT 'orders'")
        if "tried_at" not in {r[1] for r in self.db.execute("PRAGMA table_info(outbox)")}:
            self.db.execute("ALTER TABLE outbox ADD COLUMN tried_at TEXT")  # before bounded retries
        if "void" not in columns:  # a journal from before rollbacks and kicks
            self.db.execute("ALTER TABLE submissions ADD COLUMN void INTEGER NOT NULL DEFAULT 0")
        if self.meta("outbox/compact") is None:
            self._compact_outbox()

    def _compact_outbox(self) -> None:
        """Once per journal: sent mail that earlier versions blanked in place is put back without
        its bytes (see ``forget_sent``). A journal that cannot be written now is compacted later."""
        with contextlib.suppress(JournalError), self.transaction() as db:
            _without_bytes(db, db.execute(f"SELECT {_OUTBOX_ROW} FROM outbox WHERE raw = X''").fetchall())
            self.put_meta(db, "outbox/compact", "1")

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
    def transaction(self, *, durable: bool = True) -> Iterator[sqlite3.Connection]:
        """All or nothing. A journal that cannot be written (read-only, disk full) is one clear
        ``JournalError``; what was committed before stays, and the next tick goes on from it.

        ``durable=False`` for a write whose loss in a power cut only repeats work (a mail marked
        sent is sent once more): its commit is not synced to disk, which is most of its cost. It
        survives a crash of the tick all the same, and the next durable commit syncs it too."""
        if not durable:
            self.db.execute("PRAGMA synchronous=NORMAL")
        try:
            self.db.execute("BEGIN IMMEDIATE")
            yield self.db
            self.db.execute("COMMIT")
        except BaseException as e:
            if self.db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self.db.execute("ROLLBACK")
            if isinstance(e, sqlite3.OperationalError):
                raise JournalError(_unwritable(self.path, e)) from e
            raise
        finally:
            if not durable:
                with contextlib.suppress(sqlite3.Error):
                    self.db.execute("PRAGMA synchronous=FULL")

    # --- inputs ---------------------------------------------------------------------------------

    def add_input(
        self,
        *,
        source: str,
        source_id: str,
        message_id: str,
        received_at: datetime,
        raw: bytes,
        db: sqlite3.Connection | None = None,
    ) -> bool:
        """Journal one raw input (inside ``db``'s transaction if given, else its own). False when
        already journalled: the same source id, or the same Message-ID and content from another
        place (kept as a 'duplicate' row, so its source id counts as seen). A reused Message-ID with
        other content is a new mail: a changed order is not lost."""
        if db is None:
            with self.transaction() as own:
                return self.add_input(
                    source=source,
                    source_id=source_id,
                    message_id=message_id,
                    received_at=received_at,
                    raw=raw,
                    db=own,
                )
        if db.execute("SELECT 1 FROM inputs WHERE source_id = ?", (source_id,)).fetchone():
            return False
        earlier = (
            db.execute("SELECT raw FROM inputs WHERE message_id = ?", (message_id,)) if message_id else ()
        )
        seen = any(same_content(bytes(r[0]), raw) for r in earlier)
        db.execute(
            "INSERT INTO inputs (source, source_id, message_id, received_at, raw, status)"
            " VALUES (?,?,?,?,?,?)",
            (source, source_id, message_id, _ts(received_at), raw, "duplicate" if seen else "new"),
        )
        return not seen

    def reused_message_id(self, item: Input) -> bool:
        """Whether an earlier input, with other content, carried this input's Message-ID."""
        return bool(
            item.message_id
            and self.db.execute(
                "SELECT 1 FROM inputs WHERE message_id = ? AND id < ? AND status != 'duplicate'",
                (item.message_id, item.id),
            ).fetchone()
        )

    def last_uid(self, prefix: str) -> int:
        """The highest numeric suffix of the source ids journalled under ``prefix`` (IMAP uids)."""
        # A range on the unique index (prefix <= id < the prefix's successor) reads no raw mail.
        upper = prefix[:-1] + chr(ord(prefix[-1]) + 1) if prefix else "\U0010ffff"
        rows = self.db.execute(
            "SELECT source_id FROM inputs WHERE source_id >= ? AND source_id < ?", (prefix, upper)
        ).fetchall()
        return max((int(r[0][len(prefix) :]) for r in rows if r[0][len(prefix) :].isdigit()), default=0)

    def pending_inputs(self) -> list[Input]:
        rows = self.db.execute(
            "SELECT id, source, source_id, message_id, received_at, raw FROM inputs"
            " WHERE status = 'new' ORDER BY received_at, id"
        ).fetchall()
        return [Input(r[0], r[1], r[2], r[3], datetime.fromisoformat(r[4]), bytes(r[5])) for r in rows]

    def input_status(self, input_id: int) -> str:
        return str(self.db.execute("SELECT status FROM inputs WHERE id = ?", (input_id,)).fetchone()[0])

    @staticmethod
    def settle_input(
        db: sqlite3.Connection,
        input_id: int,
        *,
        status: str,
        game: str | None = None,
        player: str | None = None,
        phase_key: str | None = None,
        note: str = "",
    ) -> None:
        db.execute(
            "UPDATE inputs SET status = ?, game = ?, player = ?, phase_key = ?, note = ? WHERE id = ?",
            (status, game, player, phase_key, note, input_id),
        )

    # --- games ----------------------------------------------------------------------------------

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

    def games(self) -> list[GameRow]:
        ids = [r[0] for r in self.db.execute("SELECT id FROM games ORDER BY id")]
        return [g for g in map(self.game, ids) if g is not None]

    @staticmethod
    def create_game(db: sqlite3.Connection, game: GameRow) -> None:
        db.execute(
            "INSERT INTO games (id, ruleset, seed, setup, state, phase_key, opened_at, deadline, finished)"
            " VALUES (?,?,?,?,?,?,?,?,?)",
            (
                game.id,
                game.ruleset,
                game.seed,
                json.dumps(game.setup),
                json.dumps(game.state),
                game.phase_key,
                _ts(game.opened_at),
                game.deadline and _ts(game.deadline),
                int(game.finished),
            ),
        )

    @staticmethod
    def update_game(
        db: sqlite3.Connection,
        game_id: str,
        *,
        state: dict[str, Any],
        phase_key: str,
        opened_at: datetime,
        deadline: datetime | None,
        finished: bool,
    ) -> None:
        db.execute(
            "UPDATE games SET state = ?, phase_key = ?, opened_at = ?, deadline = ?, finished = ?"
            " WHERE id = ?",
            (
                json.dumps(state),
                phase_key,
                _ts(opened_at),
                deadline and _ts(deadline),
                int(finished),
                game_id,
            ),
        )

    @staticmethod
    def set_state(db: sqlite3.Connection, game_id: str, state: dict[str, Any]) -> None:
        db.execute("UPDATE games SET state = ? WHERE id = ?", (json.dumps(state), game_id))

    # --- submissions ----------------------------------------------------------------------------

    @staticmethod
    def add_submission(
        db: sqlite3.Connection,
        *,
        game: str,
        phase_key: str,
        player: str,
        input_id: int,
        received_at: datetime,
        text: str,
        parsed: dict[str, Any],
        standing: dict[str, Any],
        kind: str = "orders",
    ) -> None:
        db.execute(
            "INSERT INTO submissions (game, phase_key, player, input_id, received_at, text, parsed, standing,"
            " kind) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                game,
                phase_key,
                player,
                input_id,
                _ts(received_at),
                text,
                json.dumps(parsed),
                json.dumps(standing),
                kind,
            ),
        )

    def standing(self, game: str, phase_key: str) -> dict[str, tuple[dict[str, Any], datetime]]:
        """The submission that stands for each player who wrote in this phase, with its time."""
        rows = self.db.execute(
            "SELECT player, standing, received_at FROM submissions WHERE game = ? AND phase_key = ?"
            " AND kind = 'orders' AND void = 0 ORDER BY id",
            (game, phase_key),
        ).fetchall()
        return {r[0]: (json.loads(r[1]), datetime.fromisoformat(r[2])) for r in rows}

    def acts(self, game: str, phase_key: str) -> list[Act]:
        """Everything that changed a phase's state on receipt, in order: what replay re-applies."""
        rows = self.db.execute(
            "SELECT player, kind, text, parsed FROM submissions WHERE game = ? AND phase_key = ? AND void = 0"
            " ORDER BY id",
            (game, phase_key),
        ).fetchall()
        return [Act(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    @staticmethod
    def set_setup(db: sqlite3.Connection, game_id: str, setup: dict[str, Any]) -> None:
        db.execute("UPDATE games SET setup = ? WHERE id = ?", (json.dumps(setup), game_id))

    # --- rounds ---------------------------------------------------------------------------------

    @staticmethod
    def record_round(
        db: sqlite3.Connection,
        *,
        game: str,
        phase_key: str,
        resolved_at: datetime,
        state_before: dict[str, Any],
        submissions: dict[str, Any],
        state_after: dict[str, Any],
        events: list[dict[str, Any]],
    ) -> bool:
        """Claim and record a round. False (and nothing written) if it was resolved before."""
        cursor = db.execute(
            "INSERT OR IGNORE INTO rounds (game, phase_key, resolved_at, state_before, submissions,"
            " state_after, events) VALUES (?,?,?,?,?,?,?)",
            (
                game,
                phase_key,
                _ts(resolved_at),
                json.dumps(state_before),
                json.dumps(submissions),
                json.dumps(state_after),
                json.dumps(events),
            ),
        )
        return cursor.rowcount == 1

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

    @staticmethod
    def void_submissions(db: sqlite3.Connection, game: str, phase_keys: list[str]) -> None:
        """Take a rollback's undone phases out of play; their acts stay in the journal for the record."""
        for key in phase_keys:
            db.execute("UPDATE submissions SET void = 1 WHERE game = ? AND phase_key = ?", (game, key))

    @staticmethod
    def undo_rounds(db: sqlite3.Connection, game: str, phase_keys: list[str], *, at: datetime) -> None:
        """Move resolved rounds to ``undone_rounds``: a rollback re-opens the first of them."""
        for key in phase_keys:
            db.execute(
                "INSERT INTO undone_rounds SELECT game, phase_key, resolved_at, ?, state_before, submissions,"
                " state_after, events FROM rounds WHERE game = ? AND phase_key = ?",
                (_ts(at), game, key),
            )
            db.execute("DELETE FROM rounds WHERE game = ? AND phase_key = ?", (game, key))

    def round_count(self, game: str) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM rounds WHERE game = ?", (game,)).fetchone()[0])

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

    @staticmethod
    def queue(
        db: sqlite3.Connection,
        *,
        key: str,
        message_id: str,
        game: str | None,
        kind: str,
        recipient: str,
        raw: bytes,
        created_at: datetime,
        pictures: Mapping[str, bytes] | None = None,
    ) -> bool:
        """Queue one mail unless a mail with this key was ever queued. True if queued now. ``raw``
        may stand for its ``pictures`` by key, as ``compose.journal_bytes`` writes it."""
        cursor = db.execute(
            "INSERT OR IGNORE INTO outbox (key, message_id, game, kind, recipient, raw, created_at)"
            " VALUES (?,?,?,?,?,?,?)",
            (key, message_id, game, kind, recipient, raw, _ts(created_at)),
        )
        if cursor.rowcount == 1 and pictures:
            db.executemany(
                "INSERT OR IGNORE INTO outbox_pictures (key, data) VALUES (?,?)", list(pictures.items())
            )
        return cursor.rowcount == 1

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

    def forget_pictures(self) -> int:
        """Drop the pictures no unsent mail stands for. Returns how many were dropped."""
        unsent = self.db.execute("SELECT raw FROM outbox WHERE status = 'queued' AND instr(raw, X'00') > 0")
        wanted = {key.decode("ascii") for (raw,) in unsent for key in PICTURE_AT.findall(bytes(raw))}
        stored = {key for (key,) in self.db.execute("SELECT key FROM outbox_pictures")}
        unwanted = [(key,) for key in stored - wanted]
        if unwanted:
            with self.transaction() as db:
                db.executemany("DELETE FROM outbox_pictures WHERE key = ?", unwanted)
        self._pictures.clear()
        return len(unwanted)

    def queued(self) -> list[OutboxRow]:
        rows = self.db.execute(
            "SELECT id, key, message_id, game, kind, recipient, raw, attempts, tried_at FROM outbox"
            " WHERE status = 'queued' ORDER BY id"
        ).fetchall()
        return [OutboxRow(r[0], r[1], r[2], r[3], r[4], r[5], bytes(r[6]), r[7], _dt(r[8])) for r in rows]

    def mark_sent(self, row_id: int, at: datetime, *, kept: bytes | None = None) -> None:
        """The mail went out; ``kept`` replaces its bytes (the copy kept for a while, see send.py)."""
        with self.transaction(durable=False) as db:  # lost in a power cut: sent once more
            db.execute(
                "UPDATE outbox SET status = 'sent', sent_at = ?, raw = COALESCE(?, raw) WHERE id = ?",
                (_ts(at), kept, row_id),
            )

    def mark_attempt(
        self, row_id: int, error: str, *, failed: bool, at: datetime, kept: bytes | None = None
    ) -> None:
        """A try that failed; ``kept`` replaces the bytes of a mail that failed for good."""
        with self.transaction(durable=False) as db:  # lost in a power cut: tried once more
            db.execute(
                "UPDATE outbox SET attempts = attempts + 1, error = ?, status = ?, tried_at = ?,"
                " raw = COALESCE(?, raw) WHERE id = ?",
                (error, "failed" if failed else "queued", _ts(at), kept if failed else None, row_id),
            )

    def forget_sent(self, before: datetime) -> int:
        """Drop the bytes of mail sent before ``before`` (the row stays: key, recipient, when). A
        round's reports are kept whole two days, so kept forever they would make the journal, and
        every copy of it, grow by megabytes a round. Returns how many were dropped.

        Each row is put back without its bytes rather than blanked in place: a row written with a
        report's text fills a page of its own, and SQLite keeps that page for the blanked row, so
        the outbox was mostly empty pages that every copy of the journal read."""
        with self.transaction() as db:
            kept = db.execute(
                f"SELECT {_OUTBOX_ROW} FROM outbox WHERE status = 'sent' AND sent_at < ? AND length(raw) > 0",
                (_ts(before),),
            ).fetchall()
            _without_bytes(db, kept)
        return len(kept)

    def outbox_counts(self) -> dict[str, int]:
        rows = self.db.execute("SELECT status, COUNT(*) FROM outbox GROUP BY status").fetchall()
        return {r[0]: r[1] for r in rows}

    # --- meta -----------------------------------------------------------------------------------

    def mail_secret(self) -> bytes:
        """This journal's own random key for Message-IDs, made once and kept (courier/mail/mailer.py)."""
        stored = self.meta("mail/secret")
        if stored is None:
            stored = secrets.token_hex(32)
            with self.transaction() as db:
                db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('mail/secret', ?)", (stored,))
            stored = self.meta("mail/secret") or stored
        return bytes.fromhex(stored)

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as db:
            self.put_meta(db, key, value)

    @staticmethod
    def put_meta(db: sqlite3.Connection, key: str, value: str) -> None:
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))
