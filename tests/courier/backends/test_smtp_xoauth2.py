"""XOAUTH2 for SMTP, over the wire: the test SMTP server checks the SASL string as Gmail does (the
user and the bearer token), answers a bad token with Gmail's error challenge and then 535; and an
[outbox] with auth = "xoauth2" and no token of its own uses the inbox's."""

from __future__ import annotations

from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

import pytest

from courier.backends.base import Held
from courier.backends.smtp import SmtpTransport
from courier.config.deployment import load_deployment
from tests.servers.smtp import TOKEN, USER, SmtpServer

MakeServer = Callable[..., SmtpServer]


def _mail() -> EmailMessage:
    message = EmailMessage()
    message["From"] = f"Courier <{USER}>"
    message["To"] = "agatha@players.test"
    message["Subject"] = "[truce-1] Round 1"
    message["Message-ID"] = "<truce-1.r1.agatha@courier.test>"
    message.set_content("Agatha gives 2 coins.\n")
    return message


def _token_file(tmp_path: Path, token: str) -> str:
    path = tmp_path / "token"
    path.write_text(token + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("security", ["starttls", "tls"])
def test_xoauth2_logs_in_with_the_user_and_the_bearer_token(
    make_smtp_server: MakeServer, tmp_path: Path, security: str
) -> None:
    server = make_smtp_server(security)
    settings = server.settings(
        password_file=None, auth="xoauth2", oauth2_token_file=_token_file(tmp_path, TOKEN)
    )
    transport = SmtpTransport(settings)

    transport.send(_mail())
    transport.close()

    assert server.recorder.xoauth2 == [f"user={USER}\x01auth=Bearer {TOKEN}\x01\x01".encode()]
    assert [r.message["To"] for r in server.received] == ["agatha@players.test"]


def test_a_refused_token_holds_every_mail_in_one_line_without_the_token(
    make_smtp_server: MakeServer, tmp_path: Path
) -> None:
    server = make_smtp_server("starttls")
    settings = server.settings(
        password_file=None, auth="xoauth2", oauth2_token_file=_token_file(tmp_path, "ya29.old")
    )
    transport = SmtpTransport(settings)

    with pytest.raises(Held) as caught:
        transport.send(_mail())
    transport.close()

    text = str(caught.value)
    assert f"login refused for {USER}" in text and "535" in text and "\n" not in text
    assert "ya29.old" not in text
    assert len(server.recorder.xoauth2) == 1, "the error challenge is answered with an empty line, once"
    assert server.received == []


def test_the_outbox_uses_the_inbox_token_when_it_names_none(
    make_smtp_server: MakeServer, tmp_path: Path
) -> None:
    server = make_smtp_server("starttls")
    token_file = _token_file(tmp_path, TOKEN)
    config = tmp_path / "courier.toml"
    config.write_text(
        f"""\
from = "Courier <{USER}>"
organiser = "organiser@courier.test"

[inbox]
type = "imap"
host = "imap.gmail.com"
username = "{USER}"
auth = "xoauth2"
oauth2_token_file = "{token_file}"

[outbox]
type = "smtp"
host = "127.0.0.1"
port = {server.port}
username = "{USER}"
auth = "xoauth2"
ca_file = "{server.settings()["ca_file"]}"
""",
        encoding="utf-8",
    )
    deployment = load_deployment(config)
    transport = SmtpTransport(deployment.outbox)

    transport.send(_mail())
    transport.close()

    assert deployment.outbox["oauth2_token_file"] == token_file
    assert server.recorder.xoauth2 == [f"user={USER}\x01auth=Bearer {TOKEN}\x01\x01".encode()]
    assert len(server.received) == 1


def test_an_unknown_auth_is_a_config_error() -> None:
    with pytest.raises(Exception, match="auth = 'oauth'"):
        SmtpTransport({"host": "smtp.gmail.com", "auth": "oauth"})
