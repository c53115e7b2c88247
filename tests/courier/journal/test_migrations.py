"""A journal of any earlier version opens with today's code: its schema becomes today's, its data
stays, and a journal written by an earlier Courier still replays every round.

Earlier versions' schemas are in tests/data/journals/schemas/stage-N.sql, taken from git history
(each file names its commit); tests/data/journals/demo-truce/ is a whole ``courier demo`` journal
written before the journal had a version (see tests/data/journals/README.md).
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from courier.errors import JournalError
from courier.journal.sqlite import SqliteJournal
from courier.journal.sqlite_schema import MIGRATIONS, VERSION
from courier.tools import cli
from tests.helpers.paths import DATA

JOURNALS = DATA / "journals"
STAGES = sorted(JOURNALS.glob("schemas/stage-*.sql"), key=lambda p: int(p.stem.split("-")[1]))
NOON = "2026-12-01T12:00:00+00:00"


def _shape(path: Path) -> dict[str, object]:
    """What a schema is made of: each table's columns (name, type, not null, default, key) and each
    index's definition, the way SQLite reads them (comments and spacing aside)."""
    db = sqlite3.connect(path)
    try:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        shape: dict[str, object] = {t: [r[1:] for r in db.execute(f"PRAGMA table_info({t})")] for t in tables}
        for name, sql in db.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
        ):
            shape[f"index {name}"] = re.sub(r"\s+", " ", str(sql).replace("IF NOT EXISTS ", "")).strip()
        shape["version"] = db.execute("PRAGMA user_version").fetchone()[0]
        return shape
    finally:
        db.close()


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    path = tmp_path_factory.mktemp("fresh") / "journal.sqlite"
    SqliteJournal(path).close()
    return _shape(path)


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {str(r[1]) for r in db.execute(f"PRAGMA table_info({table})")}


def _write_rows(db: sqlite3.Connection) -> None:
    """A game with one input, one submission, one round and a queued mail, in whatever columns the
    stage has (a later column takes its default)."""
    db.execute(
        "INSERT INTO inputs (source, source_id, message_id, received_at, raw) VALUES"
        " ('mail', 'k1', '<m1@x>', ?, X'6869')",
        (NOON,),
    )
    db.execute(
        "INSERT INTO games (id, ruleset, seed, setup, state, phase_key, opened_at) VALUES"
        " ('truce-1', 'truce', 's', '{\"players\": []}', '{\"round\": 2}', 'r2', ?)",
        (NOON,),
    )
    db.execute(
        "INSERT INTO submissions (game, phase_key, player, input_id, received_at, text, parsed, standing)"
        " VALUES ('truce-1', 'r2', 'Agatha', 1, ?, 'loot', '{}', '{\"orders\": 1}')",
        (NOON,),
    )
    db.execute("INSERT INTO rounds VALUES ('truce-1', 'r1', ?, '{}', '{}', '{\"round\": 2}', '[]')", (NOON,))
    db.execute(
        "INSERT INTO outbox (key, message_id, kind, recipient, raw, created_at) VALUES"
        " ('receipt/1', '<r1@x>', 'receipt', 'a@x', X'6d61696c', ?)",
        (NOON,),
    )
    db.execute("INSERT INTO meta VALUES ('control/truce-1', '{\"paused\": true}')")


def _journal_at_stage(path: Path, stage: Path) -> None:
    db = sqlite3.connect(path)
    try:
        db.executescript(stage.read_text(encoding="utf-8"))
        with db:
            _write_rows(db)
    finally:
        db.close()


def test_every_stage_has_a_schema_file() -> None:
    assert len(STAGES) == VERSION


@pytest.mark.parametrize("stage", STAGES, ids=lambda p: p.stem)
def test_a_journal_of_an_earlier_stage_becomes_todays_and_keeps_its_data(
    tmp_path: Path, stage: Path, fresh: dict[str, object]
) -> None:
    path = tmp_path / "journal.sqlite"
    _journal_at_stage(path, stage)
    journal = SqliteJournal(path)
    try:
        game = journal.game("truce-1")
        assert game is not None and game.state == {"round": 2} and game.phase_key == "r2"
        assert journal.standing("truce-1", "r2")["Agatha"][0] == {"orders": 1}
        assert [a.kind for a in journal.acts("truce-1", "r2")] == ["orders"]
        assert [r["phase_key"] for r in journal.rounds("truce-1")] == ["r1"]
        assert [(m.key, m.raw, m.tried_at) for m in journal.queued()] == [("receipt/1", b"mail", None)]
        assert journal.meta("control/truce-1") == '{"paused": true}'
        assert journal.pending_inputs()[0].raw == b"hi"
    finally:
        journal.close()
    assert _shape(path) == fresh


@pytest.mark.parametrize("done", range(1, VERSION))
def test_a_journal_of_an_earlier_version_runs_the_migrations_after_it(
    tmp_path: Path, done: int, fresh: dict[str, object]
) -> None:
    path = tmp_path / "journal.sqlite"
    db = sqlite3.connect(path, isolation_level=None)
    for migration in MIGRATIONS[:done]:
        migration(db)
    db.execute(f"PRAGMA user_version = {done}")
    _write_rows(db)
    db.close()
    SqliteJournal(path).close()
    assert _shape(path) == fresh


def test_a_journal_of_a_later_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    SqliteJournal(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {VERSION + 1}")
    db.close()
    with pytest.raises(JournalError, match="newer than this Courier"):
        SqliteJournal(path)


def test_a_journal_written_before_the_change_replays_every_round_after_migration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    demo = tmp_path / "demo"
    shutil.copytree(JOURNALS / "demo-truce", demo)
    journal = demo / "state" / "journal.sqlite"
    assert _shape(journal)["version"] == 0
    code = cli.main(["replay", "truce-demo", "--config", str(demo / "courier.toml")])
    assert code == 0
    assert capsys.readouterr().out.strip() == "truce-demo: 3 round(s) replayed, all reproduce"
    assert _shape(journal)["version"] == VERSION


def test_the_demo_journal_keeps_its_mail_and_meta_through_the_migration(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    shutil.copy(JOURNALS / "demo-truce" / "state" / "journal.sqlite", path)
    before = sqlite3.connect(path)
    meta = dict(before.execute("SELECT key, value FROM meta").fetchall())
    outbox = before.execute("SELECT key, status, raw FROM outbox ORDER BY id").fetchall()
    before.close()
    journal = SqliteJournal(path)
    try:
        assert {k: journal.meta(k) for k in meta} == meta
        after = journal.db.execute("SELECT key, status, raw FROM outbox ORDER BY id").fetchall()
        assert after == outbox
        assert journal.mail_secret() == bytes.fromhex(meta["mail/secret"])
        last = journal.meta("tick/last")
        assert last is not None and datetime.fromisoformat(last) > datetime(2026, 1, 1, tzinfo=UTC)
    finally:
        journal.close()
