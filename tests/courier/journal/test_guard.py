"""A lost, emptied or damaged journal never restarts a game silently, and the Ledger heals itself:
the sheet records that a game runs, and the tick checks the journal against it before reading mail."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from courier.backends.workbook import XlsxWorkbook
from courier.tools.cli import main
from tests.conftest import Table, count_fault
from tests.helpers.games import GAMES, LATER, NEXT_DAY, START, truce
from tests.helpers.ledger import ledger_facts


def standing(t: Table) -> dict[str, object]:
    journal = t.journal()
    try:
        row = journal.game("truce-1")
        assert row is not None
        return {player: found for player, found in journal.standing("truce-1", row.phase_key).items()}
    finally:
        journal.close()


def ledger(t: Table) -> tuple[tuple[str, ...], ...]:
    return XlsxWorkbook(t.root / "truce-1.xlsx").read().ledger


def inbox_new(t: Table) -> list[Path]:
    return list((t.root / "mail" / "inbox" / "new").iterdir())


@pytest.mark.parametrize("game", GAMES)
def test_a_quiet_tick_leaves_the_workbook_alone(tmp_path: Path, game: str) -> None:
    t = GAMES[game](tmp_path)
    assert t.tick(START) == []
    book = t.root / "truce-1.xlsx"
    written = book.stat().st_mtime_ns
    assert t.tick(LATER) == []
    assert book.stat().st_mtime_ns == written, "the Ledger read back differs from what was written"


@pytest.mark.parametrize("game", GAMES)
def test_an_overwritten_ledger_is_rewritten_at_the_next_tick(tmp_path: Path, game: str) -> None:
    t = GAMES[game](tmp_path)
    t.tick(START)
    good = ledger(t)
    assert ledger_facts(good)[:2] == ["Game", "truce-1"]
    XlsxWorkbook(t.root / "truce-1.xlsx").write_public(ledger=[["Round", "Player"]], history=[["Round"]])
    t.tick(LATER)
    assert ledger(t) == good


@pytest.mark.parametrize("lose", ["deleted", "emptied"])
@pytest.mark.parametrize("game", GAMES)
def test_a_lost_journal_stops_the_tick_before_any_mail_is_read(tmp_path: Path, game: str, lose: str) -> None:
    t = GAMES[game](tmp_path)
    t.tick(START)
    welcomes = len(t.sent())
    journal = t.deployment.journal_path
    if lose == "deleted":
        for side in journal.parent.glob("journal.sqlite*"):
            side.unlink()
    else:
        journal.write_bytes(b"")
    t.mail("stranger@elsewhere.test", "hold")
    problems = t.tick(LATER)
    assert len(problems) == 1 and "no record of it" in problems[0] and "courier restore" in problems[0]
    assert len(inbox_new(t)) == 1, "the mail must stay unread in the inbox"
    sent = t.sent()
    assert len(sent) == welcomes + 1 and sent[-1]["To"] == "organiser@courier.test"
    assert "no record of it" in str(sent[-1].get_body(("plain",)).get_content())  # type: ignore[union-attr]
    assert t.tick(NEXT_DAY) == problems, "it keeps refusing, and the organiser is told only once"
    assert len(t.sent()) == welcomes + 1
    count_fault(f"journal {lose}")


def test_new_journal_starts_the_game_over_when_the_operator_says_so(tmp_path: Path) -> None:
    t = truce(tmp_path)
    t.tick(START)
    t.deployment.journal_path.unlink()
    config = str(t.root / "courier.toml")
    assert main(["tick", "--config", config, "--now", LATER.isoformat()]) == 1
    assert main(["tick", "--config", config, "--now", LATER.isoformat(), "--new-journal"]) == 0
    journal = t.journal()
    assert journal.game("truce-1") is not None
    journal.close()


def test_a_damaged_journal_is_one_clear_line_and_no_mail_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = truce(tmp_path)
    t.tick(START)
    t.order("Agatha", "loot")
    path = t.deployment.journal_path
    data = bytearray(path.read_bytes())
    middle = len(data) // 3
    data[middle : middle + 8192] = b"\xff" * 8192  # two pages overwritten mid-file
    path.write_bytes(bytes(data))
    config = str(t.root / "courier.toml")
    assert main(["tick", "--config", config, "--now", LATER.isoformat()]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "journal" in error and "damaged" in error
    assert len(inbox_new(t)) == 1
    assert main(["replay", "truce-1", "--config", config]) == 2
    assert "damaged" in capsys.readouterr().err


def test_replay_without_a_journal_says_so_and_creates_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = truce(tmp_path)
    for leftover in t.deployment.state_dir.glob("journal.sqlite*"):  # the test table's fixed mail key
        leftover.unlink()
    assert main(["replay", "truce-1", "--config", str(t.root / "courier.toml")]) == 2
    assert "no journal" in capsys.readouterr().err
    assert not t.deployment.journal_path.exists()


def test_a_copy_is_taken_before_a_round_is_resolved_and_restore_puts_it_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = truce(tmp_path)
    t.tick(START)
    t.order("Agatha", "loot")
    t.tick(datetime(2026, 12, 1, 20, 5, tzinfo=UTC))  # round 1 resolved
    (copy,) = t.deployment.backup_dir.glob("journal-*.sqlite")
    assert copy.stat().st_mode & 0o077 == 0, "a copy holds every player's orders"
    sent = len(t.sent())
    for side in t.deployment.journal_path.parent.glob("journal.sqlite*"):
        side.unlink()
    config = str(t.root / "courier.toml")
    assert main(["tick", "--config", config, "--now", NEXT_DAY.isoformat()]) == 1
    assert main(["restore", str(copy), "--config", config]) == 0
    assert "truce-1: 0 round(s) replay" in capsys.readouterr().out
    assert main(["tick", "--config", config, "--now", NEXT_DAY.isoformat()]) == 0
    journal = t.journal()
    game, rounds = journal.game("truce-1"), journal.rounds("truce-1")
    journal.close()
    assert game is not None and len(rounds) == 1, "the game goes on from the copy, round 1 resolved once"
    earlier = {str(m["Message-ID"]) for m in t.sent()[:sent]}
    assert not earlier & {str(m["Message-ID"]) for m in t.sent()[sent:]}, "no welcome or report again"


def test_restore_refuses_what_is_not_a_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    t = truce(tmp_path)
    t.tick(START)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    assert main(["restore", str(junk), "--config", str(t.root / "courier.toml")]) == 2
    assert "damaged or not a journal" in capsys.readouterr().err
    assert t.journal().game("truce-1") is not None


def test_old_copies_are_pruned_by_count(tmp_path: Path) -> None:
    from courier.config.deployment import BackupPolicy
    from courier.journal.backups import backup_journal

    t = truce(tmp_path)
    t.tick(START)
    journal = t.journal()
    for hour in range(5):
        now = datetime(2026, 12, 1, 10 + hour, tzinfo=UTC)
        backup_journal(journal, tmp_path / "copies", now=now, policy=BackupPolicy(keep=2, days=30))
    journal.close()
    names = sorted(p.name for p in (tmp_path / "copies").iterdir())
    assert names == ["journal-20261201T130000Z.sqlite", "journal-20261201T140000Z.sqlite"]


def test_a_copy_holds_the_journal_without_its_unused_pages(tmp_path: Path) -> None:
    """Delivered maps leave the journal, but SQLite keeps their pages for reuse: a copy leaves them
    out, and it is still the whole journal (every game replays from it)."""
    from courier.config.deployment import BackupPolicy
    from courier.journal.backups import backup_journal, check_backup

    t = truce(tmp_path)
    t.tick(START)
    journal = t.journal()
    with journal.transaction():
        journal.db.execute("INSERT INTO meta (key, value) VALUES ('bulk', ?)", ("x" * 5_000_000,))
    with journal.transaction():
        journal.db.execute("DELETE FROM meta WHERE key = 'bulk'")
    copy = backup_journal(journal, tmp_path / "copies", now=START, policy=BackupPolicy())
    journal.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    journal.close()

    assert copy.stat().st_size * 4 < t.deployment.journal_path.stat().st_size
    assert check_backup(copy) == ["truce-1: 0 round(s) replay"]


def test_mail_forgotten_with_the_journal_is_read_again_with_reread_since(tmp_path: Path) -> None:
    """A journal put back from an older copy has forgotten mail the inbox already marked read;
    `courier tick --reread-since` journals it again, and only once."""
    t = truce(tmp_path)
    t.tick(START)
    copy = tmp_path / "copy.sqlite"
    shutil.copy(t.deployment.journal_path, copy)
    t.order("Agatha", "attack Barney")
    t.tick(START + timedelta(hours=1))
    for leftover in t.deployment.state_dir.glob("journal.sqlite*"):
        leftover.unlink()
    shutil.copy(copy, t.deployment.journal_path)
    t.tick(START + timedelta(hours=1, minutes=5))
    assert "Agatha" not in standing(t)  # the inbox shows it read: a plain tick cannot know of it
    config = str(t.root / "courier.toml")
    since = (START - timedelta(hours=1)).isoformat()
    later = (START + timedelta(hours=1, minutes=10)).isoformat()
    assert main(["tick", "--config", config, "--now", later, "--reread-since", since]) == 0
    assert "attack Barney" in str(standing(t)["Agatha"])
    receipts = len(t.sent("Agatha"))
    again = (START + timedelta(hours=1, minutes=15)).isoformat()
    assert main(["tick", "--config", config, "--now", again, "--reread-since", since]) == 0
    assert len(t.sent("Agatha")) == receipts  # read again only once


def test_quick_check_runs_unless_the_journal_is_as_its_last_clean_close_left_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole-file check costs a fraction of a second on a large journal: an idle tick skips it when
    the file is exactly as the last clean close left it (inode, size, mtime) and was checked within a
    day; anything else, a damaged write included, is checked before any mail is read."""
    from courier.errors import JournalError
    from courier.journal import sqlite as journal_module
    from courier.journal.sqlite import SqliteJournal

    t = truce(tmp_path)
    t.tick(START)
    path = t.deployment.journal_path
    again = SqliteJournal(path)
    assert again.checked is False  # closed cleanly by the tick a moment ago
    again.close()
    monkeypatch.setattr(journal_module, "FULL_CHECK_EVERY", -1.0)  # as if a day had passed
    daily = SqliteJournal(path)
    assert daily.checked is True
    daily.close()
    monkeypatch.undo()
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")  # damaged pages, same size: the middle of each page after the
    for start in range(page, len(data), page):  # first, so the damage never lands only in free space
        data[start + page // 2 : start + page // 2 + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    with pytest.raises(JournalError, match="damaged"):
        SqliteJournal(path)
