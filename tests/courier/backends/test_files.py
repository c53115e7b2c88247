"""The .eml outbox: one readable file per message, one folder per recipient, resends overwrite."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from courier.backends.base import PermanentError
from courier.backends.files import EmlDirectory, atomic_writer


def _mail(to: str, subject: str, body: str, message_id: str | None = None) -> EmailMessage:
    message = EmailMessage()
    message["From"] = "Courier <judge@example.org>"
    message["To"] = to
    message["Subject"] = subject
    if message_id:
        message["Message-ID"] = message_id
    message.set_content(body)
    return message


def _files(root: Path) -> list[str]:
    """The mail a person sees in the folders (the transport's hidden index is not mail)."""
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and p.name[0] != ".")


def _read(path: Path) -> EmailMessage:
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


def test_each_message_becomes_a_numbered_file_per_recipient(tmp_path: Path) -> None:
    outbox = EmlDirectory(tmp_path)

    outbox.send(
        _mail("Alice <Alice@Example.org>, bob@example.org", "Round 3: results / Truce!", "You won.", "<1@c>")
    )
    outbox.send(_mail("alice@example.org", "Reminder", "Orders due.", "<2@c>"))
    outbox.send(_mail("bob@example.org", "Receipt", "Got it.", "<3@c>"))
    outbox.close()

    assert _files(tmp_path) == [
        "alice@example.org/0001-round-3-results-truce.eml",
        "alice@example.org/0002-reminder.eml",
        "bob@example.org/0001-receipt.eml",
    ]
    first = _read(tmp_path / "alice@example.org" / "0001-round-3-results-truce.eml")
    assert first["Subject"] == "Round 3: results / Truce!"
    assert first["To"] == "Alice <Alice@Example.org>, bob@example.org"
    body = first.get_body(("plain",))
    assert body is not None
    assert body.get_content() == "You won.\n"


def test_a_resend_with_the_same_message_id_overwrites(tmp_path: Path) -> None:
    outbox = EmlDirectory(tmp_path)
    outbox.send(_mail("alice@example.org", "Round 1", "draft", "<round-1.alice@courier>"))
    outbox.send(_mail("alice@example.org", "Other", "other", "<other@courier>"))

    outbox.send(_mail("alice@example.org", "Round 1", "final", "<round-1.alice@courier>"))

    assert _files(tmp_path) == ["alice@example.org/0001-round-1.eml", "alice@example.org/0002-other.eml"]
    resent = _read(tmp_path / "alice@example.org" / "0001-round-1.eml")
    assert resent.get_content() == "final\n"


@pytest.mark.parametrize("index", ["kept", "lost", "damaged"])
def test_a_resend_in_a_later_tick_overwrites_reading_no_old_mail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, index: str
) -> None:
    first = EmlDirectory(tmp_path)
    for number in range(20):
        first.send(_mail("alice@example.org", f"Round {number}", "old", f"<round-{number}@courier>"))
    first.send(_mail("alice@example.org", "Receipt", "draft", "<receipt@courier>"))
    noted = tmp_path / "alice@example.org" / ".message-ids"
    if index == "lost":
        noted.unlink()
    if index == "damaged":
        noted.write_text("0021-receipt.eml\n\x00garbage", encoding="utf-8")
    opened: list[str] = []
    real_open = Path.open

    def counting_open(self: Path, *args: Any, **kwargs: Any) -> Any:
        opened.append(self.name)
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", counting_open)
    later = EmlDirectory(tmp_path)  # the next tick, after a crash before the row was marked sent
    later.send(_mail("alice@example.org", "Receipt", "final", "<receipt@courier>"))
    later.send(_mail("alice@example.org", "Round 20", "new", "<round-20@courier>"))

    monkeypatch.undo()
    files = _files(tmp_path)
    assert len(files) == 22 and files[-2:] == [
        "alice@example.org/0021-receipt.eml",
        "alice@example.org/0022-round-20.eml",
    ]
    assert _read(tmp_path / "alice@example.org" / "0021-receipt.eml").get_content() == "final\n"
    mail_read = [name for name in opened if name.endswith(".eml")]
    assert mail_read == ([] if index == "kept" else sorted(n.rsplit("/", 1)[1] for n in files[:21]))


def test_the_same_message_id_to_another_recipient_is_a_separate_file(tmp_path: Path) -> None:
    outbox = EmlDirectory(tmp_path)

    outbox.send(_mail("alice@example.org", "News", "x", "<news@courier>"))
    outbox.send(_mail("bob@example.org", "News", "x", "<news@courier>"))

    assert _files(tmp_path) == ["alice@example.org/0001-news.eml", "bob@example.org/0001-news.eml"]


def test_messages_without_a_message_id_are_all_kept(tmp_path: Path) -> None:
    outbox = EmlDirectory(tmp_path)

    outbox.send(_mail("alice@example.org", "", "one"))
    outbox.send(_mail("alice@example.org", "", "two"))

    assert _files(tmp_path) == ["alice@example.org/0001-message.eml", "alice@example.org/0002-message.eml"]


def test_a_strange_address_cannot_escape_the_folder(tmp_path: Path) -> None:
    EmlDirectory(tmp_path / "out").send(_mail('"x" <../../evil/x@example.org>', "Hi", "x", "<e@c>"))

    [written] = (tmp_path / "out").rglob("*.eml")
    assert written.parent.parent == tmp_path / "out"


def test_a_message_without_recipient_is_a_permanent_error(tmp_path: Path) -> None:
    message = _mail("alice@example.org", "Hi", "x")
    del message["To"]

    with pytest.raises(PermanentError, match="no To address"):
        EmlDirectory(tmp_path).send(message)


def test_atomic_writer_leaves_the_old_file_when_writing_fails(tmp_path: Path) -> None:
    target = tmp_path / "state.json"
    target.write_text("old")
    target.chmod(0o640)

    with pytest.raises(RuntimeError), atomic_writer(target) as file:
        file.write(b"half")
        raise RuntimeError("disk on fire")

    assert target.read_text() == "old"
    assert _files(tmp_path) == ["state.json"]

    with atomic_writer(target) as file:
        file.write(b"new")
    assert target.read_text() == "new"
    assert target.stat().st_mode & 0o777 == 0o640
    assert _files(tmp_path) == ["state.json"]
