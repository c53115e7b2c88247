"""The tick's journal queries are indexed: none scans a table that grows with the games' history, so
a tick costs what its new mail costs however long the games have run (issue 17)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from courier.journal.sqlite import SqliteJournal
from tests.conftest import Table
from tests.helpers.clock import at

NOON = datetime(2026, 12, 1, 12, tzinfo=UTC)
GROWING = ("inputs", "submissions", "rounds", "outbox", "meta", "sent_lines")


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every SQL statement a journal runs, with its values in place."""
    seen: list[str] = []
    opened = SqliteJournal._open

    def traced(self: SqliteJournal) -> None:
        opened(self)
        self.db.set_trace_callback(seen.append)

    monkeypatch.setattr(SqliteJournal, "_open", traced)
    yield seen


def _full_scans(db: sqlite3.Connection, sql: str) -> list[str]:
    """The steps of ``sql``'s plan that read a growing table whole: a SCAN, unless it walks a partial
    index (one holding only the rows still to do, such as the queued mail)."""
    partial = {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE sql LIKE '%WHERE%'")}
    plans = [str(row[3]).split() for row in db.execute(f"EXPLAIN QUERY PLAN {sql}")]
    return [
        " ".join(p)
        for p in plans
        if p[0] == "SCAN" and p[1] in GROWING and not (len(p) > 2 and p[-1] in partial)
    ]


def test_no_tick_query_scans_a_table_that_grows(
    make_table: Callable[..., Table], statements: list[str]
) -> None:
    table = make_table({"early_resolution": "no"})
    table.tick(at(0, 8, 5))  # welcomes
    for day in range(2):  # two rounds: mail, a typo, a reminder, a late mail, the resolution
        table.order("Agatha", "loot")
        table.order("Barney", "atack agatha")
        table.tick(at(day, 9))
        table.order("Barney", "attack agatha")
        table.tick(at(day, 19, 30))
        table.order("Celeste", "loot")
        table.tick(at(day, 20, 5))
    assert sum("results" in str(m["Subject"]) for m in table.sent("Agatha")) == 2
    assert any("Reminder" in str(m["Subject"]) for m in table.sent("Darcy"))

    journal = table.journal()
    try:
        scans = {
            sql[:120]: scan
            for sql in set(statements)
            if sql.lstrip().upper().startswith(("SELECT", "UPDATE", "DELETE", "INSERT"))
            for scan in _full_scans(journal.db, sql)
        }
    finally:
        journal.close()
    assert len(statements) > 100
    assert scans == {}


def test_the_imap_position_is_read_from_the_index(tmp_path: Path, statements: list[str]) -> None:
    journal = SqliteJournal(tmp_path / "journal.sqlite")
    try:
        for source_id in ("imap:INBOX:7:9", "imap:INBOX:7:10", "imap:INBOX:8:50", "imap:INBOX:70:99"):
            journal.add_input(source="mail", source_id=source_id, message_id="", received_at=NOON, raw=b"x")
        assert journal.last_uid("imap:INBOX:7:") == 10
        assert journal.last_uid("imap:Other:7:") == 0
        assert [_full_scans(journal.db, sql) for sql in statements if "source_id >=" in sql] == [[], []]
    finally:
        journal.close()


def test_only_marking_mail_sent_skips_the_sync_and_every_other_commit_syncs(tmp_path: Path) -> None:
    """Marking a mail sent is the one write whose loss in a power cut only sends it once more: its
    commit is not synced; orders, rounds and queued mail always are."""
    journal = SqliteJournal(tmp_path / "journal.sqlite")
    full = 2  # PRAGMA synchronous: 1 = NORMAL, 2 = FULL
    try:
        with journal.transaction() as db:
            db.queue(
                key="k",
                message_id="<m@x>",
                game=None,
                kind="receipt",
                recipient="a@x",
                raw=b"x",
                created_at=NOON,
            )
        seen: list[int] = []
        with pytest.raises(RuntimeError), journal.transaction(durable=False) as db:
            seen.append(journal.db.execute("PRAGMA synchronous").fetchone()[0])
            raise RuntimeError("a failure inside")
        journal.mark_sent(journal.queued()[0].id, NOON)
        assert seen == [1]
        assert journal.db.execute("PRAGMA synchronous").fetchone()[0] == full
        assert journal.outbox_counts() == {"sent": 1}
    finally:
        journal.close()


def test_a_quiet_tick_does_not_build_history(
    make_table: Callable[..., Table], monkeypatch: pytest.MonkeyPatch
) -> None:
    """History has a row per public event; a tick that changes nothing public leaves it alone."""
    from courier.tick import publish

    table = make_table()
    table.tick(at(0, 8, 5))
    table.tick(at(0, 20, 5))  # round 1 resolved
    built: list[str] = []
    build = publish.history_table

    def counted(tick: Any, game_id: str) -> list[list[Any]]:
        built.append(game_id)
        return build(tick, game_id)

    monkeypatch.setattr(publish, "history_table", counted)
    table.tick(at(1, 9))
    assert built == []
    table.tick(at(1, 20, 5))  # round 2 resolved
    assert built == ["truce-1"]


def _used_pages(journal: SqliteJournal) -> int:
    pages = journal.db.execute("PRAGMA page_count").fetchone()[0]
    return int(pages - journal.db.execute("PRAGMA freelist_count").fetchone()[0])


def _sent_reports(journal: SqliteJournal, count: int) -> None:
    """``count`` sent mails of 20 kB each, the size of a report's text."""
    with journal.transaction() as db:
        for n in range(count):
            db.queue(
                key=f"r{n}",
                message_id=f"<r{n}@x>",
                game="g",
                kind="report",
                recipient="a@x.test",
                raw=b"x" * 20_000,
                created_at=NOON,
            )
    for row in journal.queued():
        journal.mark_sent(row.id, NOON)


def test_mail_forgotten_leaves_no_pages_behind(tmp_path: Path) -> None:
    """Each report's text filled a page of the outbox; once its bytes are dropped its row shares a
    page with the others, so the journal and every copy of it do not grow by a page per mail."""
    journal = SqliteJournal(tmp_path / "journal.sqlite")
    try:
        _sent_reports(journal, 300)
        assert journal.forget_sent(NOON + timedelta(days=3)) == 300
        assert _used_pages(journal) < 60  # a page a row was 300 and more
        kept = journal.db.execute("SELECT key, status, length(raw) FROM outbox ORDER BY id").fetchall()
        assert kept == [(f"r{n}", "sent", 0) for n in range(300)]
    finally:
        journal.close()


def test_mail_blanked_in_place_by_an_earlier_version_is_compacted_once(tmp_path: Path) -> None:
    journal = SqliteJournal(tmp_path / "journal.sqlite")
    try:
        _sent_reports(journal, 300)
        with journal.transaction():
            journal.db.execute("UPDATE outbox SET raw = X''")  # as forget_sent did before
            journal.db.execute("DELETE FROM meta WHERE key = 'outbox/compact'")
        assert _used_pages(journal) > 300
    finally:
        journal.close()
    journal = SqliteJournal(tmp_path / "journal.sqlite")
    try:
        assert _used_pages(journal) < 60
        assert journal.db.execute("SELECT count(*) FROM outbox").fetchone() == (300,)
    finally:
        journal.close()
