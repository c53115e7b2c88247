"""SMTP delivery over the wire, against a real aiosmtpd server on 127.0.0.1: what arrives, and
which error the tick sees when the server says no."""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Callable
from email.message import EmailMessage
from email.policy import default as default_policy

import pytest

from courier.backends.base import BackendError, PermanentError, RateLimited, TransientError
from courier.backends.smtp import SmtpTransport
from tests.conftest import count_fault
from tests.servers.smtp import PASSWORD, USER, SmtpServer, free_port, per_recipient

MakeServer = Callable[..., SmtpServer]


def _mail(
    to: str = "agatha@players.test", *, n: int = 1, body: str = "Round 3 — Agatha gives 2 coins. Grüße ✓\n"
) -> EmailMessage:
    message = EmailMessage(policy=default_policy)
    message["From"] = "Courier Judge <courier@courier.test>"
    message["To"] = to
    message["Subject"] = f"[truce-1] Round {n}: résultats"
    message["Date"] = "Tue, 01 Dec 2026 20:00:00 +0000"
    message["Message-ID"] = f"<truce-1.r{n}.agatha@courier.test>"
    message.set_content(body)
    return message


def _wire(message: EmailMessage) -> bytes:
    return message.as_bytes(policy=default_policy.clone(linesep="\r\n"))


def test_starttls_with_login_delivers_the_message_unchanged(make_smtp_server: MakeServer) -> None:
    server = make_smtp_server("starttls")
    message = _mail("Agatha <agatha@players.test>")
    message["Cc"] = "barney@players.test"
    transport = SmtpTransport(server.settings())

    transport.send(message)
    transport.close()

    [received] = server.received
    assert received.mail_from == "courier@courier.test"
    assert received.rcpt_tos == ("agatha@players.test", "barney@players.test")
    assert received.raw == _wire(message)
    assert "BODY=8BITMIME" in received.mail_options  # the UTF-8 body went as 8bit, not re-encoded
    assert received.message["Message-ID"] == "<truce-1.r1.agatha@courier.test>"
    assert received.message["Date"] == "Tue, 01 Dec 2026 20:00:00 +0000"
    assert received.message.get_content().splitlines() == ["Round 3 — Agatha gives 2 coins. Grüße ✓"]


def test_bcc_recipients_get_the_mail_but_not_the_header(make_smtp_server: MakeServer) -> None:
    server = make_smtp_server("starttls")
    message = _mail()
    message["Bcc"] = "organiser@courier.test"
    transport = SmtpTransport(server.settings(envelope_from="bounces@courier.test"))

    transport.send(message)
    transport.close()

    [received] = server.received
    assert received.mail_from == "bounces@courier.test"
    assert received.rcpt_tos == ("agatha@players.test", "organiser@courier.test")
    assert "Bcc" not in received.message
    assert message["Bcc"] == "organiser@courier.test"  # the caller's message is left alone


def test_implicit_tls_with_login_delivers(make_smtp_server: MakeServer) -> None:
    server = make_smtp_server("tls")
    transport = SmtpTransport(server.settings())

    transport.send(_mail())
    transport.close()

    assert [r.message["Message-ID"] for r in server.received] == ["<truce-1.r1.agatha@courier.test>"]


def test_plain_delivers_to_a_relay_on_localhost(make_smtp_server: MakeServer) -> None:
    server = make_smtp_server("plain")
    transport = SmtpTransport(server.settings(host="localhost"))

    transport.send(_mail())
    transport.close()

    assert len(server.received) == 1


def test_plain_to_another_host_is_refused_by_config() -> None:
    with pytest.raises(BackendError, match=r"'plain'.*not to mail\.example\.org"):
        SmtpTransport({"host": "mail.example.org", "port": 25, "security": "plain"})


def test_unknown_security_is_a_config_error() -> None:
    with pytest.raises(BackendError, match="security = 'ssl' is not known"):
        SmtpTransport({"host": "mail.example.org", "security": "ssl"})


def test_wrong_password_names_the_user_and_never_the_password(
    make_smtp_server: MakeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = make_smtp_server("starttls")
    monkeypatch.setenv("COURIER_SMTP_PASSWORD", "hunter2-wrong")
    transport = SmtpTransport(server.settings(password_file=None, password_env="COURIER_SMTP_PASSWORD"))

    with pytest.raises(TransientError) as caught:
        transport.send(_mail())

    text = str(caught.value)
    assert not isinstance(caught.value, RateLimited)
    assert f"login refused for {USER}" in text
    assert "535" in text
    assert "hunter2" not in text and PASSWORD not in text
    assert "\n" not in text
    assert server.received == []


def test_a_missing_password_setting_waits_for_the_operator(make_smtp_server: MakeServer) -> None:
    server = make_smtp_server("starttls")
    transport = SmtpTransport(server.settings(password_file=None))

    with pytest.raises(TransientError, match="needs password_env, password_file or password_command"):
        transport.send(_mail())


@pytest.mark.parametrize("security", ["starttls", "tls"])
def test_an_untrusted_certificate_is_refused_with_a_hint(make_smtp_server: MakeServer, security: str) -> None:
    server = make_smtp_server(security)
    transport = SmtpTransport(server.settings(ca_file=None))

    with pytest.raises(
        TransientError, match=r"TLS certificate of 127\.0\.0\.1:\d+ is not trusted.*set ca_file"
    ):
        transport.send(_mail())
    assert server.received == []


def test_verify_false_skips_the_certificate_check(make_smtp_server: MakeServer) -> None:
    server = make_smtp_server("tls")
    transport = SmtpTransport(server.settings(ca_file=None, verify=False))

    transport.send(_mail())
    transport.close()

    assert len(server.received) == 1


def test_an_unknown_recipient_fails_for_good_and_the_connection_goes_on(make_smtp_server: MakeServer) -> None:
    server = make_smtp_server("starttls")
    server.refuse_rcpt("550 5.1.1 no such user", "ghost@players.test")
    transport = SmtpTransport(server.settings())

    with pytest.raises(PermanentError) as caught:
        transport.send(_mail("ghost@players.test"))
    transport.send(_mail("agatha@players.test", n=2))
    transport.close()

    assert "ghost@players.test" in str(caught.value)
    assert "550 5.1.1 no such user" in str(caught.value)
    assert [r.rcpt_tos for r in server.received] == [("agatha@players.test",)]


def test_one_refused_recipient_stops_the_whole_message(make_smtp_server: MakeServer) -> None:
    """Sending to the others would make the retry (or the bounce handling) duplicate their mail."""
    server = make_smtp_server("starttls")
    server.refuse_rcpt("550 5.1.1 no such user", "ghost@players.test")
    transport = SmtpTransport(server.settings())

    with pytest.raises(PermanentError, match=r"ghost@players\.test"):
        transport.send(_mail("agatha@players.test, ghost@players.test"))
    transport.close()

    assert server.received == []


def test_mail_refused_after_data_fails_for_good(make_smtp_server: MakeServer) -> None:
    server = make_smtp_server("starttls")
    server.refuse_data("554 5.6.0 message looks like spam")
    transport = SmtpTransport(server.settings())

    with pytest.raises(PermanentError, match=r"agatha@players\.test: 554 5\.6\.0 message looks like spam"):
        transport.send(_mail())


@pytest.mark.parametrize("where", ["rcpt", "data"])
def test_a_temporary_failure_keeps_the_row_and_reconnects(make_smtp_server: MakeServer, where: str) -> None:
    server = make_smtp_server("starttls")
    refuse = server.refuse_rcpt if where == "rcpt" else server.refuse_data
    refuse("451 4.3.0 temporary")
    transport = SmtpTransport(server.settings())

    with pytest.raises(TransientError, match=r"451 4\.3\.0 temporary") as caught:
        transport.send(_mail())
    assert not isinstance(caught.value, RateLimited)
    server.recorder.rcpt_replies.clear()
    server.refuse_data(None)
    transport.send(_mail(n=2))
    transport.close()

    assert len(server.received) == 1


@pytest.mark.parametrize(
    ("where", "reply"),
    [
        ("rcpt", "421 4.7.0 try again later"),
        ("rcpt", "450 4.7.1 rate limit exceeded, slow down"),
        ("rcpt", "452 4.5.3 too many recipients"),
        ("data", "451 4.7.1 throttled: too many messages"),
    ],
)
def test_slow_down_replies_stop_sending_for_this_tick(
    make_smtp_server: MakeServer, where: str, reply: str
) -> None:
    server = make_smtp_server("starttls")
    (server.refuse_rcpt if where == "rcpt" else server.refuse_data)(reply)
    transport = SmtpTransport(server.settings())

    with pytest.raises(RateLimited, match=re.escape(reply)):
        transport.send(_mail())


def test_a_server_that_is_down_fails_for_now_once_per_tick() -> None:
    transport = SmtpTransport({"host": "127.0.0.1", "port": free_port(), "security": "plain", "timeout": 5})

    with pytest.raises(
        TransientError, match=r"cannot reach the mail server 127\.0\.0\.1:\d+: .*refused"
    ) as first:
        transport.send(_mail())
    with pytest.raises(TransientError) as second:
        transport.send(_mail(n=2))
    transport.close()

    assert str(second.value) == str(first.value)


def test_a_server_that_does_not_answer_times_out() -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        host, port = silent.getsockname()
        transport = SmtpTransport({"host": host, "port": port, "security": "plain", "timeout": 0.3})

        with pytest.raises(TransientError, match=r"cannot reach the mail server .*timed out"):
            transport.send(_mail())


def test_a_busy_server_at_the_greeting_stops_sending_for_this_tick() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        host, port = busy.getsockname()

        def greet() -> None:
            connection, _ = busy.accept()
            with connection:
                connection.sendall(b"421 4.7.0 too many connections, try again later\r\n")

        greeter = threading.Thread(target=greet)
        greeter.start()
        transport = SmtpTransport({"host": host, "port": port, "security": "plain"})

        with pytest.raises(RateLimited, match=r"421 4\.7\.0 too many connections"):
            transport.send(_mail())
        greeter.join()


def test_a_dropped_connection_fails_for_now_and_the_next_send_reconnects(
    make_smtp_server: MakeServer,
) -> None:
    server = make_smtp_server("starttls")
    transport = SmtpTransport(server.settings())
    server.recorder.hang_up = True

    with pytest.raises(TransientError, match=r"connection to 127\.0\.0\.1:\d+ lost") as caught:
        transport.send(_mail())
    assert not isinstance(caught.value, RateLimited)
    server.recorder.hang_up = False
    transport.send(_mail(n=2))
    transport.close()

    assert [r.message["Message-ID"] for r in server.received] == ["<truce-1.r2.agatha@courier.test>"]
    count_fault("smtp connection dropped")


def test_one_connection_serves_the_whole_tick(make_smtp_server: MakeServer) -> None:
    server = make_smtp_server("starttls")
    transport = SmtpTransport(server.settings())
    for n in range(1, 4):
        transport.send(_mail(n=n))
    transport.close()
    assert server.connections == 1

    next_tick = SmtpTransport(server.settings())
    next_tick.send(_mail(n=4))
    next_tick.close()

    assert len(server.received) == 4
    assert server.connections == 2


def test_max_per_tick_leaves_the_rest_for_the_next_tick(make_smtp_server: MakeServer) -> None:
    server = make_smtp_server("starttls")
    transport = SmtpTransport(server.settings(max_per_tick=2))

    transport.send(_mail(n=1))
    transport.send(_mail(n=2))
    with pytest.raises(RateLimited, match="max_per_tick = 2"):
        transport.send(_mail(n=3))
    transport.close()

    assert len(server.received) == 2


def test_received_mail_can_be_forwarded_per_recipient(make_smtp_server: MakeServer) -> None:
    mailboxes: dict[str, list[bytes]] = {}
    server = make_smtp_server(
        "starttls", on_message=per_recipient(lambda rcpt, raw: mailboxes.setdefault(rcpt, []).append(raw))
    )
    transport = SmtpTransport(server.settings())

    transport.send(_mail("agatha@players.test, barney@players.test"))
    transport.close()

    assert sorted(mailboxes) == ["agatha@players.test", "barney@players.test"]
    assert mailboxes["barney@players.test"] == [server.received[0].raw]
