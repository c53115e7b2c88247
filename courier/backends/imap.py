"""The real inbox: one IMAP folder, read over one connection per tick (imapclient).

Messages are chosen by UID, never by flags, so a human reading the mailbox changes nothing: the
journal remembers the highest UID it holds per ``imap:<folder>:<uidvalidity>:`` prefix and the next
tick fetches the UIDs above it. ``\\Seen`` is set only after the journal commit, and filing into the
processed / rejected folders happens after interpretation."""

from __future__ import annotations

import logging
import ssl
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from datetime import UTC, datetime
from importlib import metadata
from typing import Any, TypeVar

from imapclient import IMAPClient  # type: ignore[import-untyped]
from imapclient.exceptions import IMAPClientError  # type: ignore[import-untyped]

from courier.backends.base import BackendError, RawMessage
from courier.backends.credentials import secret
from courier.backends.kinds import INBOX, find_kind

__all__ = ["SOURCE_PREFIX", "ImapInbox"]

log = logging.getLogger(__name__)

SOURCE_PREFIX = "imap:"
_SECURITY_PORTS = {"tls": 993, "starttls": 143, "plain": 143}
_LOOPBACK = {"127.0.0.1", "localhost", "::1"}
_KIND = find_kind(INBOX, "imap")  # its settings and their defaults
_N = TypeVar("_N", int, float)
_FETCH_BATCH = 50  # messages per FETCH: bounded memory and response size on a big backlog
_SEEN = b"\\Seen"
_DELETED = b"\\Deleted"
# Failures of the wire or the server, as opposed to our own bugs.
_IMAP_ERRORS = (IMAPClientError, OSError)  # OSError covers refused, timeouts and TLS failures


def _version() -> str:
    try:
        return metadata.version("courier-judge")
    except metadata.PackageNotFoundError:  # a checkout never installed
        return "unknown"


# Who we are, for a server that asks clients to say (Google does, by the ID command, RFC 2971).
CLIENT_ID = {"name": "Courier", "version": _version(), "vendor": "Courier play-by-email arbiter"}


def _introduce(client: IMAPClient) -> None:
    """Send ID when the server offers it; a courtesy, so a server that refuses it stops nothing."""
    try:
        if client.has_capability("ID"):
            client.id_(CLIENT_ID)
    except _IMAP_ERRORS as e:
        log.debug("the IMAP server refused ID: %s", e)


class ImapInbox:
    """An ``Inbox`` over one IMAP folder, from the deployment's ``[inbox]`` table.

    ``last_uid(prefix)`` returns the highest UID the journal holds among source ids starting with
    ``prefix`` (``imap:<folder>:<uidvalidity>:``), 0 if none. When the server changes UIDVALIDITY
    (a rebuilt or recreated folder) the prefix is new, so every message in the folder is fetched
    again; the journal drops the ones it already has by Message-ID."""

    def __init__(self, settings: Mapping[str, Any], *, last_uid: Callable[[str], int]) -> None:
        self._settings = settings
        self._last_uid = last_uid
        self.host = str(settings.get("host") or "")
        if not self.host:
            raise BackendError("[inbox] type = 'imap' needs host")
        self.security = str(settings.get("security", _KIND.default("security")))
        if self.security not in _SECURITY_PORTS:
            raise BackendError(f"[inbox] security = {self.security!r}: use 'tls', 'starttls' or 'plain'")
        if self.security == "plain" and self.host not in _LOOPBACK:
            raise BackendError(f"[inbox] security = 'plain' sends the password in clear to {self.host}")
        self.port = _number(settings, "port", _SECURITY_PORTS[self.security], int)
        self.username = str(settings.get("username") or "")
        if not self.username:
            raise BackendError("[inbox] type = 'imap' needs username")
        self.auth = str(settings.get("auth", _KIND.default("auth")))
        if self.auth not in ("password", "xoauth2"):
            raise BackendError(f"[inbox] auth = {self.auth!r}: use 'password' or 'xoauth2'")
        self.folder = str(settings.get("folder", _KIND.default("folder")))
        self.processed_folder: str | None = settings.get("processed_folder")
        self.rejected_folder: str | None = settings.get("rejected_folder")
        self.timeout = _number(settings, "timeout", _KIND.default("timeout"), float)
        self._client: IMAPClient | None = None
        self._selected: tuple[str, int] | None = None  # (folder, uidvalidity)
        self._delimiter: str | None = None
        self._made_folders: set[str] = set()

    @property
    def where(self) -> str:
        return f"IMAP {self.username}@{self.host}:{self.port}"

    # --- the Inbox protocol -----------------------------------------------------------------------

    def fetch_new(self) -> list[RawMessage]:
        """Messages whose UID is above the journal's last one for this folder and UIDVALIDITY,
        oldest UID first. Reads with BODY.PEEK, so no flag changes."""
        with self._errors("fetch"):
            uidvalidity = self._select(self.folder, fresh=True)
            prefix = f"{SOURCE_PREFIX}{self.folder}:{uidvalidity}:"
            last = self._last_uid(prefix)
            # "UID n:*" always matches the highest UID, even one below n: filter.
            uids = sorted(uid for uid in self._connected().search(["UID", f"{last + 1}:*"]) if uid > last)
            messages = [
                message for batch in _chunks(uids, _FETCH_BATCH) for message in self._fetch(prefix, batch)
            ]
            log.info("%s: %d new message(s) in %s above uid %d", self.where, len(messages), self.folder, last)
            return messages

    def fetch_since(self, since: datetime) -> list[RawMessage]:
        """Every message since ``since`` (IMAP SEARCH SINCE, a whole day) in the folder and the
        processed and rejected folders, read with BODY.PEEK; the journal drops what it holds."""
        messages: list[RawMessage] = []
        with self._errors("re-read"):
            for folder in dict.fromkeys(
                f for f in (self.folder, self.processed_folder, self.rejected_folder) if f
            ):
                try:
                    uidvalidity = self._select(folder, fresh=True)
                except BackendError:  # a folder Courier has not made yet holds nothing
                    continue
                prefix = f"{SOURCE_PREFIX}{folder}:{uidvalidity}:"
                uids = sorted(self._connected().search(["SINCE", since.date()]))
                for batch in _chunks(uids, _FETCH_BATCH):
                    messages += [m for m in self._fetch(prefix, batch) if (m.received_at or since) >= since]
        return sorted(messages, key=lambda m: (m.received_at or since, m.source_id))

    def mark_processed(self, source_id: str, *, rejected: bool = False) -> None:
        """Flag the message \\Seen (the journal has it). Idempotent; a vanished message is fine."""
        with self._errors("mark"):
            uid = self._uid_in_selection(source_id)
            if uid is not None:
                self._connected().add_flags([uid], [_SEEN], silent=True)

    def file_away(self, source_id: str, *, rejected: bool) -> None:
        """Move the message to ``rejected_folder`` or ``processed_folder`` (created if missing),
        when configured. MOVE where advertised, else COPY + \\Deleted + UID EXPUNGE."""
        target = self.rejected_folder if rejected else self.processed_folder
        if not target:
            return
        with self._errors("file"):
            uid = self._uid_in_selection(source_id)
            if uid is None or not self._exists(uid):
                return
            destination = self._ensure_folder(target)
            self._move(uid, destination)

    def close(self) -> None:
        client, self._client = self._client, None
        self._selected = None
        if client is not None:
            try:
                client.logout()
            except _IMAP_ERRORS as e:  # the connection is going anyway
                log.debug("%s: logout failed: %s", self.where, e)

    # --- connection -------------------------------------------------------------------------------

    def _connected(self) -> IMAPClient:
        if self._client is None:
            self._client = self._connect()
        return self._client

    def _connect(self) -> IMAPClient:
        context = self._ssl_context()
        try:
            client = IMAPClient(
                self.host,
                port=self.port,
                ssl=self.security == "tls",
                ssl_context=context,
                timeout=self.timeout,
            )
            if self.security == "starttls":
                client.starttls(context)
        except _IMAP_ERRORS as e:
            raise BackendError(f"{self.where}: cannot connect ({self.security}): {_one_line(e)}") from e
        self._login(client)
        _introduce(client)
        client.normalise_times = False  # INTERNALDATE with its offset, not naive local time
        return client

    def _login(self, client: IMAPClient) -> None:
        try:
            if self.auth == "xoauth2":
                token = secret(self._settings, "oauth2_token", where="inbox")
                client.oauth2_login(self.username, token)
            else:
                password = secret(self._settings, "password", where="inbox")
                client.login(self.username, password)
        except _IMAP_ERRORS as e:
            _shut(client)
            raise BackendError(f"{self.where}: login ({self.auth}) refused: {_one_line(e)}") from e
        except BackendError:
            _shut(client)
            raise

    def _ssl_context(self) -> ssl.SSLContext | None:
        if self.security == "plain":
            return None
        context = ssl.create_default_context()
        if ca_file := self._settings.get("ca_file"):
            try:
                context.load_verify_locations(cafile=str(ca_file))
            except OSError as e:
                raise BackendError(f"[inbox] ca_file: cannot read {ca_file}: {e.strerror}") from e
        if self._settings.get("verify", _KIND.default("verify")) is False:
            log.warning("%s: certificate verification is OFF ([inbox] verify = false)", self.where)
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
        return context

    def _errors(self, doing: str) -> AbstractContextManager[None]:
        return _errors_as_backend(f"{self.where}: {doing}")

    # --- folders and UIDs -------------------------------------------------------------------------

    def _select(self, folder: str, *, fresh: bool = False) -> int:
        """SELECT (read-write) ``folder`` unless it is selected already; returns its UIDVALIDITY.
        ``fresh`` selects again, for a view that includes mail that arrived since."""
        if not fresh and self._selected is not None and self._selected[0] == folder:
            return self._selected[1]
        client = self._connected()
        try:
            info = client.select_folder(self._server_name(folder))
        except IMAPClientError as e:
            raise BackendError(f"{self.where}: cannot open folder {folder!r}: {_one_line(e)}") from e
        uidvalidity = int(info[b"UIDVALIDITY"])
        self._selected = (folder, uidvalidity)
        return uidvalidity

    def _uid_in_selection(self, source_id: str) -> int | None:
        """Select the source id's folder; its UID there, or None when UIDVALIDITY has changed since
        (the UID then names nothing we know)."""
        folder, uidvalidity, uid = _parse(source_id)
        if self._select(folder) != uidvalidity:
            log.info("%s: %s is from an older UIDVALIDITY of %s; left alone", self.where, source_id, folder)
            return None
        return uid

    def _fetch(self, prefix: str, uids: list[int]) -> list[RawMessage]:
        found = self._connected().fetch(uids, ["BODY.PEEK[]", "INTERNALDATE"])
        return [
            RawMessage(
                source_id=f"{prefix}{uid}",
                raw=bytes(found[uid][b"BODY[]"]),
                received_at=_aware(found[uid][b"INTERNALDATE"]),
            )
            for uid in uids
            if uid in found  # else expunged since the search
        ]

    def _exists(self, uid: int) -> bool:
        return uid in self._connected().search(["UID", str(uid)])

    def _move(self, uid: int, destination: str) -> None:
        client = self._connected()
        if client.has_capability("MOVE"):
            client.move([uid], destination)
            return
        client.copy([uid], destination)
        client.add_flags([uid], [_DELETED], silent=True)
        if client.has_capability("UIDPLUS"):
            client.uid_expunge([uid])
        else:  # a plain EXPUNGE would also remove what a human marked deleted
            log.info("%s: no UIDPLUS; uid %d left flagged \\Deleted", self.where, uid)

    def _ensure_folder(self, folder: str) -> str:
        name = self._server_name(folder)
        if name in self._made_folders:
            return name
        client = self._connected()
        if not client.folder_exists(name):
            try:
                client.create_folder(name)
            except IMAPClientError:
                if not client.folder_exists(name):  # else another client made it meanwhile
                    raise
            try:
                client.subscribe_folder(name)  # so it shows in the organiser's mail program
            except IMAPClientError as e:
                log.debug("%s: cannot subscribe to %s: %s", self.where, name, e)
        self._made_folders.add(name)
        return name

    def _server_name(self, folder: str) -> str:
        """Config names nest folders with "/"; the server may use another delimiter."""
        if "/" not in folder:
            return folder
        if self._delimiter is None:
            listing = self._connected().list_folders("", "INBOX") or self._connected().list_folders("", "%")
            self._delimiter = _as_text(listing[0][1]) if listing and listing[0][1] else "/"
        return folder.replace("/", self._delimiter)


@contextmanager
def _errors_as_backend(what: str) -> Iterator[None]:
    """Wire and server errors become one-line ``BackendError``s naming the inbox and the step."""
    try:
        yield
    except _IMAP_ERRORS as e:
        raise BackendError(f"{what}: {_one_line(e)}") from e


def _parse(source_id: str) -> tuple[str, int, int]:
    """``imap:<folder>:<uidvalidity>:<uid>`` -> (folder, uidvalidity, uid); the folder may hold ":"."""
    folder, _, numbers = source_id.removeprefix(SOURCE_PREFIX).rpartition(":")
    folder, _, uidvalidity = folder.rpartition(":")
    if not source_id.startswith(SOURCE_PREFIX) or not folder or not (uidvalidity + numbers).isdigit():
        raise ValueError(f"not an IMAP source id: {source_id!r}")
    return folder, int(uidvalidity), int(numbers)


def _chunks(items: Sequence[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(items), size):
        yield list(items[start : start + size])


def _aware(value: datetime) -> datetime:
    # INTERNALDATE always carries a zone; a naive value would be imapclient normalising to local time.
    return value.astimezone(UTC) if value.tzinfo is not None else value.astimezone().astimezone(UTC)


def _as_text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _one_line(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    if text.startswith(("b'", 'b"')):  # imapclient quotes the server's bytes
        text = text[2:-1]
    return " ".join(text.split())[:300]


def _shut(client: IMAPClient) -> None:
    with suppress(*_IMAP_ERRORS):
        client.shutdown()


def _number(settings: Mapping[str, Any], key: str, default: object, kind: Callable[[Any], _N]) -> _N:
    """``[inbox] key`` as a number (text of digits is taken too); anything else is the operator's to fix."""
    value = settings.get(key, default)
    try:
        return kind(value)
    except (TypeError, ValueError):
        raise BackendError(f"[inbox] {key} must be a number, not {value!r}") from None
