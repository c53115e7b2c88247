"""The journal as the shell sees it: a ``Journal`` it reads and a ``Transaction`` it writes through.

The shell types against these two protocols and the records below, never against a database: every
statement lives in an implementation (``courier/journal/sqlite.py`` today), opened by
``courier/journal/opener.py`` from the deployment's ``journal`` kind. A transaction is an opaque
handle: the shell passes it to the steps that write in the same all-or-nothing unit, and only calls
the methods listed here on it. See docs/development/journal.md.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol


@dataclass(frozen=True)
class Input:
    id: int
    source: str
    source_id: str
    message_id: str
    received_at: datetime
    raw: bytes


@dataclass(frozen=True)
class Act:
    """One journalled act: a player's parsed orders (``kind='orders'``) or a newcomer joining
    (``kind='join'``, ``text`` = the role)."""

    player: str
    kind: str
    text: str
    parsed: dict[str, Any]


@dataclass(frozen=True)
class GameRow:
    id: str
    ruleset: str
    seed: str
    setup: dict[str, Any]
    state: dict[str, Any]
    phase_key: str
    opened_at: datetime
    deadline: datetime | None
    finished: bool


@dataclass(frozen=True)
class OutboxRow:
    id: int
    key: str
    message_id: str
    game: str | None
    kind: str
    recipient: str
    raw: bytes
    attempts: int
    tried_at: datetime | None = None


def same_content(a: bytes, b: bytes) -> bool:
    """Two copies of one mail (another folder, another delivery) differ in their headers only."""
    return _body(a) == _body(b)


def _body(raw: bytes) -> bytes:
    raw = raw.replace(b"\r\n", b"\n")
    head, blank, body = raw.partition(b"\n\n")
    return body.strip() if blank else head.strip()


# How many mails' line digests are kept per address and game (``Transaction.keep_lines``): a
# player answers one of the last few, and a round sends each player a report, receipts, reminders.
SENT_LINES_KEPT = 20


# A queued mail's picture is stored once and stands in the mail as one line. A NUL byte never
# occurs in composed mail (text is quoted-printable, pictures base64): no text passes for one.
PICTURE_AT = re.compile(rb"\x00picture ([0-9a-f]{32})\x00\n")


def picture_line(key: str) -> str:
    return f"\x00picture {key}\x00\n"


class Transaction(Protocol):
    """The writes of one all-or-nothing unit, open inside ``Journal.transaction()``."""

    def add_input(
        self, *, source: str, source_id: str, message_id: str, received_at: datetime, raw: bytes
    ) -> bool: ...

    def settle_input(
        self,
        input_id: int,
        *,
        status: str,
        game: str | None = None,
        player: str | None = None,
        phase_key: str | None = None,
        note: str = "",
    ) -> None: ...

    def create_game(self, game: GameRow) -> None: ...

    def update_game(
        self,
        game_id: str,
        *,
        state: dict[str, Any],
        phase_key: str,
        opened_at: datetime,
        deadline: datetime | None,
        finished: bool,
    ) -> None: ...

    def set_state(self, game_id: str, state: dict[str, Any]) -> None: ...

    def set_setup(self, game_id: str, setup: dict[str, Any]) -> None: ...

    def add_submission(
        self,
        *,
        game: str,
        phase_key: str,
        player: str,
        input_id: int,
        received_at: datetime,
        text: str,
        parsed: dict[str, Any],
        standing: dict[str, Any],
        kind: str = "orders",
    ) -> None: ...

    def record_round(
        self,
        *,
        game: str,
        phase_key: str,
        resolved_at: datetime,
        state_before: dict[str, Any],
        submissions: dict[str, Any],
        state_after: dict[str, Any],
        events: list[dict[str, Any]],
    ) -> bool:
        """Claim and record a round. False (and nothing written) if it was resolved before."""
        ...

    def void_submissions(self, game: str, phase_keys: list[str]) -> None: ...

    def undo_rounds(self, game: str, phase_keys: list[str], *, at: datetime) -> None: ...

    def queue(
        self,
        *,
        key: str,
        message_id: str,
        game: str | None,
        kind: str,
        recipient: str,
        raw: bytes,
        created_at: datetime,
        pictures: Mapping[str, bytes] | None = None,
        held: bool = False,
    ) -> bool:
        """Queue one mail unless a mail with this key was ever queued. True if queued now. A
        ``held`` mail is kept, never sent (a mail budget stopped it: courier/state/budgets.py)."""
        ...

    def keep_lines(
        self, *, message_id: str, recipient: str, game: str | None, prints: bytes, created_at: datetime
    ) -> None:
        """Keep the digests of a sent mail's lines (``courier.mail.own_lines``), the last
        ``SENT_LINES_KEPT`` per address and game."""
        ...

    def put_meta(self, key: str, value: str) -> None: ...

    def delete_meta(self, key: str) -> None: ...


class Journal(Protocol):
    """The source of truth for everything a tick has seen and done (design.md, "journal first")."""

    path: Path

    def transaction(self, *, durable: bool = True) -> AbstractContextManager[Transaction]:
        """All or nothing; a journal that cannot be written is one ``JournalError``."""
        ...

    def close(self) -> None: ...

    def is_empty(self) -> bool: ...

    def integrity_problem(self) -> str | None:
        """The first problem a full check of the store finds, or None."""
        ...

    def copy_to(self, target: Path) -> None:
        """A consistent, compact copy of the whole journal in the new file ``target``. Raises
        ``OSError`` when the copy cannot be written (no room, no permission there)."""
        ...

    # inputs
    def add_input(
        self, *, source: str, source_id: str, message_id: str, received_at: datetime, raw: bytes
    ) -> bool: ...

    def reused_message_id(self, item: Input) -> bool: ...

    def last_uid(self, prefix: str) -> int: ...

    def pending_inputs(self) -> list[Input]: ...

    def input_status(self, input_id: int) -> str: ...

    # games, submissions and rounds
    def game(self, game_id: str) -> GameRow | None: ...

    def games(self) -> list[GameRow]: ...

    def standing(self, game: str, phase_key: str) -> dict[str, tuple[dict[str, Any], datetime]]: ...

    def acts(self, game: str, phase_key: str) -> list[Act]: ...

    def rounds(self, game: str) -> list[dict[str, Any]]: ...

    def round_count(self, game: str) -> int: ...

    def states_after(self, game: str, *, skip: int) -> list[tuple[str, dict[str, Any]]]: ...

    # outbox
    def picture(self, key: str) -> bytes: ...

    def with_pictures(self, raw: bytes) -> bytes: ...

    def forget_pictures(self) -> int: ...

    def queued(self) -> list[OutboxRow]: ...

    def mark_sent(self, row_id: int, at: datetime, *, kept: bytes | None = None) -> None: ...

    def mark_attempt(
        self, row_id: int, error: str, *, failed: bool, at: datetime, kept: bytes | None = None
    ) -> None: ...

    def forget_sent(self, before: datetime) -> int: ...

    def outbox_counts(self) -> dict[str, int]: ...

    def sent_lines(self, recipient: str, game: str | None, message_ids: Sequence[str]) -> list[bytes]:
        """The kept digests (``keep_lines``) of the mails to ``recipient`` in ``game`` among
        ``message_ids``; when none of them is kept, those of the latest such mail (or none)."""
        ...

    # meta: read and written through courier/journal/meta.py's typed keys
    def mail_secret(self) -> bytes: ...

    def meta(self, key: str) -> str | None: ...

    def meta_under(self, prefix: str) -> dict[str, str]:
        """Every meta key starting with ``prefix`` (without it) and its value."""
        ...

    def set_meta(self, key: str, value: str) -> None: ...
