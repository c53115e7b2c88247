"""The Maildir inbox, on real folders: what is fetched, in what order, and where marking moves it."""

from __future__ import annotations

import mailbox
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from courier.backends.maildir import MaildirInbox, deliver


def _message(subject: str) -> bytes:
    return f"From: alice@example.org\nTo: judge@example.org\nSubject: {subject}\n\nhold\n".encode()


def _put(folder: Path, subdir: str, name: str, subject: str) -> None:
    (folder / subdir / name).write_bytes(_message(subject))


def _subjects(inbox: MaildirInbox) -> list[str]:
    return [
        next(line for line in m.raw.decode().splitlines() if line.startswith("Subject: "))[9:]
        for m in inbox.fetch_new()
    ]


def _tree(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_creates_a_missing_maildir(tmp_path: Path) -> None:
    MaildirInbox(tmp_path / "deep" / "inbox")

    assert sorted(p.name for p in (tmp_path / "deep" / "inbox").iterdir()) == ["cur", "new", "tmp"]


def test_delivered_message_is_fetched_byte_for_byte(tmp_path: Path) -> None:
    inbox = MaildirInbox(tmp_path)
    raw = _message("orders") + "Grüße\r\n".encode()

    delivered = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)
    key = deliver(tmp_path, raw, at=delivered)

    [message] = inbox.fetch_new()
    assert message.source_id == f"maildir:{key}"
    assert message.raw == raw
    assert message.received_at == delivered  # the delivery time decides the round, not the tick
    assert list((tmp_path / "tmp").iterdir()) == []  # written in tmp/, then renamed into new/
    assert [p.name for p in (tmp_path / "new").iterdir()] == [key]


def test_fetch_is_oldest_first_and_skips_seen_mail(tmp_path: Path) -> None:
    inbox = MaildirInbox(tmp_path)
    _put(tmp_path, "new", "1700000300.M5P1Q1.host", "third")
    _put(tmp_path, "new", "1700000100.M900000P1Q2.host", "second")
    _put(tmp_path, "new", "1700000100.M20P1Q3.host", "first")  # same second, earlier microsecond
    _put(tmp_path, "cur", "1700000200.M1P1Q4.host:2,", "read by a mail client, not processed")
    _put(tmp_path, "cur", "1700000250.M1P1Q5.host:2,F", "flagged")
    _put(tmp_path, "cur", "1600000000.M1P1Q6.host:2,S", "already processed")
    _put(tmp_path, "new", "no-time-in-name", "by mtime")
    os.utime(tmp_path / "new" / "no-time-in-name", (1700000400, 1700000400))

    assert _subjects(inbox) == [
        "first",
        "second",
        "read by a mail client, not processed",
        "flagged",
        "third",
        "by mtime",
    ]


def test_fetch_changes_nothing(tmp_path: Path) -> None:
    inbox = MaildirInbox(tmp_path)
    deliver(tmp_path, _message("a"))
    _put(tmp_path, "cur", "1700000200.M1P1Q4.host:2,", "b")
    before = _tree(tmp_path)

    first, second = inbox.fetch_new(), inbox.fetch_new()

    assert first == second
    assert _tree(tmp_path) == before


def test_a_processed_message_is_not_fetched_again(tmp_path: Path) -> None:
    inbox = MaildirInbox(tmp_path)
    keep = deliver(tmp_path, _message("keep"))
    done = deliver(tmp_path, _message("done"))

    inbox.mark_processed(f"maildir:{done}")
    inbox.mark_processed(f"maildir:{done}")  # idempotent

    assert _subjects(inbox) == ["keep"]
    assert (tmp_path / "cur" / f"{done}:2,S").is_file()
    assert (tmp_path / "new" / keep).is_file()
    assert mailbox.Maildir(tmp_path)[done].get_flags() == "S"


def test_marking_keeps_the_flags_a_mail_client_set(tmp_path: Path) -> None:
    inbox = MaildirInbox(tmp_path)
    _put(tmp_path, "cur", "1700000250.M1P1Q5.host:2,RF", "flagged and replied")

    inbox.mark_processed("maildir:1700000250.M1P1Q5.host")

    assert [p.name for p in (tmp_path / "cur").iterdir()] == ["1700000250.M1P1Q5.host:2,FRS"]
    assert inbox.fetch_new() == []


def test_a_rejected_message_moves_to_the_rejected_folder(tmp_path: Path) -> None:
    inbox = MaildirInbox(tmp_path)
    key = deliver(tmp_path, _message("spam"))

    inbox.mark_processed(f"maildir:{key}", rejected=True)
    inbox.mark_processed(f"maildir:{key}", rejected=True)
    inbox.mark_processed(f"maildir:{key}")  # already gone from the inbox: nothing to do

    assert inbox.fetch_new() == []
    rejected = mailbox.Maildir(tmp_path).get_folder("Rejected")
    assert rejected.keys() == [key]
    assert rejected[key].get_flags() == "S"
    assert (tmp_path / ".Rejected" / "cur" / f"{key}:2,S").is_file()


def test_a_processed_message_can_still_be_rejected(tmp_path: Path) -> None:
    inbox = MaildirInbox(tmp_path)
    key = deliver(tmp_path, _message("late verdict"))

    inbox.mark_processed(f"maildir:{key}")
    inbox.mark_processed(f"maildir:{key}", rejected=True)

    assert list((tmp_path / "cur").iterdir()) == []
    assert (tmp_path / ".Rejected" / "cur" / f"{key}:2,S").is_file()


def test_marking_a_message_that_is_gone_is_fine(tmp_path: Path) -> None:
    inbox = MaildirInbox(tmp_path)

    inbox.mark_processed("maildir:1700000000.M1P1Q1.nowhere")
    inbox.mark_processed("maildir:1700000000.M1P1Q1.nowhere", rejected=True)

    assert inbox.fetch_new() == []


@pytest.mark.parametrize("source_id", ["imap:INBOX:1:2", "maildir:../../etc/passwd"])
def test_a_foreign_source_id_is_refused(tmp_path: Path, source_id: str) -> None:
    with pytest.raises(ValueError, match="not a Maildir source id"):
        MaildirInbox(tmp_path).mark_processed(source_id)


def _forbid_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the Maildir was listed")

    for name in ("scandir", "listdir"):
        monkeypatch.setattr(os, name, refuse)
    for name in ("iterdir", "glob", "rglob"):
        monkeypatch.setattr(Path, name, refuse)


def _snapshot(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}


def test_marking_a_message_touches_only_that_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inbox = MaildirInbox(tmp_path)
    for number in range(30):  # mail processed in earlier ticks: cur/ grows with every message ever read
        MaildirInbox(tmp_path).mark_processed(f"maildir:{deliver(tmp_path, _message(f'old {number}'))}")
    MaildirInbox(tmp_path).file_away(f"maildir:{deliver(tmp_path, _message('spam'))}", rejected=True)
    keys = [deliver(tmp_path, _message(f"new {number}")) for number in range(3)]
    assert _subjects(inbox) == ["new 0", "new 1", "new 2"]
    before = _snapshot(tmp_path)

    _forbid_listing(monkeypatch)
    inbox.mark_processed(f"maildir:{keys[1]}")
    inbox.file_away(f"maildir:{keys[1]}", rejected=True)
    inbox.mark_processed(f"maildir:{keys[2]}")

    monkeypatch.undo()
    after = _snapshot(tmp_path)
    moved = {f"new/{keys[1]}", f"new/{keys[2]}"}
    assert {k: v for k, v in before.items() if k not in moved} == {
        k: v for k, v in after.items() if k in before
    }
    assert set(after) - set(before) == {f".Rejected/cur/{keys[1]}:2,S", f"cur/{keys[2]}:2,S"}
    assert _subjects(inbox) == ["new 0"]


def test_a_later_tick_finds_a_processed_message_without_listing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for number in range(30):
        MaildirInbox(tmp_path).mark_processed(f"maildir:{deliver(tmp_path, _message(f'old {number}'))}")
    key = deliver(tmp_path, _message("read last tick, rejected now"))
    MaildirInbox(tmp_path).mark_processed(f"maildir:{key}")

    _forbid_listing(monkeypatch)
    MaildirInbox(tmp_path).file_away(f"maildir:{key}", rejected=True)

    monkeypatch.undo()
    assert (tmp_path / ".Rejected" / "cur" / f"{key}:2,S").is_file()
