"""config/smtp_replies.toml, entry by entry, over the wire: the test SMTP server answers each
provider's reply as the provider sends it (after the message, or to the login), and the transport
reads it as that entry says: the account's limit or a throttle, held for the entry's wait. Replies
that are the mail's own trouble (an unknown or full mailbox, a passing failure) are not limits."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from email.message import EmailMessage

import pytest

from courier.backends.base import Held, OverLimit, PermanentError, TransientError
from courier.backends.smtp import SmtpTransport
from courier.backends.smtp_replies import ReplyRule, limit_rule, reply_rules
from tests.servers.smtp import USER, SmtpServer

MakeServer = Callable[..., SmtpServer]


def _mail() -> EmailMessage:
    message = EmailMessage()
    message["From"] = "Courier <courier@courier.test>"
    message["To"] = "agatha@players.test"
    message["Subject"] = "[truce-1] Round 1"
    message["Message-ID"] = "<truce-1.r1.agatha@courier.test>"
    message.set_content("Agatha gives 2 coins.\n")
    return message


@pytest.mark.parametrize("rule", reply_rules(), ids=lambda r: f"{r.provider}: {r.example[:40]}")
def test_each_listed_reply_holds_every_mail_for_its_wait(
    make_smtp_server: MakeServer, rule: ReplyRule
) -> None:
    server = make_smtp_server("starttls")
    if rule.at == "login":
        server.refuse_login(rule.example)
    else:
        server.refuse_data(rule.example)
    transport = SmtpTransport(server.settings())

    with pytest.raises(OverLimit) as caught:
        transport.send(_mail())
    with pytest.raises(OverLimit) as again:  # the next mail of the tick is not the mail's fault either
        transport.send(_mail())
    transport.close()

    assert (caught.value.means, caught.value.wait) == (rule.means, rule.wait)
    assert rule.example in str(caught.value) and "\n" not in str(caught.value)
    assert caught.value.account == f"{USER} at 127.0.0.1:{server.port}"
    assert isinstance(again.value, Held)
    assert server.received == []


@pytest.mark.parametrize("rule", reply_rules(), ids=lambda r: f"{r.provider}: {r.example[:40]}")
def test_each_example_is_read_by_its_own_entry(rule: ReplyRule) -> None:
    code, _, text = rule.example.partition(" ")
    assert limit_rule(int(code), text) == rule, "an earlier entry catches this example"


def test_a_limit_waits_a_day_and_a_throttle_less() -> None:
    assert {r.wait for r in reply_rules() if r.means == "limit"} == {timedelta(hours=24)}
    assert all(r.wait <= timedelta(hours=1) for r in reply_rules() if r.means == "throttle")


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        ("550 5.1.1 The email account that you tried to reach does not exist.", PermanentError),
        ("452 4.2.2 The email account that you tried to reach is over quota.", TransientError),
        ("451 4.3.0 Mail server temporarily rejected message.", TransientError),
        ("552 5.2.3 Your message exceeded Google's message size limits.", PermanentError),
    ],
)
def test_a_reply_about_the_mail_itself_is_no_limit(
    make_smtp_server: MakeServer, reply: str, error: type[Exception]
) -> None:
    server = make_smtp_server("starttls")
    server.refuse_rcpt(reply)
    transport = SmtpTransport(server.settings())

    with pytest.raises(error) as caught:
        transport.send(_mail())
    transport.close()

    assert not isinstance(caught.value, Held)
