"""Delivery details: a server that keeps failing (or stores the mail and hangs up) gets each mail a
bounded number of times, with growing waits, and the organiser is told; Message-IDs reveal nothing
about how much mail the arbiter received."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import timedelta
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import default
from itertools import pairwise

from courier.backends.base import TransientError
from courier.journal.sqlite import SqliteJournal
from courier.tick.runbook import run_tick
from courier.tick.send import MAX_ATTEMPTS, headers_of
from tests.conftest import Table, address, count_fault, text_of
from tests.helpers.clock import at


class StoresAndHangsUp:
    """Takes every message, then drops the connection before its 250."""

    def __init__(self) -> None:
        self.copies: list[EmailMessage] = []

    def send(self, message: EmailMessage) -> None:
        self.copies.append(message)
        raise TransientError("connection closed before 250")

    def close(self) -> None:
        pass


def test_a_mail_the_server_never_confirms_is_tried_a_bounded_number_of_times(
    make_table: Callable[..., Table],
) -> None:
    table = make_table()
    server = StoresAndHangsUp()
    now = at(0, 8, 5)

    def welcomes() -> list[EmailMessage]:
        return [m for m in server.copies if m["To"] == address("Agatha") and "Welcome" in str(m["Subject"])]

    for _ in range(60):  # cron every 5 minutes, five hours long
        run_tick(table.deployment, now=now, transport=server)
        now += timedelta(minutes=5)
        if len(welcomes()) == MAX_ATTEMPTS:
            break
    for _ in range(24):  # two more hours: no more copies
        run_tick(table.deployment, now=now, transport=server)
        now += timedelta(minutes=5)
    copies = welcomes()
    assert len(copies) == MAX_ATTEMPTS
    assert len({str(m["Message-ID"]) for m in copies}) == 1  # a repeat keeps its id: clients fold it
    journal = SqliteJournal(table.deployment.journal_path)
    statuses = journal.db.execute("SELECT DISTINCT status FROM outbox WHERE kind = 'welcome'").fetchall()
    journal.close()
    assert statuses == [("failed",)]
    for _ in range(60):  # the server works again: the organiser hears of it once its mail's wait is over
        run_tick(table.deployment, now=now)
        now += timedelta(minutes=5)
    told = [text_of(m) for m in table.sent("organiser@courier.test")]
    assert any(address("Agatha") in t and f"tried {MAX_ATTEMPTS} times" in t for t in told)
    count_fault("mail server stores then hangs up", len(server.copies))


def test_the_waits_grow_between_attempts(make_table: Callable[..., Table]) -> None:
    table = make_table()
    server = StoresAndHangsUp()
    tried_at = []
    now = at(0, 8, 5)
    for _ in range(30):
        before = len(server.copies)
        run_tick(table.deployment, now=now, transport=server)
        if len(server.copies) > before:
            tried_at.append(now)
        now += timedelta(minutes=5)
    waits = [b - a for a, b in pairwise(tried_at)]
    assert waits == sorted(waits) and waits[0] >= timedelta(minutes=5) and waits[-1] > waits[0]


def test_message_ids_do_not_count_the_mail_received(make_table: Callable[..., Table]) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    table.order("Agatha", "loot")
    table.mail("stranger@x.example", "hello")
    table.order("Agatha", "defend")
    table.tick(at(0, 9))
    receipts = [m for m in table.sent("Agatha") if "X-Courier-Kind" in m and m["X-Courier-Kind"] == "receipt"]
    assert len(receipts) == 2
    for message in receipts:
        for number in range(1, 10):
            plain = hashlib.sha256(f"receipt/{number}".encode()).hexdigest()
            assert plain[:24] not in str(message["Message-ID"])
            assert plain[:32] not in message.as_string()


def test_a_queued_mail_is_addressed_from_its_header_block_alone() -> None:
    """The outbox reads only the headers of a queued mail (a report's maps are not parsed again), and
    reads them as the whole mail would: folded headers, either line ending, a body that looks like
    headers."""
    message = EmailMessage()
    message["To"] = "Alice Liddell <alice@example.org>"
    message["Subject"] = "Spring 1901: a rather long subject line " + "that must fold " * 6
    message["Message-ID"] = "<report.1@courier.test>"
    message.set_content("To: mallory@example.org\n\nnot a header\n" * 3)
    for raw in (message.as_bytes(), message.as_bytes().replace(b"\n", b"\r\n")):
        headers = headers_of(raw)
        whole = BytesParser(policy=default).parsebytes(raw)
        assert [(k, str(v)) for k, v in headers.items()] == [(k, str(v)) for k, v in whole.items()]
        assert headers.get_all("To") == ["Alice Liddell <alice@example.org>"]
