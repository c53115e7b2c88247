"""The SQLite journal's writes: ``SqliteTransaction``, the handle ``SqliteJournal.transaction()``
yields (courier/journal/interface.py, ``Transaction``). It holds the connection inside ``BEGIN
IMMEDIATE``; committing and rolling back are the journal's."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from courier.journal.interface import SENT_LINES_KEPT, GameRow, same_content


def ts(dt: datetime) -> str:
    if dt.tzinfo is None:
        raise ValueError("the journal stores aware datetimes only")
    return dt.isoformat()


# An outbox row's columns, all but its bytes.
OUTBOX_ROW = (
    "id, key, message_id, game, kind, recipient, created_at, status, attempts, sent_at, error, tried_at"
)


class SqliteTransaction:
    """The writes of one transaction on the SQLite journal."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def add_input(
        self, *, source: str, source_id: str, message_id: str, received_at: datetime, raw: bytes
    ) -> bool:
        """Journal one raw input. False when already journalled: the same source id, or the same
        Message-ID and content from another place (kept as a 'duplicate' row, so its source id
        counts as seen). A reused Message-ID with other content is a new mail: a changed order is
        not lost."""
        db = self.db
        if db.execute("SELECT 1 FROM inputs WHERE source_id = ?", (source_id,)).fetchone():
            return False
        earlier = (
            db.execute("SELECT raw FROM inputs WHERE message_id = ?", (message_id,)) if message_id else ()
        )
        seen = any(same_content(bytes(r[0]), raw) for r in earlier)
        db.execute(
            "INSERT INTO inputs (source, source_id, message_id, received_at, raw, status)"
            " VALUES (?,?,?,?,?,?)",
            (source, source_id, message_id, ts(received_at), raw, "duplicate" if seen else "new"),
        )
        return not seen

    def settle_input(
        self,
        input_id: int,
        *,
        status: str,
        game: str | None = None,
        player: str | None = None,
        phase_key: str | None = None,
        note: str = "",
    ) -> None:
        self.db.execute(
            "UPDATE inputs SET status = ?, game = ?, player = ?, phase_key = ?, note = ? WHERE id = ?",
            (status, game, player, phase_key, note, input_id),
        )

    # --- games ----------------------------------------------------------------------------------

    def create_game(self, game: GameRow) -> None:
        self.db.execute(
            "INSERT INTO games (id, ruleset, seed, setup, state, phase_key, opened_at, deadline, finished)"
            " VALUES (?,?,?,?,?,?,?,?,?)",
            (
                game.id,
                game.ruleset,
                game.seed,
                json.dumps(game.setup),
                json.dumps(game.state),
                game.phase_key,
                ts(game.opened_at),
                game.deadline and ts(game.deadline),
                int(game.finished),
            ),
        )

    def update_game(
        self,
        game_id: str,
        *,
        state: dict[str, Any],
        phase_key: str,
        opened_at: datetime,
        deadline: datetime | None,
        finished: bool,
    ) -> None:
        self.db.execute(
            "UPDATE games SET state = ?, phase_key = ?, opened_at = ?, deadline = ?, finished = ?"
            " WHERE id = ?",
            (
                json.dumps(state),
                phase_key,
                ts(opened_at),
                deadline and ts(deadline),
                int(finished),
                game_id,
            ),
        )

    def set_state(self, game_id: str, state: dict[str, Any]) -> None:
        self.db.execute("UPDATE games SET state = ? WHERE id = ?", (json.dumps(state), game_id))

    def set_setup(self, game_id: str, setup: dict[str, Any]) -> None:
        self.db.execute("UPDATE games SET setup = ? WHERE id = ?", (json.dumps(setup), game_id))

    # --- submissions and rounds -----------------------------------------------------------------

    def add_submission(
        self,
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
        self.db.execute(
            "INSERT INTO submissions (game, phase_key, player, input_id, received_at, text, parsed, standing,"
            " kind) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                game,
                phase_key,
                player,
                input_id,
                ts(received_at),
                text,
                json.dumps(parsed),
                json.dumps(standing),
                kind,
            ),
        )

    def record_round(
        self,
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
        cursor = self.db.execute(
            "INSERT OR IGNORE INTO rounds (game, phase_key, resolved_at, state_before, submissions,"
            " state_after, events) VALUES (?,?,?,?,?,?,?)",
            (
                game,
                phase_key,
                ts(resolved_at),
                json.dumps(state_before),
                json.dumps(submissions),
                json.dumps(state_after),
                json.dumps(events),
            ),
        )
        return cursor.rowcount == 1

    def void_submissions(self, game: str, phase_keys: list[str]) -> None:
        """Take a rollback's undone phases out of play; their acts stay in the journal for the record."""
        for key in phase_keys:
            self.db.execute("UPDATE submissions SET void = 1 WHERE game = ? AND phase_key = ?", (game, key))

    def undo_rounds(self, game: str, phase_keys: list[str], *, at: datetime) -> None:
        """Move resolved rounds to ``undone_rounds``: a rollback re-opens the first of them."""
        for key in phase_keys:
            self.db.execute(
                "INSERT INTO undone_rounds SELECT game, phase_key, resolved_at, ?, state_before, submissions,"
                " state_after, events FROM rounds WHERE game = ? AND phase_key = ?",
                (ts(at), game, key),
            )
            self.db.execute("DELETE FROM rounds WHERE game = ? AND phase_key = ?", (game, key))

    # --- outbox ---------------------------------------------------------------------------------

    def queue(
        self,
        *,
        key: str,
        message_id: str,
        game: str | None,
        kind: str,
        recipient: str,
        raw: bytes,
        created_at: datetime,
        pictures: Mapping[str, bytes] | None = None,
        held: bool = False,
    ) -> bool:
        """Queue one mail unless a mail with this key was ever queued. True if queued now. ``raw``
        may stand for its ``pictures`` by key, as ``compose.journal_bytes`` writes it. A ``held``
        mail is kept with status 'held' and never sent."""
        cursor = self.db.execute(
            "INSERT OR IGNORE INTO outbox (key, message_id, game, kind, recipient, raw, created_at, status)"
            " VALUES (?,?,?,?,?,?,?,?)",
            (key, message_id, game, kind, recipient, raw, ts(created_at), "held" if held else "queued"),
        )
        if cursor.rowcount == 1 and pictures:
            self.db.executemany(
                "INSERT OR IGNORE INTO outbox_pictures (key, data) VALUES (?,?)", list(pictures.items())
            )
        return cursor.rowcount == 1

    def without_bytes(self, rows: list[tuple[Any, ...]]) -> None:
        """Put these outbox rows back with no bytes (``SqliteJournal.forget_sent`` says why)."""
        self.db.executemany("DELETE FROM outbox WHERE id = ?", [(row[0],) for row in rows])
        self.db.executemany(
            f"INSERT INTO outbox ({OUTBOX_ROW}, raw) VALUES ({', '.join('?' * 12)}, X'')", rows
        )

    def keep_lines(
        self, *, message_id: str, recipient: str, game: str | None, prints: bytes, created_at: datetime
    ) -> None:
        """Keep a sent mail's line digests, and drop that address's older ones beyond the last
        ``SENT_LINES_KEPT`` in the game (by the index: the table is never scanned)."""
        to, game_id = recipient.lower(), game or ""
        self.db.execute(
            "INSERT INTO sent_lines (message_id, recipient, game, created_at, prints) VALUES (?,?,?,?,?)",
            (message_id, to, game_id, ts(created_at), prints),
        )
        self.db.execute(
            "DELETE FROM sent_lines WHERE recipient = ? AND game = ? AND id <= (SELECT id FROM sent_lines"
            " WHERE recipient = ? AND game = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
            (to, game_id, to, game_id, SENT_LINES_KEPT),
        )

    # --- meta -----------------------------------------------------------------------------------

    def put_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def delete_meta(self, key: str) -> None:
        self.db.execute("DELETE FROM meta WHERE key = ?", (key,))
