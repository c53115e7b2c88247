"""Every backend kind in one table: for each role (the inbox, the outbox, the game's sheets) the kinds
a deployment may choose, each with its settings schema and its opener.

``courier.toml`` picks a kind with ``type`` in ``[inbox]`` and ``[outbox]``, and with ``workbook`` or
``sheet`` in each ``[[game]]``. The factory opens a kind by looking it up here; the config room reads
the same records for the shape check, the "did you mean" check and the docs' key table. An opener
imports its module when it is called, so gspread and imapclient load only for the deployments that
use them. Adding a kind is one record here (docs/development/adding-a-backend.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from courier.backends.base import BackendError, Inbox, Transport, Workbook


@dataclass(frozen=True)
class Shape:
    """What a value must look like: ``words`` for people, ``types`` for the check (a bool is never
    taken for a number), ``items`` the types of a list's items."""

    words: str
    types: tuple[type, ...]
    items: tuple[type, ...] = ()

    def fits(self, value: object) -> bool:
        if not isinstance(value, self.types) or (isinstance(value, bool) and bool not in self.types):
            return False
        return not self.items or all(isinstance(item, self.items) for item in value)  # type: ignore[attr-defined]


TEXT = Shape("text", (str,))
WHOLE = Shape("a whole number", (int,))
SECONDS = Shape("a number of seconds", (int, float))
FLAG = Shape("true or false", (bool,))


@dataclass(frozen=True)
class Setting:
    """One key of a table of ``courier.toml``. ``default`` is what Courier uses when the key is
    absent (None: nothing, or ``default_words`` when it depends on another key). ``checked`` keys are
    checked against their shape when the file loads; the others by the code that reads them."""

    name: str
    shape: Shape
    meaning: str
    default: object = None
    required: bool = False
    checked: bool = False
    default_words: str = ""

    @property
    def shown_default(self) -> str:
        """The default as the docs show it: TOML spelling, or ``default_words``."""
        if self.default_words or self.default in (None, (), {}):
            return self.default_words
        if isinstance(self.default, bool):
            return str(self.default).lower()
        return f'"{self.default}"' if isinstance(self.default, str) else str(self.default)


def credentials(name: str, what: str) -> tuple[Setting, ...]:
    """The three ways to give a secret (courier/backends/credentials.py): never the secret itself."""
    return (
        Setting(f"{name}_env", TEXT, f"{what}: the environment variable that holds it"),
        Setting(f"{name}_file", TEXT, f"{what}: a file that holds it"),
        Setting(f"{name}_command", TEXT, f"{what}: a command that prints it"),
    )


@dataclass(frozen=True)
class Role:
    """A job a backend does. ``table`` is its table in ``courier.toml``; ``kind_key`` the key of that
    table naming the kind (empty: a [[game]] key chooses, see ``BackendKind.game_key``)."""

    name: str
    table: str
    protocol: str  # the interface in courier/backends/base.py its kinds implement
    kind_key: str = ""
    default_kind: str = ""
    absent: Mapping[str, str] | None = None  # the table Courier uses when the file has none


INBOX = Role(
    "inbox", "inbox", "Inbox", "type", "maildir", MappingProxyType({"type": "maildir", "path": "mail/inbox"})
)
OUTBOX = Role(
    "outbox", "outbox", "Transport", "type", "files", MappingProxyType({"type": "files", "path": "mail/sent"})
)
SHEETS = Role("sheets", "sheets", "Workbook")
ROLES = (INBOX, OUTBOX, SHEETS)


@dataclass(frozen=True)
class BackendKind:
    """One kind of backend: where it is chosen, what it reads, and how to open it. ``opener`` takes
    the role's arguments (see the ``open_*`` functions in courier/backends/factory.py)."""

    role: Role
    name: str
    help: str
    settings: tuple[Setting, ...]
    opener: Callable[..., Any]
    game_key: str = ""  # for the sheets role: the [[game]] key that chooses this kind

    def setting(self, name: str) -> Setting:
        return next(s for s in self.settings if s.name == name)

    def default(self, name: str) -> Any:
        return self.setting(name).default

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.settings if s.required)


# --- openers: each imports its module only when a deployment uses the kind -----------------------


def _maildir(settings: Mapping[str, Any], *, last_uid: Callable[[str], int]) -> Inbox:
    from courier.backends.maildir import MaildirInbox

    return MaildirInbox(Path(settings["path"]))


def _imap(settings: Mapping[str, Any], *, last_uid: Callable[[str], int]) -> Inbox:
    from courier.backends.imap import ImapInbox

    return ImapInbox(settings, last_uid=last_uid)


def _files(settings: Mapping[str, Any]) -> Transport:
    from courier.backends.files import EmlDirectory

    return EmlDirectory(Path(settings["path"]))


def _smtp(settings: Mapping[str, Any]) -> Transport:
    from courier.backends.smtp import SmtpTransport

    return SmtpTransport(settings)


def _workbook(
    where: str | Path, settings: Mapping[str, Any], *, timezone: str, quota: Any = None
) -> Workbook:
    from courier.backends.workbook import XlsxWorkbook

    return XlsxWorkbook(Path(where), timezone=timezone)


def _gsheet(where: str | Path, settings: Mapping[str, Any], *, timezone: str, quota: Any = None) -> Workbook:
    from courier.backends.gsheet import GoogleSheet

    return GoogleSheet(str(where), settings, quota=quota)  # the tick's SheetsQuota, shared


# --- the table ------------------------------------------------------------------------------------

_TLS = (
    Setting("ca_file", TEXT, "a file of extra CA certificates to trust (a private server)"),
    Setting("verify", FLAG, "check the server's certificate; false is for tests only", default=True),
)
_SECURITY = "tls, starttls or plain (plain only to this machine)"

KINDS: tuple[BackendKind, ...] = (
    BackendKind(
        INBOX,
        "maildir",
        "a Maildir folder on this machine (the embedded default; no account needed)",
        (Setting("path", TEXT, "the Maildir folder, relative to courier.toml", required=True),),
        _maildir,
    ),
    BackendKind(
        INBOX,
        "imap",
        "an IMAP mailbox (imapclient), by password or XOAUTH2 (Gmail)",
        (
            Setting("host", TEXT, "the IMAP server, e.g. imap.gmail.com", required=True),
            Setting("username", TEXT, "the login, e.g. the mailbox's address", required=True),
            Setting("security", TEXT, _SECURITY, default="tls"),
            Setting("port", WHOLE, "the server's port", default_words="993 with tls, else 143"),
            Setting("auth", TEXT, "password or xoauth2 (an access token)", default="password"),
            *credentials("password", "the password (auth = password)"),
            *credentials("oauth2_token", "an access token (auth = xoauth2)"),
            Setting("folder", TEXT, "the folder orders arrive in", default="INBOX"),
            Setting("processed_folder", TEXT, "mail read is moved here (made if missing); else it stays"),
            Setting("rejected_folder", TEXT, "mail not counted is moved here (made if missing)"),
            Setting("timeout", SECONDS, "seconds to wait for the server", default=30),
            *_TLS,
        ),
        _imap,
    ),
    BackendKind(
        OUTBOX,
        "files",
        "one .eml file per mail, a folder per recipient (the embedded default)",
        (Setting("path", TEXT, "the folder, relative to courier.toml", required=True),),
        _files,
    ),
    BackendKind(
        OUTBOX,
        "smtp",
        "an SMTP server (smtplib), STARTTLS or TLS",
        (
            Setting("host", TEXT, "the SMTP server, e.g. smtp.gmail.com", required=True),
            Setting("security", TEXT, _SECURITY, default="starttls"),
            Setting("port", WHOLE, "the server's port", default_words="465 with tls, 587 starttls, 25 plain"),
            Setting("username", TEXT, "the login; none: send without logging in"),
            Setting(
                "auth", TEXT, "password or xoauth2 (an access token, as the inbox's)", default="password"
            ),
            *credentials("password", "the password (auth = password)"),
            *credentials("oauth2_token", "an access token (auth = xoauth2); none: the inbox's"),
            Setting("timeout", SECONDS, "seconds to wait for the server", default=30),
            *_TLS,
            Setting("max_per_tick", WHOLE, "send at most this many mails per tick; the rest wait"),
            Setting(
                "daily_recipients",
                WHOLE,
                "send to at most this many recipients in any 24 hours; the rest wait, earliest first",
                default_words="500 for a gmail.com login at smtp.gmail.com, 2000 for another (Workspace)"
                " login there; else none",
            ),
            Setting("envelope_from", TEXT, "the SMTP envelope sender (bounces); else the From address"),
        ),
        _smtp,
    ),
    BackendKind(
        SHEETS,
        "workbook",
        "a local .xlsx workbook (openpyxl), the embedded default",
        (),
        _workbook,
        game_key="workbook",
    ),
    BackendKind(
        SHEETS,
        "gsheet",
        "a Google Sheet by its key (gspread, a service account)",
        (
            Setting(
                "credentials_file",
                TEXT,
                "the service account's JSON key; else $COURIER_SHEETS_CREDENTIALS"
                " or $GOOGLE_APPLICATION_CREDENTIALS",
            ),
            Setting("api_base", TEXT, "another server standing in for https://sheets.googleapis.com (tests)"),
            Setting(
                "retries", WHOLE, "attempts after a failed request (429, 408, 5xx, no answer)", default=3
            ),
            Setting(
                "backoff",
                SECONDS,
                "seconds before the first retry, doubled each time, plus a random part of it",
                default=1.0,
            ),
            Setting("timeout", SECONDS, "seconds to wait for an answer", default=30),
            Setting(
                "reads_per_minute",
                WHOLE,
                "read requests a minute, all games together (Google allows 60 per user)",
                default=48,
            ),
            Setting(
                "writes_per_minute",
                WHOLE,
                "write requests a minute, all games together (Google allows 60 per user)",
                default=48,
            ),
            Setting(
                "wait",
                SECONDS,
                "most seconds a tick waits for Google in all; the games left go first next tick",
                default=60,
            ),
        ),
        _gsheet,
        game_key="sheet",
    ),
)


def kinds_of(role: Role) -> tuple[BackendKind, ...]:
    return tuple(k for k in KINDS if k.role == role)


def find_kind(role: Role, name: str) -> BackendKind:
    """The kind ``name`` of ``role``, or a BackendError listing the known ones."""
    for kind in kinds_of(role):
        if kind.name == name:
            return kind
    known = ", ".join(k.name for k in kinds_of(role))
    raise BackendError(f"[{role.table}] {role.kind_key} = {name!r} is not known (known: {known})")


def role_settings(role: Role) -> dict[str, Setting]:
    """Every key the role's table may hold, whichever kind it names (first spelling wins)."""
    settings: dict[str, Setting] = {}
    if role.kind_key:
        names = " or ".join(k.name for k in kinds_of(role))
        kind_key = Setting(role.kind_key, TEXT, f"the kind: {names}", default=role.default_kind)
        settings[role.kind_key] = kind_key
    for kind in kinds_of(role):
        for setting in kind.settings:
            settings.setdefault(setting.name, setting)
    return settings
