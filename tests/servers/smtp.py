"""A real SMTP server on 127.0.0.1 (aiosmtpd in a thread) that records what it receives.

``make_smtp_server("starttls" | "tls" | "plain")`` starts one for a test and stops it afterwards.
It accepts one login (``USER``/``PASSWORD`` by PLAIN or LOGIN, or ``USER``/``TOKEN`` by XOAUTH2;
only over TLS), records each message with its envelope, can be told to refuse a recipient, the DATA
or the login with any reply, and can hand every message to a callback, e.g. ``per_recipient(...)``
to APPEND it to each recipient's IMAP mailbox."""

from __future__ import annotations

import base64
import email
import email.policy
import socket
import ssl
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import trustme
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

__all__ = [
    "PASSWORD",
    "TOKEN",
    "USER",
    "Received",
    "Recorder",
    "SmtpServer",
    "free_port",
    "make_smtp_server",
    "per_recipient",
    "smtp_ca",
    "start_smtp_server",
]

USER = "courier@courier.test"
PASSWORD = "correct horse battery staple"
TOKEN = "ya29.test-access-token"  # the bearer token XOAUTH2 accepts for USER
# Gmail's answer to a bad XOAUTH2 token: a 334 challenge with this JSON (base64), then 535 once the
# client sends an empty line (Google's "OAuth 2.0 Mechanism" page).
XOAUTH2_ERROR = '{"status":"401","schemes":"bearer","scope":"https://mail.google.com/"}'
ACCEPTED = "250 2.0.0 OK"


@dataclass(frozen=True)
class Received:
    """One message as the server got it: ``raw`` has CRLF line ends, dot-stuffing undone."""

    mail_from: str
    rcpt_tos: tuple[str, ...]
    raw: bytes
    mail_options: tuple[str, ...]
    peer: str  # the client's address and port: one per connection

    @property
    def message(self) -> EmailMessage:
        parsed = email.message_from_bytes(self.raw, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        return parsed


OnMessage = Callable[[Received], None]


def per_recipient(deliver: Callable[[str, bytes], None]) -> OnMessage:
    """An ``on_message`` callback that calls ``deliver(recipient, raw)`` once per envelope recipient."""

    def forward(received: Received) -> None:
        for recipient in received.rcpt_tos:
            deliver(recipient, received.raw)

    return forward


@dataclass
class Recorder:
    """The aiosmtpd handler. Replies set here apply from the next command on; "*" means any
    recipient. If ``on_message`` raises, the client gets a 451 and nothing is recorded."""

    on_message: OnMessage | None = None
    received: list[Received] = field(default_factory=list)
    rcpt_replies: dict[str, str] = field(default_factory=dict)
    data_reply: str | None = None
    hang_up: bool = False  # drop the connection instead of answering DATA
    login_reply: str | None = None  # refuse every login with this reply (a provider's 454, say)
    xoauth2: list[bytes] = field(default_factory=list)  # each XOAUTH2 SASL string a client sent
    sessions: list[SMTP] = field(default_factory=list)  # one per connection that said EHLO/HELO

    async def auth_XOAUTH2(self, server: SMTP, args: list[str]) -> AuthResult:
        """SASL XOAUTH2 as Gmail checks it: ``user=USER^Aauth=Bearer TOKEN^A^A``, base64."""
        if len(args) > 1:  # ["XOAUTH2", initial response]
            response: Any = base64.b64decode(args[1])
        else:
            response = await server.challenge_auth("")
        self.xoauth2.append(response)
        if self.login_reply:
            return AuthResult(success=False, handled=False, message=self.login_reply)
        if response == f"user={USER}\x01auth=Bearer {TOKEN}\x01\x01".encode():
            return AuthResult(success=True, auth_data=LoginPassword(USER.encode(), b""))
        await server.challenge_auth(XOAUTH2_ERROR)  # the client answers with an empty line
        return AuthResult(
            success=False, handled=False, message="535 5.7.8 Username and Password not accepted"
        )

    async def handle_EHLO(
        self, server: SMTP, session: Session, envelope: Envelope, hostname: str, responses: list[str]
    ) -> list[str]:
        self._greeted(server, session, hostname)
        return responses

    async def handle_HELO(self, server: SMTP, session: Session, envelope: Envelope, hostname: str) -> str:
        self._greeted(server, session, hostname)
        return f"250 {server.hostname}"

    def _greeted(self, server: SMTP, session: Session, hostname: str) -> None:
        """aiosmtpd makes one ``SMTP`` per connection (and a new ``Session`` after STARTTLS, when
        the client greets again): one session. With a hook, remembering the greeting is ours."""
        session.host_name = hostname
        if not any(known is server for known in self.sessions):
            self.sessions.append(server)

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, rcpt_options: list[str]
    ) -> str:
        reply = self.rcpt_replies.get(address.lower()) or self.rcpt_replies.get("*")
        if reply:
            return reply
        envelope.rcpt_tos.append(address)
        return ACCEPTED

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        if self.hang_up:
            assert server.transport is not None
            server.transport.close()
            return "421 4.3.0 gone"  # never reaches the client
        if self.data_reply:
            return self.data_reply
        assert envelope.mail_from is not None and envelope.original_content is not None
        received = Received(
            mail_from=envelope.mail_from,
            rcpt_tos=tuple(envelope.rcpt_tos),
            raw=envelope.original_content,
            mail_options=tuple(envelope.mail_options),
            peer=str(session.peer),
        )
        if self.on_message:
            try:
                self.on_message(received)
            except Exception as e:
                return f"451 4.3.0 forwarding failed: {e}"
        self.received.append(received)
        return ACCEPTED


@dataclass
class SmtpServer:
    host: str
    port: int
    security: str
    recorder: Recorder
    outbox: dict[str, Any]  # an [outbox] table for SmtpTransport that reaches this server

    @property
    def received(self) -> list[Received]:
        return self.recorder.received

    @property
    def sessions(self) -> int:
        """Connections that greeted the server (EHLO or HELO), whether or not they sent anything."""
        return len(self.recorder.sessions)

    @property
    def connections(self) -> int:
        """Connections that delivered at least one message."""
        return len({r.peer for r in self.received})

    def settings(self, **overrides: Any) -> dict[str, Any]:
        """The [outbox] table, changed by ``overrides``; an override of None removes the key."""
        merged = {**self.outbox, **overrides}
        return {key: value for key, value in merged.items() if value is not None}

    def refuse_rcpt(self, reply: str, address: str = "*") -> None:
        self.recorder.rcpt_replies[address.lower()] = reply

    def refuse_data(self, reply: str | None) -> None:
        self.recorder.data_reply = reply

    def refuse_login(self, reply: str | None) -> None:
        self.recorder.login_reply = reply


def free_port() -> int:
    """A port nobody listens on right now (aiosmtpd's Controller cannot bind port 0)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _authenticator(recorder: Recorder) -> Callable[..., AuthResult]:
    def authenticate(
        server: SMTP, session: Session, envelope: Envelope, mechanism: str, auth_data: Any
    ) -> AuthResult:
        if recorder.login_reply:
            return AuthResult(success=False, handled=False, message=recorder.login_reply)
        ok = (
            isinstance(auth_data, LoginPassword)
            and auth_data.login == USER.encode()
            and auth_data.password == PASSWORD.encode()
        )
        # handled=False: aiosmtpd then sends the 535 itself (with True it would send nothing at all).
        return AuthResult(success=ok, handled=False)

    return authenticate


def _server_context(ca: trustme.CA) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("localhost", "127.0.0.1").configure_cert(context)
    return context


def _start(security: str, ca: trustme.CA, recorder: Recorder, *, auth: bool) -> tuple[Controller, int]:
    options: dict[str, Any] = {"authenticator": _authenticator(recorder)} if auth else {}
    if security == "starttls":
        options.update(tls_context=_server_context(ca), require_starttls=True, auth_require_tls=True)
    elif security == "tls":
        # aiosmtpd counts only STARTTLS as TLS for auth_require_tls; this connection is TLS throughout.
        options.update(ssl_context=_server_context(ca), auth_require_tls=False)
    elif security != "plain":
        raise ValueError(f"unknown security {security!r}")
    port = free_port()
    controller = Controller(recorder, hostname="127.0.0.1", port=port, server_hostname="localhost", **options)
    controller.start()
    return controller, port


# --- fixtures -------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def smtp_ca() -> trustme.CA:
    return trustme.CA()


def start_smtp_server(
    ca: trustme.CA,
    files: Path,
    security: str = "starttls",
    *,
    auth: bool = True,
    on_message: OnMessage | None = None,
) -> tuple[SmtpServer, Controller]:
    """A running server and its controller (``controller.stop()`` ends it); ``files`` (an existing
    folder) receives the CA and the password file the settings name. Benchmarks call it directly."""
    ca_file = files / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    password_file = files / "password"
    password_file.write_text(PASSWORD + "\n", encoding="utf-8")
    auth = auth and security != "plain"
    recorder = Recorder(on_message=on_message)
    controller, port = _start(security, ca, recorder, auth=auth)
    outbox: dict[str, Any] = {"type": "smtp", "host": "127.0.0.1", "port": port, "security": security}
    if security != "plain":
        outbox["ca_file"] = str(ca_file)
    if auth:
        outbox.update(username=USER, password_file=str(password_file))
    return SmtpServer("127.0.0.1", port, security, recorder, outbox), controller


@pytest.fixture
def make_smtp_server(smtp_ca: trustme.CA, tmp_path: Path) -> Iterator[Callable[..., SmtpServer]]:
    """``make_smtp_server(security="starttls", *, auth=True, on_message=None) -> SmtpServer``.
    ``auth`` (TLS variants only) requires the USER/PASSWORD login; the settings carry them, the
    password in a file as a deployment would."""
    controllers: list[Controller] = []
    files = tmp_path / "smtp-server"
    files.mkdir()

    def make(
        security: str = "starttls", *, auth: bool = True, on_message: OnMessage | None = None
    ) -> SmtpServer:
        server, controller = start_smtp_server(smtp_ca, files, security, auth=auth, on_message=on_message)
        controllers.append(controller)
        return server

    yield make
    for controller in controllers:
        controller.stop()
