"""Every kind of key in the journal's meta table, with its type: the shell reads and writes meta
only through these (``CONTROL.get(journal, game)``, ``HISTORY.put(db, game, notes)``), never by
building a key or a JSON text itself.

A kind is a key prefix (``control/``) followed by a name (a game, an input id, a Message-ID), or a
whole key (``tick/last``). The stored text of each kind is exactly what earlier versions wrote, so
a journal of any version reads unchanged. The table is in docs/development/journal.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, NotRequired, TypedDict, TypeVar

from courier.journal.interface import Journal, Transaction

T = TypeVar("T")


@dataclass(frozen=True)
class MetaKind(Generic[T]):
    """One kind of meta key: its prefix, what it holds, and its text form."""

    prefix: str
    holds: str
    encode: Callable[[T], str]
    decode: Callable[[str], T]

    def key(self, name: str = "") -> str:
        return self.prefix + name

    def get(self, journal: Journal, name: str = "") -> T | None:
        text = journal.meta(self.key(name))
        return None if text is None else self.decode(text)

    def put(self, db: Transaction, name: str, value: T) -> None:
        """Written inside the caller's transaction."""
        db.put_meta(self.key(name), self.encode(value))

    def set(self, journal: Journal, name: str, value: T) -> None:
        """Written in a transaction of its own."""
        journal.set_meta(self.key(name), self.encode(value))

    def replace(self, journal: Journal, name: str, value: T) -> T | None:
        """Written only when its text differs from the stored one (no commit on a quiet tick);
        returns the value it replaced (None when unchanged or new)."""
        text, stored = self.encode(value), journal.meta(self.key(name))
        if stored == text:
            return None
        journal.set_meta(self.key(name), text)
        return None if stored is None else self.decode(stored)

    def delete(self, db: Transaction, name: str = "") -> None:
        db.delete_meta(self.key(name))

    def every(self, journal: Journal) -> dict[str, T]:
        """Every key of this kind, by name."""
        return {name: self.decode(text) for name, text in journal.meta_under(self.prefix).items()}


class GoodConfig(TypedDict):
    """A game's last valid Config and Players tabs, as the sheet gave them."""

    config: dict[str, Any]
    players: list[Any]


class PressRecord(TypedDict):
    """Relayed press, by the Message-ID it went out with: a reply to it is relayed back, to the
    author's seat only while the same address holds it (``address``; absent in older journals)."""

    game: str
    author: str
    address: NotRequired[str]


class HistoryRows(TypedDict, total=False):
    """A game's History tab as built before issue 29 (standings per player per round); no longer
    written or read: History is built from ``HISTORY`` alone. Old journals may still hold it."""

    header: list[Any]
    blocks: list[list[list[Any]]]
    rollbacks: int


class BudgetSpent(TypedDict):
    """Mail one address caused (or received) in the current clock hour and UTC day, and how much of
    it a budget held (courier/state/budgets.py). A new hour or day starts its count afresh."""

    hour: str
    sent_hour: int
    day: str
    sent_day: int
    held: int


class Attempt(TypedDict):
    """One mail in a player's name that was not used (courier/tick/in_your_name.py)."""

    input_id: int
    message_id: str
    subject: str
    reason: str
    at: str  # when it arrived, ISO 8601 UTC


class Attempts(TypedDict):
    """The attempts a player has not been told of yet: how many, and the first few."""

    game: str
    address: str
    count: int
    shown: list[Attempt]


class NewsHeld(TypedDict):
    """News waiting for one address of one game (courier/state/news.py): for the next mail that goes
    there anyway, or a digest once ``news_every`` has passed since the first line waited."""

    game: str
    to: str  # the address
    name: str  # the seat it goes to; "" for the organiser
    since: str  # when the first line waited, ISO 8601
    lines: list[str]  # the first few, in order
    count: int  # every line that waited


class SendingHeld(TypedDict):
    """The mail provider's limit or throttle holding the outbox (courier/tick/held.py)."""

    account: str  # the login it holds; another account's mail is not held
    reason: str  # the server's reply, on one line
    means: str  # "limit" or "throttle"
    since: str  # ISO times: when it began, and when sending is tried again
    until: str
    waiting: int  # mails queued when it began


def _text(value: str) -> str:
    return value


def _json(value: Any) -> str:
    return json.dumps(value)


def _sorted_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


CONFIG: MetaKind[GoodConfig] = MetaKind("config/", "game → last valid config", _sorted_json, json.loads)
PUBLISHED: MetaKind[str] = MetaKind("published/", "game → digest of the tabs last written", _text, _text)
HISTORY_ROWS: MetaKind[HistoryRows] = MetaKind(
    "history-rows/", "game → its History tab's rows (before issue 29; no longer used)", _json, json.loads
)
HISTORY: MetaKind[list[list[Any]]] = MetaKind(
    "history/",
    "game → History: [rounds before it, text] (a note), [..., text, round label]",
    _json,
    json.loads,
)
CONTROL: MetaKind[dict[str, Any]] = MetaKind(
    "control/", "game → paused, away, epoch (rollbacks)…", _sorted_json, json.loads
)
QUARANTINE: MetaKind[str] = MetaKind("quarantine/", "game → the error that set it aside", _text, _text)
FAILURES: MetaKind[int] = MetaKind("failures/", "game → ticks failed in a row", str, int)
STALE: MetaKind[str] = MetaKind(
    "stale/", "game → why its sheet could not be written, until it is", _text, _text
)
PRESS: MetaKind[PressRecord] = MetaKind("press/", "Message-ID → relayed press", _json, json.loads)
LATE: MetaKind[str] = MetaKind("late/", "input id → the phase it came too late for", _text, _text)
WARNED: MetaKind[str] = MetaKind("warned/", "digest → a warning told once", _text, _text)
BUDGET: MetaKind[BudgetSpent] = MetaKind(
    "budget/", "sender/<address> or recipient/<address> → mail counted this hour and day", _json, json.loads
)
IN_YOUR_NAME: MetaKind[Attempts] = MetaKind(
    "in-your-name/", "game/address → mail in a player's name not used, not told yet", _json, json.loads
)
NEWS: MetaKind[NewsHeld] = MetaKind(
    "news/", "game/address → news waiting for the next mail there, or a digest", _json, json.loads
)
LAST_TICK: MetaKind[datetime] = MetaKind(
    "tick/last", "the last tick's clock reading", datetime.isoformat, datetime.fromisoformat
)
SENDING_HELD: MetaKind[SendingHeld] = MetaKind(
    "outbox/held", "the provider's limit holding every mail: account, why, since, until", _json, json.loads
)
SENT_RECIPIENTS: MetaKind[dict[str, int]] = MetaKind(
    "outbox/sent", "tick time → recipients sent then, the last 24 hours", _sorted_json, json.loads
)
SHEETS_BEHIND: MetaKind[list[str]] = MetaKind(
    "sheets/behind", "games Google Sheets did not reach last tick, first at the next", _json, json.loads
)
# Kept by the SQLite journal itself (courier/journal/sqlite.py), listed here for completeness.
MAIL_SECRET: MetaKind[str] = MetaKind("mail/secret", "the journal's key for Message-IDs (hex)", _text, _text)
OUTBOX_COMPACT: MetaKind[str] = MetaKind("outbox/compact", "'1': old blanked mail compacted", _text, _text)

KINDS: tuple[MetaKind[Any], ...] = (
    CONFIG,
    PUBLISHED,
    HISTORY_ROWS,
    HISTORY,
    CONTROL,
    QUARANTINE,
    FAILURES,
    STALE,
    PRESS,
    LATE,
    WARNED,
    BUDGET,
    IN_YOUR_NAME,
    NEWS,
    LAST_TICK,
    SENDING_HELD,
    SENT_RECIPIENTS,
    SHEETS_BEHIND,
    MAIL_SECRET,
    OUTBOX_COMPACT,
)
