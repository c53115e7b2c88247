"""The IMAP inbox over the wire, against Dovecot (implicit TLS, when installed) and pymap (STARTTLS)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from imapclient import IMAPClient  # type: ignore[import-untyped]

from courier.backends.base import BackendError, RawMessage
from courier.backends.imap import ImapInbox
from tests.servers.imap import ImapServer, append, connect, inbox_settings, new_user

ONE_HOUR_EAST = timezone(timedelta(hours=1))


class Journal:
    """What the tick's journal tells the inbox: the highest UID it holds under a prefix."""

    def __init__(self) -> None:
        self.source_ids: list[str] = []

    def add(self, messages: list[RawMessage]) -> None:
        self.source_ids += [m.source_id for m in messages]

    def last_uid(self, prefix: str) -> int:
        return max((int(s.removeprefix(prefix)) for s in self.source_ids if s.startswith(prefix)), default=0)


def mail(n: int, subject: str = "orders") -> bytes:
    return (
        f"From: player{n}@players.test\r\nTo: orders@courier.test\r\nSubject: {subject} {n}\r\n"
        f"Message-ID: <m{n}@players.test>\r\n\r\nHold everything, round {n}.\r\n"
    ).encode()


@pytest.fixture
def user(imap_server: ImapServer) -> str:
    return new_user(imap_server)[0]


@pytest.fixture
def journal() -> Journal:
    return Journal()


@pytest.fixture
def open_inbox(imap_server: ImapServer, user: str, journal: Journal) -> Iterator[Any]:
    opened: list[ImapInbox] = []

    def make(**settings: Any) -> ImapInbox:
        inbox = ImapInbox(inbox_settings(imap_server, user, **settings), last_uid=journal.last_uid)
        opened.append(inbox)
        return inbox

    yield make
    for inbox in opened:
        inbox.close()


def flags(server: ImapServer, user: str, folder: str = "INBOX") -> dict[int, set[bytes]]:
    client = connect(server, user)
    try:
        client.select_folder(folder, readonly=True)
        return {uid: set(f) for uid, f in client.get_flags(client.search("ALL")).items()}
    finally:
        client.logout()


def folder_contents(server: ImapServer, user: str) -> dict[str, list[bytes]]:
    """Every folder's messages, by folder name as the server spells it."""
    client = connect(server, user)
    try:
        contents = {}
        for folder_flags, _, name in client.list_folders():
            if b"\\Noselect" in folder_flags or b"\\NonExistent" in folder_flags:
                continue  # a parent made only implicitly
            client.select_folder(name, readonly=True)
            found = client.fetch(client.search("ALL"), ["BODY.PEEK[]"])
            contents[name] = [found[uid][b"BODY[]"] for uid in sorted(found)]
        return contents
    finally:
        client.logout()


# --- fetching -------------------------------------------------------------------------------------


def test_fetch_new_gives_exact_bytes_and_internaldate_oldest_first(
    imap_server: ImapServer, user: str, open_inbox: Any
) -> None:
    first = datetime(2025, 12, 1, 19, 59, 58, tzinfo=ONE_HOUR_EAST)
    uids = [append(imap_server, user, mail(n), when=first + timedelta(minutes=n)) for n in (1, 2)]

    messages = open_inbox().fetch_new()

    assert [m.raw for m in messages] == [mail(1), mail(2)]
    assert [m.received_at for m in messages] == [first + timedelta(minutes=1), first + timedelta(minutes=2)]
    assert all(m.received_at is not None and m.received_at.tzinfo is not None for m in messages)
    uidvalidity = connect(imap_server, user).select_folder("INBOX")[b"UIDVALIDITY"]
    assert [m.source_id for m in messages] == [f"imap:INBOX:{uidvalidity}:{uid}" for uid in uids]


def test_an_empty_folder_gives_nothing(open_inbox: Any) -> None:
    assert open_inbox().fetch_new() == []


def test_fetching_leaves_mail_unseen_until_marked_processed(
    imap_server: ImapServer, user: str, open_inbox: Any
) -> None:
    uid = append(imap_server, user, mail(1))
    inbox = open_inbox()
    [message] = inbox.fetch_new()
    assert b"\\Seen" not in flags(imap_server, user)[uid]

    inbox.mark_processed(message.source_id)
    inbox.mark_processed(message.source_id)  # idempotent

    assert b"\\Seen" in flags(imap_server, user)[uid]


def test_only_uids_above_the_journals_last_one_are_fetched(
    imap_server: ImapServer, user: str, open_inbox: Any, journal: Journal
) -> None:
    for n in (1, 2):
        append(imap_server, user, mail(n))
    inbox = open_inbox()
    journal.add(inbox.fetch_new())
    # "UID n:*" matches the highest message even when n is above it: nothing new must mean nothing.
    assert inbox.fetch_new() == []

    append(imap_server, user, mail(3))
    assert [m.raw for m in inbox.fetch_new()] == [mail(3)]


def test_mail_a_human_has_read_is_still_fetched(imap_server: ImapServer, user: str, open_inbox: Any) -> None:
    append(imap_server, user, mail(1), flags=["\\Seen"])
    assert [m.raw for m in open_inbox().fetch_new()] == [mail(1)]


def test_a_new_uidvalidity_fetches_the_folder_again(
    imap_server: ImapServer, user: str, open_inbox: Any, journal: Journal
) -> None:
    """The folder is deleted and made again (a restored mailbox): its UIDs start over under a new
    UIDVALIDITY, so everything is fetched again and the journal drops what it has by Message-ID."""
    client = connect(imap_server, user)
    client.create_folder("Orders")
    append(imap_server, user, mail(1), folder="Orders")
    journal.add(before := open_inbox(folder="Orders").fetch_new())

    client.delete_folder("Orders")
    client.create_folder("Orders")
    client.logout()
    for n in (1, 2):
        append(imap_server, user, mail(n), folder="Orders")
    after = open_inbox(folder="Orders").fetch_new()

    assert [m.raw for m in after] == [mail(1), mail(2)]
    old_prefix = before[0].source_id.rpartition(":")[0]
    assert all(not m.source_id.startswith(old_prefix + ":") for m in after)


# --- filing ---------------------------------------------------------------------------------------


def test_processed_and_rejected_mail_is_filed_into_nested_folders(
    imap_server: ImapServer, user: str, open_inbox: Any
) -> None:
    for n in (1, 2, 3):
        append(imap_server, user, mail(n))
    inbox = open_inbox(processed_folder="Courier/Processed", rejected_folder="Courier/Rejected")
    accepted, rejected, _untouched = inbox.fetch_new()

    inbox.file_away(accepted.source_id, rejected=False)
    inbox.file_away(rejected.source_id, rejected=True)
    inbox.file_away(rejected.source_id, rejected=True)  # already gone: nothing to do

    contents = folder_contents(imap_server, user)
    delimiter = "." if imap_server.kind == "dovecot" else "/"  # the servers differ on purpose
    assert contents[f"Courier{delimiter}Processed"] == [mail(1)]
    assert contents[f"Courier{delimiter}Rejected"] == [mail(2)]
    assert contents["INBOX"] == [mail(3)]


def test_without_folders_filing_leaves_mail_in_place(
    imap_server: ImapServer, user: str, open_inbox: Any
) -> None:
    append(imap_server, user, mail(1))
    inbox = open_inbox()
    [message] = inbox.fetch_new()
    inbox.file_away(message.source_id, rejected=True)
    inbox.file_away(message.source_id, rejected=False)
    assert folder_contents(imap_server, user) == {"INBOX": [mail(1)]}


def test_filing_falls_back_to_copy_and_expunge_without_move(
    imap_server: ImapServer, user: str, open_inbox: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    advertised = IMAPClient.has_capability
    monkeypatch.setattr(IMAPClient, "has_capability", lambda self, c: c != "MOVE" and advertised(self, c))
    for n in (1, 2):
        append(imap_server, user, mail(n))
    inbox = open_inbox(rejected_folder="Rejected")
    first, _ = inbox.fetch_new()

    inbox.file_away(first.source_id, rejected=True)

    assert folder_contents(imap_server, user) == {"INBOX": [mail(2)], "Rejected": [mail(1)]}


# --- login and connection -------------------------------------------------------------------------


def test_a_wrong_password_is_one_clear_line(imap_server: ImapServer, user: str, tmp_path: Path) -> None:
    wrong = tmp_path / "password"
    wrong.write_text("not-the-password\n", encoding="utf-8")
    inbox = ImapInbox(
        inbox_settings(imap_server, user, password_file=str(wrong)), last_uid=Journal().last_uid
    )

    with pytest.raises(BackendError) as failure:
        inbox.fetch_new()

    message = str(failure.value)
    assert "\n" not in message
    assert "login" in message and user in message
    assert "not-the-password" not in message


def test_plain_imap_on_loopback(dovecot_plain_server: ImapServer) -> None:
    user, _ = new_user(dovecot_plain_server)
    append(dovecot_plain_server, user, mail(1))
    inbox = ImapInbox(inbox_settings(dovecot_plain_server, user), last_uid=Journal().last_uid)
    try:
        assert [m.raw for m in inbox.fetch_new()] == [mail(1)]
    finally:
        inbox.close()


def test_plain_imap_to_another_host_is_refused() -> None:
    with pytest.raises(BackendError, match="clear"):
        ImapInbox(
            {"host": "imap.example.com", "security": "plain", "username": "u", "password_env": "X"},
            last_uid=Journal().last_uid,
        )


def test_the_certificate_is_verified_unless_told_not_to(imap_server: ImapServer, user: str) -> None:
    untrusted = {k: v for k, v in inbox_settings(imap_server, user).items() if k != "ca_file"}
    inbox = ImapInbox(untrusted, last_uid=Journal().last_uid)
    with pytest.raises(BackendError, match="certificate"):
        inbox.fetch_new()

    careless = ImapInbox(untrusted | {"verify": False}, last_uid=Journal().last_uid)
    try:
        assert careless.fetch_new() == []
    finally:
        careless.close()


def test_nothing_listening_is_a_backend_error(imap_server: ImapServer) -> None:
    settings = inbox_settings(imap_server, "nobody", port=1, timeout=2)
    with pytest.raises(BackendError, match="cannot connect"):
        ImapInbox(settings, last_uid=Journal().last_uid).fetch_new()


def test_xoauth2_login(dovecot_server: ImapServer) -> None:
    """Dovecot's static passdb takes the access token as the password: enough to see imapclient's
    XOAUTH2 exchange succeed (token validity is the provider's business)."""
    user, _ = new_user(dovecot_server)
    append(dovecot_server, user, mail(1))
    settings = inbox_settings(dovecot_server, user, auth="xoauth2")
    settings["oauth2_token_file"] = settings.pop("password_file")
    inbox = ImapInbox(settings, last_uid=Journal().last_uid)
    try:
        assert [m.raw for m in inbox.fetch_new()] == [mail(1)]
    finally:
        inbox.close()


def test_received_at_is_utc(imap_server: ImapServer, user: str, open_inbox: Any) -> None:
    append(imap_server, user, mail(1), when=datetime(2025, 12, 1, 12, 0, tzinfo=ONE_HOUR_EAST))
    [message] = open_inbox().fetch_new()
    assert message.received_at == datetime(2025, 12, 1, 11, 0, tzinfo=UTC)
    assert message.received_at is not None and message.received_at.utcoffset() == timedelta(0)


def test_reread_since_finds_mail_already_read_and_filed(
    imap_server: ImapServer, user: str, open_inbox: Any
) -> None:
    """`courier tick --reread-since`: after a journal was lost, mail already marked and filed away is
    found again in every folder Courier files to."""
    for n in (1, 2, 3):
        append(imap_server, user, mail(n))
    inbox = open_inbox(processed_folder="Courier/Processed", rejected_folder="Courier/Rejected")
    accepted, rejected, left = inbox.fetch_new()
    for message in (accepted, rejected, left):
        inbox.mark_processed(message.source_id)
    inbox.file_away(accepted.source_id, rejected=False)
    inbox.file_away(rejected.source_id, rejected=True)
    found = inbox.fetch_since(datetime(2000, 1, 1, tzinfo=UTC))
    assert sorted(m.raw for m in found) == sorted([mail(1), mail(2), mail(3)])
    assert inbox.fetch_since(datetime(2999, 1, 1, tzinfo=UTC)) == []


# --- saying who we are ------------------------------------------------------------------------------


def test_the_inbox_sends_id_when_the_server_offers_it(
    imap_server: ImapServer, user: str, open_inbox: Any
) -> None:
    """Google asks IMAP clients to send ID (RFC 2971); both servers offer it and log what they got."""
    client = connect(imap_server, user)
    offered = client.has_capability("ID")
    client.logout()
    if not offered:
        pytest.skip(f"{imap_server.kind} does not offer ID")
    append(imap_server, user, mail(1))

    assert len(open_inbox().fetch_new()) == 1

    assert imap_server.log is not None
    logged = imap_server.log.read_text(errors="replace")
    assert "ID sent: name=Courier, version=" in logged
