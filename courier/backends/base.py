"""The small interfaces the tick talks to. Embedded backends live beside this file; the real ones
(IMAP, SMTP, Google Sheets) implement the same protocols."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage, Message
from typing import Protocol, runtime_checkable

from courier.errors import CourierError


@dataclass(frozen=True)
class RawMessage:
    """One message as it came in. ``source_id`` is stable for this message in this inbox
    (a Maildir key, or ``imap:<folder>:<uidvalidity>:<uid>``); ``received_at`` is when the mail
    reached us (a Maildir file's mtime, IMAP INTERNALDATE), else ``None`` (the tick uses its clock)."""

    source_id: str
    raw: bytes
    received_at: datetime | None = None


class Inbox(Protocol):
    def fetch_new(self) -> list[RawMessage]:
        """Messages not yet marked processed, oldest first. Must not change their state."""

    def fetch_since(self, since: datetime) -> list[RawMessage]:
        """Every message received since ``since``, processed or not, in every folder Courier files
        mail to (``courier tick --reread-since``: what a lost journal forgot). Changes nothing."""

    def mark_processed(self, source_id: str, *, rejected: bool = False) -> None:
        """Called only after the raw message is committed to the journal. Idempotent."""

    def file_away(self, source_id: str, *, rejected: bool) -> None:
        """After interpretation: move the message to the processed or rejected folder, where the
        inbox has them. Best effort and idempotent: a crash before it only leaves mail in place."""

    def close(self) -> None: ...


@dataclass(frozen=True)
class FormResponse:
    """One row of the form-responses tab, read by header text. ``timestamp`` is aware."""

    timestamp: datetime
    email: str
    game: str
    orders: str
    secret: str = ""


@dataclass(frozen=True)
class SheetSnapshot:
    """Everything a tick reads from one game's workbook, in one read."""

    config: dict[str, str]
    players: list[dict[str, str]]  # keys: name, email, nickname, role, secret (lower case)
    responses: list[FormResponse] = field(default_factory=list)
    # Where each value sits, for messages an organiser can act on: config key -> "Config!B4",
    # and Players row number as the sheet shows it, in the order of ``players``.
    config_cells: dict[str, str] = field(default_factory=dict)
    player_rows: list[int] = field(default_factory=list)
    # The Ledger tab as the text a person sees (trailing blanks trimmed): the tick compares it with
    # what the journal says it should be, and its "Game" row names the game once it is running.
    ledger: tuple[tuple[str, ...], ...] = ()
    # Form rows skipped because their Timestamp reads as no time, one sentence each for the organiser.
    unreadable: tuple[str, ...] = ()

    @property
    def running_game(self) -> str | None:
        """The game id the Ledger names ("Game | truce-1 | Phase ..." under its table, or its first
        row as Courier wrote it before issue 29): written once a game started."""
        facts = next((row for row in self.ledger if len(row) > 1 and row[0] == "Game" and row[1]), ())
        return facts[1] if facts else None


class Workbook(Protocol):
    def read(self) -> SheetSnapshot:
        """One read of Config, Players and Form Responses. Raises ``WorkbookError`` if unreadable."""

    def write_public(
        self,
        *,
        ledger: Sequence[Sequence[object]],
        history: Sequence[Sequence[object]],
        players: Mapping[str, Mapping[str, str]] | None = None,
    ) -> None:
        """Replace the Ledger and History tabs (header row first), and set the Players cells
        ``players`` names (as ``update_players``), in one write; values stay literal."""

    def init(self, *, game: str) -> None:
        """Create any missing tab with its headers and example rows; never overwrite data."""

    def update_players(self, changes: Mapping[str, Mapping[str, str]]) -> None:
        """Set cells of the Players tab: player name → {column field ("email", "nickname",
        "secret"): text}; a column the tab lacks is left out. Values stay literal."""


class Transport(Protocol):
    def send(self, message: EmailMessage) -> None:
        """Deliver one message. Raises ``TransientError`` (try next tick), ``PermanentError``
        (give up on this row) or ``RateLimited`` (stop sending for this tick)."""

    def close(self) -> None: ...


@runtime_checkable
class RawTransport(Protocol):
    """A transport that can take a queued mail's bytes as they are (the files outbox): the tick
    then parses only its headers instead of the whole mail, pictures and all."""

    def send_raw(self, raw: bytes, headers: Message) -> None:
        """Deliver ``raw``; ``headers`` are its headers, parsed. Raises as ``Transport.send``."""


class BackendError(CourierError):
    """An operator's problem with a backend: login, path, quota. Says what to fix."""


class WorkbookError(BackendError):
    pass


class TransientError(BackendError):
    """This mail could not go now: it is tried again later, a bounded number of times."""


class PermanentError(BackendError):
    """This mail can never go (an unknown recipient, a message the server refuses): given up."""


class Held(TransientError):
    """No mail can go now, whichever it is: a condition of the deployment (a full disk, a folder it
    may not write, a refused login, an unreachable server, the provider's sending limit). Sending
    stops for this tick and every mail waits; none is counted as tried, none is given up."""


class RateLimited(Held):
    """The server asks us to slow down: the rest waits for the next tick."""


class OverLimit(RateLimited):
    """The provider's limit or throttle (config/smtp_replies.toml): no mail can go from this
    ``account`` until ``wait`` has passed, so the tick does not even try before then."""

    def __init__(self, text: str, *, account: str, means: str, wait: timedelta) -> None:
        super().__init__(text)
        self.account = account
        self.means = means  # "limit" or "throttle"
        self.wait = wait
