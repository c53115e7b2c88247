"""The SQLite journal's schema: an ordered list of numbered migrations, the version in ``PRAGMA
user_version``.

A new journal runs every migration; an older one runs those after its version, in order, in one
transaction. Journals written before the version existed say 0 and may be at any stage (their tables
were created ``IF NOT EXISTS`` and widened behind ``PRAGMA table_info``), so each migration checks
what is there before it adds. To change the schema, append a migration (never edit one that shipped);
tests/courier/journal/test_migrations.py builds a journal at every earlier stage and migrates it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

Migration = Callable[[sqlite3.Connection], None]


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {str(r[1]) for r in db.execute(f"PRAGMA table_info({table})")}


def _add_column(db: sqlite3.Connection, table: str, column: str, definition: str) -> None:
    if column not in _columns(db, table):
        db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")


def _1_tables(db: sqlite3.Connection) -> None:
    """The first journal: inputs, games, submissions, rounds, outbox and meta."""
    for statement in _TABLES:
        db.execute(statement)


def _2_submission_kinds(db: sqlite3.Connection) -> None:
    """Newcomers joining mid-game: a submission is 'orders', 'join' (text = the role) or 'amend'."""
    _add_column(db, "submissions", "kind", "TEXT NOT NULL DEFAULT 'orders'")


def _3_rollbacks(db: sqlite3.Connection) -> None:
    """Rollbacks and kicks: an undone phase's submissions are void; its rounds kept aside."""
    _add_column(db, "submissions", "void", "INTEGER NOT NULL DEFAULT 0")
    db.execute(
        "CREATE TABLE IF NOT EXISTS undone_rounds (  -- rounds a rollback took back, kept for the record\n"
        "    game TEXT NOT NULL, phase_key TEXT NOT NULL,\n"
        "    resolved_at TEXT NOT NULL, undone_at TEXT NOT NULL,\n"
        "    state_before TEXT NOT NULL, submissions TEXT NOT NULL, state_after TEXT NOT NULL,\n"
        "    events TEXT NOT NULL\n)"
    )


def _4_hot_indexes(db: sqlite3.Connection) -> None:
    """The tick's hot queries never scan a table that grows with history (test_plan.py)."""
    db.execute("CREATE INDEX IF NOT EXISTS inputs_pending ON inputs (received_at, id) WHERE status = 'new'")
    db.execute("CREATE INDEX IF NOT EXISTS submissions_phase ON submissions (game, phase_key)")
    db.execute("CREATE INDEX IF NOT EXISTS outbox_queued ON outbox (id) WHERE status = 'queued'")


def _5_retry_times(db: sqlite3.Connection) -> None:
    """Bounded retries: the last failed attempt's time (courier/tick/send.py waits after it)."""
    _add_column(db, "outbox", "tried_at", "TEXT")


def _6_kept_mail(db: sqlite3.Connection) -> None:
    """A sent mail's bytes are dropped after a while: find the ones still kept."""
    db.execute(
        "CREATE INDEX IF NOT EXISTS outbox_kept ON outbox (sent_at) WHERE status = 'sent' AND length(raw) > 0"
    )


def _7_pictures(db: sqlite3.Connection) -> None:
    """Each picture of unsent mail stored once (compose.journal_bytes)."""
    db.execute("CREATE TABLE IF NOT EXISTS outbox_pictures (key TEXT PRIMARY KEY, data BLOB NOT NULL)")


def _8_sent_lines(db: sqlite3.Connection) -> None:
    """The digests of each sent mail's lines (courier/mail/own_lines.py), the last few per address and
    game: a reply that quotes one without marks is still read right after its bytes are dropped."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS sent_lines (\n"
        "    id INTEGER PRIMARY KEY,\n"
        "    message_id TEXT NOT NULL,\n"
        "    recipient TEXT NOT NULL,             -- the address, lower case\n"
        "    game TEXT NOT NULL,                  -- '' for a mail of no game\n"
        "    created_at TEXT NOT NULL,\n"
        "    prints BLOB NOT NULL                 -- SentLines.pack(): a kind byte and a digest per line\n)"
    )
    db.execute("CREATE INDEX IF NOT EXISTS sent_lines_to ON sent_lines (recipient, game, id)")


# In order: the journal's version is how many of these it has run. Append only.
MIGRATIONS: tuple[Migration, ...] = (
    _1_tables,
    _2_submission_kinds,
    _3_rollbacks,
    _4_hot_indexes,
    _5_retry_times,
    _6_kept_mail,
    _7_pictures,
    _8_sent_lines,
)
VERSION = len(MIGRATIONS)


def version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite3.Connection) -> None:
    """Bring the journal to ``VERSION`` in one transaction (nothing is written when it is there).
    A journal newer than this Courier is refused rather than misread."""
    found = version(db)
    if found > VERSION:
        raise sqlite3.DatabaseError(f"schema version {found} is newer than this Courier's ({VERSION})")
    if found == VERSION:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        for step in MIGRATIONS[found:]:
            step(db)
        db.execute(f"PRAGMA user_version = {VERSION}")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


# The first journal's tables, as Courier created them (tests/data/journals/schemas/stage-1.sql).
_TABLES = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS inputs (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL,                 -- 'mail', 'form' or 'cli' (an organiser's command, JSON)
    source_id TEXT NOT NULL UNIQUE,       -- maildir key, imap uid, form row key, cli:<time>:<n>
    message_id TEXT NOT NULL,             -- Message-ID (or the form row key): dedup across sources
    received_at TEXT NOT NULL,
    raw BLOB NOT NULL,
    status TEXT NOT NULL DEFAULT 'new',   -- new | used | ignored | unreadable | duplicate
    game TEXT, player TEXT, phase_key TEXT, note TEXT
)""",
    "CREATE INDEX IF NOT EXISTS inputs_message_id ON inputs (message_id)",
    """CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    seed TEXT NOT NULL,
    setup TEXT NOT NULL,                  -- JSON: players and options given to setup()
    state TEXT NOT NULL,                  -- JSON: the current state, immediates applied
    phase_key TEXT NOT NULL,
    opened_at TEXT NOT NULL,
    deadline TEXT,
    finished INTEGER NOT NULL DEFAULT 0
)""",
    """CREATE TABLE IF NOT EXISTS submissions (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL, phase_key TEXT NOT NULL, player TEXT NOT NULL,
    input_id INTEGER NOT NULL REFERENCES inputs (id),
    received_at TEXT NOT NULL,
    text TEXT NOT NULL,
    parsed TEXT NOT NULL,                 -- JSON Submission as parsed from this message
    standing TEXT NOT NULL                -- JSON Submission that stands after it
)""",
    """CREATE TABLE IF NOT EXISTS rounds (
    game TEXT NOT NULL, phase_key TEXT NOT NULL,
    resolved_at TEXT NOT NULL,
    state_before TEXT NOT NULL, submissions TEXT NOT NULL, state_after TEXT NOT NULL,
    events TEXT NOT NULL,
    PRIMARY KEY (game, phase_key)         -- a round is resolved at most once, ever
)""",
    """CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,             -- what this mail is: queued at most once
    message_id TEXT NOT NULL,
    game TEXT, kind TEXT NOT NULL, recipient TEXT NOT NULL,
    raw BLOB NOT NULL,
    created_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'queued', -- queued | sent | failed
    attempts INTEGER NOT NULL DEFAULT 0,
    sent_at TEXT, error TEXT
)""",
)
