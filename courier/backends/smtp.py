"""The real outbox transport: SMTP with implicit TLS, STARTTLS or (to a local relay only) plain.

One ``SmtpTransport`` lives for one tick: it connects on the first ``send``, keeps that connection
for every message and says QUIT on ``close``. Each message is all-or-nothing: if the server refuses
any recipient, the transaction is reset before DATA, so a retry never duplicates mail to the
recipients that were accepted. Server replies become the errors the tick acts on (see
courier/tick/send.py): ``TransientError`` keeps the row queued, ``Held`` (the server unreachable, a
refused login or sender) and ``RateLimited`` stop sending for this tick with every row waiting,
``OverLimit`` (a reply config/smtp_replies.toml lists: the provider's daily limit, a throttle) holds
every row until its wait has passed, ``PermanentError`` gives up on the row."""

from __future__ import annotations

import copy
import ipaddress
import logging
import smtplib
import ssl
from collections.abc import Mapping
from email.message import EmailMessage
from email.policy import EmailPolicy
from email.utils import getaddresses
from typing import Any, NoReturn

from courier.backends.base import (
    BackendError,
    Held,
    OverLimit,
    PermanentError,
    RateLimited,
    TransientError,
)
from courier.backends.credentials import secret
from courier.backends.kinds import OUTBOX, find_kind
from courier.backends.smtp_replies import limit_rule

__all__ = ["SmtpTransport", "daily_recipients"]

log = logging.getLogger(__name__)

_DEFAULT_PORTS = {"tls": 465, "starttls": 587, "plain": 25}
_KIND = find_kind(OUTBOX, "smtp")  # its settings and their defaults


def _one_line(text: str | bytes) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    return " ".join(text.split())


# Google's sending limits, recipients a day: a personal account, and a Google Workspace one.
_GMAIL_HOSTS = ("smtp.gmail.com", "smtp.googlemail.com")
_GMAIL_DAILY, _WORKSPACE_DAILY = 500, 2000


def daily_recipients(settings: Mapping[str, Any]) -> int | None:
    """The outbox's daily recipient budget: ``daily_recipients`` if set, else the provider's limit
    when the provider is known (Gmail), else none."""
    if "daily_recipients" in settings:
        value = settings["daily_recipients"]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise BackendError(f"[outbox] daily_recipients must be a whole number, not {value!r}")
        return value
    if str(settings.get("host", "")).lower() not in _GMAIL_HOSTS:
        return None
    domain = str(settings.get("username", "")).rpartition("@")[2].lower()
    return _GMAIL_DAILY if domain in ("gmail.com", "googlemail.com") else _WORKSPACE_DAILY


class _XOAuth2:
    """The SASL XOAUTH2 answer (Google's "OAuth 2.0 Mechanism"): the user and the bearer token first;
    to the error challenge that may follow (a 334 with JSON), an empty line, so the server says 535."""

    def __init__(self, username: str, token: str) -> None:
        self._first = f"user={username}\x01auth=Bearer {token}\x01\x01"

    def __call__(self, challenge: bytes | None = None, /) -> str:
        return "" if challenge is not None else self._first


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _tls_context(settings: Mapping[str, Any]) -> ssl.SSLContext:
    """The system's trusted CAs, plus ``ca_file`` if given; ``verify = false`` is for tests only."""
    context = ssl.create_default_context()
    if ca_file := settings.get("ca_file"):
        try:
            context.load_verify_locations(cafile=str(ca_file))
        except (OSError, ssl.SSLError) as e:
            raise BackendError(f"[outbox] ca_file: cannot load {ca_file}: {_one_line(str(e))}") from e
    verify = settings.get("verify", _KIND.default("verify"))
    if not isinstance(verify, bool):
        raise BackendError(f"[outbox] verify must be true or false, not {verify!r}")
    if not verify:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    return context


def _addresses(message: EmailMessage, *names: str) -> list[str]:
    values = [str(v) for name in names for v in message.get_all(name, [])]
    return [addr for _, addr in getaddresses(values) if addr]


def _unique(addresses: list[str]) -> list[str]:
    """Each address once (first spelling wins): a server would deliver a repeated RCPT twice."""
    by_key: dict[str, str] = {}
    for address in addresses:
        by_key.setdefault(address.lower(), address)
    return list(by_key.values())


class SmtpTransport:
    """A ``Transport`` over SMTP, configured by the deployment's ``[outbox]`` table."""

    def __init__(self, settings: Mapping[str, Any]) -> None:
        self._settings = settings
        self.host = str(settings.get("host") or "")
        if not self.host:
            raise BackendError("[outbox] type = 'smtp' needs host")
        self.security = str(settings.get("security", _KIND.default("security")))
        if self.security not in _DEFAULT_PORTS:
            raise BackendError(
                f"[outbox] security = {self.security!r} is not known (known: tls, starttls, plain)"
            )
        if self.security == "plain" and not _is_loopback(self.host):
            raise BackendError(
                f"[outbox] security = 'plain' sends mail and password in clear; it is allowed only to a relay"
                f" on this machine (localhost), not to {self.host}: use 'starttls' or 'tls'"
            )
        self.port = self._number("port", _DEFAULT_PORTS[self.security])
        self.timeout = self._seconds(settings.get("timeout", _KIND.default("timeout")))
        self.username: str | None = settings.get("username") or None
        self.auth = str(settings.get("auth", _KIND.default("auth")))
        if self.auth not in ("password", "xoauth2"):
            raise BackendError(f"[outbox] auth = {self.auth!r}: use 'password' or 'xoauth2'")
        limit = settings.get("max_per_tick")
        self.max_per_tick = None if limit is None else self._number("max_per_tick", 0)
        self.envelope_from: str | None = settings.get("envelope_from") or None
        self.daily_recipients = daily_recipients(settings)  # the tick keeps within it (tick/budget.py)
        self._context = None if self.security == "plain" else _tls_context(settings)
        self._smtp: smtplib.SMTP | None = None
        # Set when connecting or logging in failed: the rest of this tick fails fast instead of
        # waiting for one more timeout per queued message.
        self._unreachable: TransientError | None = None
        self.sent = 0

    @property
    def where(self) -> str:
        return f"{self.host}:{self.port}"

    @staticmethod
    def _seconds(value: object) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise BackendError(f"[outbox] timeout must be a number of seconds, not {value!r}")
        return float(value)

    def _number(self, key: str, default: int) -> int:
        value = self._settings.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise BackendError(f"[outbox] {key} must be a whole number, not {value!r}")
        return value

    # --- Transport ------------------------------------------------------------------------------

    def send(self, message: EmailMessage) -> None:
        if self.max_per_tick is not None and self.sent >= self.max_per_tick:
            raise RateLimited(
                f"max_per_tick = {self.max_per_tick} messages sent; the rest wait for the next tick"
            )
        sender, recipients = self._envelope(message)
        smtp = self._connection()
        try:
            data, options = self._serialise(smtp, message)
            self._transaction(smtp, sender, recipients, data, options)
        except smtplib.SMTPResponseException as e:
            self._refused(e.smtp_code, e.smtp_error, f"mail to {', '.join(recipients)}")
        except (smtplib.SMTPException, OSError) as e:
            self._drop()
            raise TransientError(
                f"connection to {self.where} lost: {_one_line(str(e)) or type(e).__name__}"
            ) from e
        self.sent += 1

    def close(self) -> None:
        smtp, self._smtp = self._smtp, None
        if smtp is None:
            return
        try:
            smtp.quit()
        except (smtplib.SMTPException, OSError):
            pass
        finally:
            smtp.close()

    # --- one message ----------------------------------------------------------------------------

    def _envelope(self, message: EmailMessage) -> tuple[str, list[str]]:
        senders = [self.envelope_from] if self.envelope_from else _addresses(message, "From")
        recipients = _unique(_addresses(message, "To", "Cc", "Bcc"))
        subject = _one_line(str(message.get("Subject", "")))
        if not senders:
            raise PermanentError(f"message {subject!r} has no From address")
        if not recipients:
            raise PermanentError(f"message {subject!r} has no recipient in To, Cc or Bcc")
        return senders[0], recipients

    def _serialise(self, smtp: smtplib.SMTP, message: EmailMessage) -> tuple[bytes, list[str]]:
        """The message as it goes on the wire, with the MAIL options it needs. Headers, Date and
        Message-ID included, are written as they are; only Bcc is left out."""
        addresses = _addresses(message, "From", "To", "Cc", "Bcc")
        international = not all(a.isascii() for a in addresses)
        if international and not smtp.has_extn("smtputf8"):
            raise PermanentError(f"{self.where} does not accept non-ASCII addresses (no SMTPUTF8)")
        if message.get_all("Bcc"):
            message = copy.copy(message)
            del message["Bcc"]
        policy = message.policy if isinstance(message.policy, EmailPolicy) else EmailPolicy()
        try:
            data = message.as_bytes(policy=policy.clone(linesep="\r\n", utf8=international))
        except (ValueError, LookupError, UnicodeError) as e:
            raise PermanentError(
                f"cannot serialise message {message.get('Subject', '')!r}: {_one_line(str(e))}"
            ) from e
        options = ["SMTPUTF8"] if international else []
        if not data.isascii() and smtp.has_extn("8bitmime"):
            options.append("BODY=8BITMIME")
        return data, options

    def _transaction(
        self, smtp: smtplib.SMTP, sender: str, recipients: list[str], data: bytes, options: list[str]
    ) -> None:
        code, reply = smtp.mail(sender, options)
        if code != 250:
            self._refused(code, reply, f"the sender {sender}", permanent=False)
        for recipient in recipients:
            code, reply = smtp.rcpt(recipient)
            if code not in (250, 251):
                self._refused(code, reply, f"the recipient {recipient}")
        code, reply = smtp.data(data)
        if code != 250:
            self._refused(code, reply, f"mail to {', '.join(recipients)}")

    def _refused(self, code: int, reply: bytes | str, what: str, *, permanent: bool = True) -> NoReturn:
        """Turn a refusal into the error the tick acts on. A refused sender is the operator's
        problem (every message would fail alike), so it holds every row, as the provider's limit does."""
        text = f"{self.where} refused {what}: {code} {_one_line(reply)}"
        if over := self._over_limit(code, reply, text):
            self._drop()
            raise over
        if 500 <= code < 600:
            self._reset()
            if permanent:
                raise PermanentError(text)
            raise Held(text)
        self._drop()
        raise TransientError(text)

    @property
    def account(self) -> str:
        """Whose sending a provider's limit holds: the login at this server."""
        return f"{self.username or '(no login)'} at {self.where}"

    def _over_limit(self, code: int, reply: bytes | str, text: str) -> OverLimit | None:
        """The provider's limit or throttle, if config/smtp_replies.toml lists this reply."""
        rule = limit_rule(code, _one_line(reply))
        if rule is None:
            return None
        return OverLimit(text, account=self.account, means=rule.means, wait=rule.wait)

    # --- the connection -------------------------------------------------------------------------

    def _connection(self) -> smtplib.SMTP:
        if self._smtp is not None:
            return self._smtp
        if self._unreachable:
            raise self._unreachable  # the same reason, without a second timeout
        try:
            self._smtp = self._open()
        except TransientError as e:
            self._unreachable = e
            raise
        return self._smtp

    def _open(self) -> smtplib.SMTP:
        log.debug("connecting to %s (%s)", self.where, self.security)
        try:
            smtp = (
                smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=self._context)
                if self.security == "tls"
                else smtplib.SMTP(self.host, self.port, timeout=self.timeout)
            )
        except Exception as e:
            raise self._connect_failure(e) from e
        try:
            self._handshake(smtp)
        except BaseException as e:
            smtp.close()
            if isinstance(e, TransientError) or not isinstance(e, Exception):
                raise
            raise self._connect_failure(e) from e
        return smtp

    def _handshake(self, smtp: smtplib.SMTP) -> None:
        smtp.ehlo()
        if self.security == "starttls":
            if not smtp.has_extn("starttls"):
                raise Held(f"{self.where} does not offer STARTTLS; not sending mail in clear")
            smtp.starttls(context=self._context)
            smtp.ehlo()
        if self.username:
            self._login(smtp, self.username)

    def _login(self, smtp: smtplib.SMTP, username: str) -> None:
        try:
            key = secret(
                self._settings, "oauth2_token" if self.auth == "xoauth2" else "password", where="outbox"
            )
        except BackendError as e:
            raise Held(str(e)) from e
        try:
            if self.auth == "xoauth2":
                smtp.auth("XOAUTH2", _XOAuth2(username, key or ""), initial_response_ok=True)
            else:
                smtp.login(username, key or "")
        except smtplib.SMTPAuthenticationError as e:
            text = f"login refused for {username} at {self.where}: {e.smtp_code} {_one_line(e.smtp_error)}"
            raise self._over_limit(e.smtp_code, e.smtp_error, text) or Held(text) from e
        except smtplib.SMTPNotSupportedError as e:
            raise Held(f"{self.where} offers no login (AUTH) for {username}") from e

    def _connect_failure(self, e: Exception) -> Held:
        """Why we could not get a usable connection, in one line: no mail can go until it is fixed."""
        if isinstance(e, ssl.SSLCertVerificationError):
            return Held(
                f"the TLS certificate of {self.where} is not trusted ({e.verify_message});"
                " if the server uses a private CA, set ca_file in [outbox]"
            )
        if isinstance(e, ssl.SSLError):
            return Held(f"TLS with {self.where} failed: {e.reason or _one_line(str(e))}")
        if isinstance(e, smtplib.SMTPResponseException):
            reply = _one_line(e.smtp_error)
            text = f"{self.where} refused the connection: {e.smtp_code} {reply}"
            return self._over_limit(e.smtp_code, reply, text) or Held(text)
        reason = _one_line(getattr(e, "strerror", None) or str(e)) or type(e).__name__
        return Held(f"cannot reach the mail server {self.where}: {reason}")

    def _reset(self) -> None:
        """Abandon the current transaction but keep the connection for the next message."""
        if self._smtp is None:
            return
        try:
            self._smtp.rset()
        except (smtplib.SMTPException, OSError):
            self._drop()

    def _drop(self) -> None:
        smtp, self._smtp = self._smtp, None
        if smtp is not None:
            smtp.close()
