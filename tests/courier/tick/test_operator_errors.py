"""Tried as an operator would: every mistake in the deployment file, a journal that cannot be written
(read-only, disk full), a full disk under the outbox, an unexpected bug — each is one line naming the
file and the fix, a non-zero exit, and nothing lost: the next tick after the fix completes."""

from __future__ import annotations

import errno
import os
import sqlite3
import time
from collections.abc import Callable

import pytest

from courier.backends.files import EmlDirectory
from courier.journal.sqlite import SqliteJournal
from courier.tools import cli
from tests.conftest import Table, count_fault, text_of
from tests.helpers.clock import at

BAD_SETTINGS = {
    "state_dir = 5": "`state_dir` must be text",
    'inbox = "x"': "`inbox` must be a table",
    '[inbox]\ntype = "pop3"': "[inbox] type = 'pop3': use 'maildir' or 'imap'",
    '[inbox]\ntype = "imap"\nusername = "u"': "[inbox] type = 'imap' needs `host`",
    '[outbox]\ntype = "smtp"': "[outbox] type = 'smtp' needs `host`",
    '[auth]\ntrusted_authserv_ids = "mx.google.com"': "trusted_authserv_ids must be a list",
    "stale_after = true": "`stale_after` must be",
}


def _run(table: Table, capsys: pytest.CaptureFixture[str], *extra: str, when: str = "") -> tuple[int, str]:
    now = when or at(0, 9).isoformat()
    code = cli.main(["tick", "--config", str(table.deployment.path), "--now", now, *extra])
    return code, capsys.readouterr().err.strip()


@pytest.mark.parametrize("setting", sorted(BAD_SETTINGS))
def test_a_bad_setting_is_one_line_naming_the_file(
    make_table: Callable[..., Table], capsys: pytest.CaptureFixture[str], setting: str
) -> None:
    table = make_table()
    toml = table.deployment.path
    text = toml.read_text()
    for table_name in ("[inbox]", "[outbox]"):  # replace the whole table the setting redefines
        if setting.startswith(table_name) or setting.startswith(table_name.strip("[]") + " ="):
            start = text.index(table_name)
            end = text.index("\n\n", start) if "\n\n" in text[start:] else len(text)
            text = text[:start] + text[end:]
    key = setting.split("=")[0].strip()
    text = "\n".join(line for line in text.splitlines() if line.split("=")[0].strip() != key)
    toml.write_text(setting + "\n" + text if not setting.startswith("[") else text + "\n" + setting + "\n")
    code, err = _run(table, capsys)
    assert code == 2
    assert err.count("\n") == 0 and str(toml) in err and BAD_SETTINGS[setting] in err


def test_a_config_file_not_in_utf8_is_one_line(
    make_table: Callable[..., Table], capsys: pytest.CaptureFixture[str]
) -> None:
    table = make_table()
    toml = table.deployment.path
    toml.write_bytes(toml.read_bytes().replace(b"courier.test>", b"courier.test> \xe9t\xe9", 1))
    code, err = _run(table, capsys)
    assert code == 2 and "not UTF-8" in err and "\n" not in err


def _limit_journal(monkeypatch: pytest.MonkeyPatch, pragma: str) -> None:
    """SQLite's own failures, for real: a journal that may not grow (disk full) or may not be written."""
    real = SqliteJournal._open

    def limited(self: SqliteJournal) -> None:
        real(self)
        if pragma == "full":
            pages = self.db.execute("PRAGMA page_count").fetchone()[0]
            self.db.execute(f"PRAGMA max_page_count = {pages}")
        else:
            self.db.execute("PRAGMA query_only = 1")

    monkeypatch.setattr(SqliteJournal, "_open", limited)


@pytest.mark.parametrize(("pragma", "says"), [("full", "free some space"), ("readonly", "write access")])
def test_a_journal_that_cannot_be_written_stops_the_tick_and_loses_nothing(
    make_table: Callable[..., Table],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    pragma: str,
    says: str,
) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    table.order("Agatha", "attack Barney " + "x" * 20_000)  # a mail that needs new pages
    table.order("Barney", "loot")
    _limit_journal(monkeypatch, pragma)
    code, err = _run(table, capsys)
    assert code == 2 and says in err and "\n" not in err and "journal" in err
    monkeypatch.undo()
    code, err = _run(table, capsys, when=at(0, 9, 5).isoformat())
    assert code == 0, err
    journal = SqliteJournal(table.deployment.journal_path)
    assert sorted(journal.standing("truce-1", "round-1")) == ["Agatha", "Barney"]
    journal.close()
    count_fault(f"journal {pragma}")


def test_a_full_disk_under_the_outbox_stops_the_tick_and_loses_nothing(
    make_table: Callable[..., Table], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = make_table()

    def full(self: EmlDirectory, *message: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self.path))

    monkeypatch.setattr(EmlDirectory, "send", full)
    monkeypatch.setattr(EmlDirectory, "send_raw", full)
    code, err = _run(table, capsys, when=at(0, 8, 5).isoformat())
    assert code == 2 and "No space left on device" in err and "\n" not in err
    monkeypatch.undo()
    code, _ = _run(table, capsys, when=at(0, 8, 10).isoformat())
    assert code == 0
    assert "Welcome" in str(table.sent("Agatha")[0]["Subject"])
    count_fault("files outbox: no space left")


def test_an_unexpected_error_is_one_line_and_minus_vv_shows_the_traceback(
    make_table: Callable[..., Table], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = make_table()

    def broken(*args: object, **kwargs: object) -> list[str]:
        raise RuntimeError("something nobody expected")

    monkeypatch.setattr("courier.tick.runbook.run_tick", broken)
    code, err = _run(table, capsys)
    assert code == 3 and "something nobody expected" in err and "-vv" in err and "\n" not in err
    with pytest.raises(RuntimeError):
        cli.main(["-vv", "tick", "--config", str(table.deployment.path)])


def test_temporary_files_of_an_interrupted_write_are_removed(make_table: Callable[..., Table]) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    outbox = table.root / "mail" / "sent" / "agatha@players.test"
    left = [outbox / ".0001-welcome.eml.0badcafe.tmp", table.root / ".truce-1.xlsx.deadbeef.tmp"]
    kept = table.root / "notes.tmp"
    for path in [*left, kept]:
        path.write_text("half")
        os.utime(path, (time.time() - 3600, time.time() - 3600))
    table.tick(at(0, 9))
    assert not left[1].exists() and left[0].exists() and kept.exists()  # the outbox: once a day

    stamp = table.deployment.state_dir / "outbox.swept"
    os.utime(stamp, (time.time() - 86400, time.time() - 86400))
    table.tick(at(0, 10))
    assert not any(p.exists() for p in left) and kept.exists()
    assert text_of(table.sent("Agatha")[0])


def test_a_truncated_journal_is_one_line(
    make_table: Callable[..., Table], capsys: pytest.CaptureFixture[str]
) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    path = table.deployment.journal_path
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    path.write_bytes(path.read_bytes()[:3000])
    code, err = _run(table, capsys)
    assert code == 2 and "damaged" in err and "\n" not in err
