"""The mail provider's limit, a throttle, a refused login, through `courier tick` against the test
SMTP server: nothing queued is ever marked failed or counted as tried because of the account, the
organiser hears once (one line when it begins, `courier status` while it lasts, one mail when
sending works again), and no notice is queued about the mail that waits. The daily recipient
budget keeps under the provider's limit: the mail beyond it waits, earliest first.

Changed behaviour (issue 28): the daily limit used to be met again every tick, one line each time
(tests/courier/tick/test_one_input.py tested that); now the tick does not try before the limit
resets, and says so once."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest

from courier.backends.smtp import daily_recipients
from courier.config.deployment import load_deployment
from courier.journal.meta import SendingHeld
from courier.tick.held import describe
from courier.tools.cli import main
from tests.conftest import Table, address, count_fault, text_of
from tests.helpers.clock import at
from tests.servers.smtp import SmtpServer

ORGANISER = "organiser@courier.test"
PLAYERS = {address(n) for n in ("Agatha", "Barney", "Celeste", "Darcy")}
GMAIL_LIMIT = (
    "550 5.4.5 Daily user sending limit exceeded. For more information on Gmail sending limits go to"
    " https://support.google.com/a/answer/166852"
)
FILES_OUTBOX = '[outbox]\ntype = "files"\npath = "mail/sent"\n'


def sending_by(table: Table, server: SmtpServer, **settings: object) -> Table:
    """The deployment's [outbox] is the test SMTP server (as an organiser's courier.toml names Gmail)."""
    path = table.deployment.path
    text = path.read_text(encoding="utf-8")
    lines = "".join(f"{key} = {json.dumps(value)}\n" for key, value in server.settings(**settings).items())
    path.write_text(text.replace(FILES_OUTBOX, "[outbox]\n" + lines), encoding="utf-8")
    table.deployment = load_deployment(path)
    return table


def tick(table: Table, when: object, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    code = main(["tick", "--config", str(table.deployment.path), "--now", str(when)])
    return code, capsys.readouterr().err.splitlines()


def status(table: Table, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["status", "--config", str(table.deployment.path)]) == 0
    return capsys.readouterr().out


def outbox(table: Table) -> tuple[dict[str, int], list[tuple[str, int]]]:
    """The outbox's counts by status, and each queued mail's kind and attempts."""
    journal = table.journal()
    try:
        return journal.outbox_counts(), [(row.kind, row.attempts) for row in journal.queued()]
    finally:
        journal.close()


@pytest.fixture
def gmail(
    make_table: Callable[..., Table], make_smtp_server: Callable[..., SmtpServer]
) -> tuple[Table, SmtpServer]:
    server = make_smtp_server("starttls")
    return sending_by(make_table(), server), server


def test_the_daily_limit_holds_every_mail_a_day_and_tells_the_organiser_once(
    gmail: tuple[Table, SmtpServer], capsys: pytest.CaptureFixture[str]
) -> None:
    table, server = gmail
    server.refuse_data(GMAIL_LIMIT)

    code, err = tick(table, at(0, 8, 5), capsys)

    assert code == 1 and len(err) == 1, err
    assert "sending limit" in err[0] and "5.4.5" in err[0] and "none is given up" in err[0]
    tried = server.sessions
    when = at(0, 8, 10)
    while when < at(1, 8):  # cron every 5 minutes for a day: quiet, and Gmail is not asked again
        assert tick(table, when, capsys) == (0, [])
        when += timedelta(hours=1)
    assert server.sessions == tried and server.received == []
    assert "sending is HELD until 2026-12-02 08:05" in status(table, capsys)
    counts, queued = outbox(table)
    assert counts.get("failed", 0) == 0 and counts.get("sent", 0) == 0
    kinds = {kind for kind, _ in queued}
    assert "organiser" not in kinds, "no notice is queued through the exhausted account"
    assert {attempts for _, attempts in queued} == {0}

    server.refuse_data(None)  # a day later the limit has reset
    assert tick(table, at(1, 8, 10), capsys) == (0, [])

    to = [str(r.message["To"]) for r in server.received]
    assert set(to) == PLAYERS | {ORGANISER}
    told_mail = [  # the round's report to the organiser aside (issue 29)
        r for r in server.received if r.message["To"] == ORGANISER and r.message["X-Courier-Kind"] != "report"
    ]
    told = [text_of(r.message) for r in told_mail]
    assert len(told) == 1 and "held from 2026-12-01 08:05" in told[0] and "none was lost" in told[0]
    assert outbox(table)[0].get("failed", 0) == 0
    assert "HELD" not in status(table, capsys)
    assert tick(table, at(1, 8, 15), capsys) == (0, [])
    again = [
        r for r in server.received if r.message["To"] == ORGANISER and r.message["X-Courier-Kind"] != "report"
    ]
    assert again == told_mail, "told once"
    count_fault("Gmail's daily sending limit")


def test_a_throttle_holds_for_its_wait_then_sending_goes_on(
    gmail: tuple[Table, SmtpServer], capsys: pytest.CaptureFixture[str]
) -> None:
    table, server = gmail
    server.refuse_rcpt("421 4.7.0 Try again later, closing connection.")

    code, err = tick(table, at(0, 8, 5), capsys)
    assert code == 1 and len(err) == 1 and "slow down" in err[0] and "2026-12-01 08:15" in err[0]
    tried = server.sessions
    assert tick(table, at(0, 8, 10), capsys) == (0, [])
    assert server.sessions == tried

    server.recorder.rcpt_replies.clear()
    assert tick(table, at(0, 8, 15), capsys) == (0, [])
    assert {str(r.message["To"]) for r in server.received} == PLAYERS | {ORGANISER}
    assert outbox(table)[0].get("failed", 0) == 0
    count_fault("an SMTP throttle")


@pytest.mark.parametrize("fault", ["login refused", "untrusted certificate"])
def test_a_login_or_tls_failure_is_one_line_every_tick_and_consumes_no_attempt(
    gmail: tuple[Table, SmtpServer], capsys: pytest.CaptureFixture[str], fault: str
) -> None:
    table, server = gmail
    if fault == "login refused":
        Path(server.settings()["password_file"]).write_text("a revoked app password\n", encoding="utf-8")
        expected = "535"
    else:
        Path(server.settings()["ca_file"]).write_text(_another_ca(), encoding="utf-8")
        expected = "not trusted"

    when = at(0, 8, 5)
    while when < at(0, 12):  # longer than 6 ticks with backoff: once, attempts ran out here
        code, err = tick(table, when, capsys)
        assert code == 1 and len(err) == 1 and expected in err[0] and "none is given up" in err[0], err
        when += timedelta(minutes=30)

    counts, queued = outbox(table)
    assert counts.get("failed", 0) == 0 and {attempts for _, attempts in queued} == {0}
    assert "HELD" not in status(table, capsys), "no hold: the operator's fix works at the next tick"
    count_fault(f"SMTP {fault}")


def _another_ca() -> str:
    import trustme

    return trustme.CA().cert_pem.bytes().decode()


def test_the_daily_budget_sends_the_earliest_mail_and_the_rest_waits_a_day(
    make_table: Callable[..., Table],
    make_smtp_server: Callable[..., SmtpServer],
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = make_smtp_server("starttls")
    table = sending_by(make_table(), server, daily_recipients=3)

    assert tick(table, at(0, 8, 5), capsys) == (0, [])
    assert [r.message["To"] for r in server.received] == [address(n) for n in ("Agatha", "Barney", "Celeste")]
    assert "daily budget: 3 of 3 recipients used in the last 24 hours, 0 left" in status(table, capsys)
    assert tick(table, at(1, 8), capsys) == (0, [])  # 23 hours 55 minutes on: the window is still full
    assert len(server.received) == 3

    assert tick(table, at(1, 8, 10), capsys) == (0, [])

    later = server.received[3:]
    assert len(later) == 3 and later[0].message["To"] == address("Darcy"), "the earliest waiting first"
    assert str(later[0].message["X-Courier-Kind"]) == "welcome"
    assert outbox(table)[0].get("failed", 0) == 0
    assert "daily budget: 3 of 3 recipients" in status(table, capsys)


@pytest.mark.parametrize(
    ("settings", "budget"),
    [
        ({"host": "smtp.gmail.com", "username": "orders.mygroup@gmail.com"}, 500),
        ({"host": "smtp.gmail.com", "username": "orders@club.example"}, 2000),
        ({"host": "smtp.gmail.com", "username": "orders@club.example", "daily_recipients": 1500}, 1500),
        ({"host": "mail.example.org", "username": "orders@example.org"}, None),
    ],
)
def test_the_budget_defaults_to_the_providers_limit(settings: dict[str, object], budget: int | None) -> None:
    assert daily_recipients(settings) == budget


def test_status_says_a_hold_whose_time_has_passed_is_tried_again_not_still_held() -> None:
    held = SendingHeld(
        account="courier@gmail.com",
        reason="550 5.4.5 Daily user sending limit exceeded",
        means="limit",
        since=at(0, 8, 5).isoformat(),
        until=at(1, 8, 5).isoformat(),
        waiting=12,
    )
    assert describe(held, at(0, 20)).startswith("sending is HELD until 2026-12-02 08:05")
    passed = describe(held, at(1, 8, 6))
    assert passed.startswith("sending was held until 2026-12-02 08:05") and "HELD" not in passed
    assert "the next tick sends again" in passed
