"""``courier tick --dry-run``: the tick run against a copy of the journal, so it changes nothing.

The inbox is read but not marked, the sheet is not written, and the mail that would be sent is
printed instead.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path
from typing import TextIO

from courier.backends.base import Inbox, RawMessage
from courier.backends.factory import open_inbox
from courier.config.deployment import Deployment
from courier.journal.interface import Journal
from courier.journal.opener import copy_journal_file, open_journal
from courier.journal.seen import seen_path
from courier.tick.runbook import run_tick
from courier.tools.pipes import reader_gone


class _ReadOnlyInbox:
    def __init__(self, inner: Inbox) -> None:
        self.inner = inner

    def fetch_new(self) -> list[RawMessage]:
        return self.inner.fetch_new()

    def fetch_since(self, since: datetime) -> list[RawMessage]:
        return self.inner.fetch_since(since)

    def mark_processed(self, source_id: str, *, rejected: bool = False) -> None:
        pass

    def file_away(self, source_id: str, *, rejected: bool) -> None:
        pass

    def close(self) -> None:
        self.inner.close()


class _Printer:
    """Prints each mail instead of sending it; once the reader has stopped reading (`| head`), the
    rest goes unprinted and the dry run ends as it would (``cli`` then exits quietly)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.reader_gone = False

    def send(self, message: EmailMessage) -> None:
        if self.reader_gone:
            return
        body = message.get_body(("plain",))
        text = body.get_content() if body is not None else ""
        try:
            self.out.write(f"--- To: {message['To']}\n--- Subject: {message['Subject']}\n\n{text}\n")
            self.out.flush()
        except BrokenPipeError:
            self.reader_gone = True
            reader_gone(self.out)

    def close(self) -> None:
        pass


def dry_run(
    deployment: Deployment, *, now: datetime, out: TextIO, prepare: Callable[[Journal], None] | None = None
) -> list[str]:
    """``prepare`` adds to the copy of the journal first (an organiser's command, for its dry run).
    The journal's random key is made first, in the journal itself (and the journal with it, before
    the first tick): a game's seed is drawn from it, so the copy deals as the real tick will."""
    real = open_journal(deployment.journal_path, kind=deployment.journal_kind)
    try:
        real.mail_secret()
    finally:
        real.close()
    with tempfile.TemporaryDirectory(prefix="courier-dry-") as scratch:
        copy = replace(deployment, state_dir=Path(scratch))
        if deployment.journal_path.exists():
            copy_journal_file(deployment.journal_path, copy.journal_path, kind=copy.journal_kind)
        if (seen := seen_path(deployment.journal_path)).exists():  # a journal put back: as the tick sees it
            shutil.copy(seen, seen_path(copy.journal_path))
        journal = open_journal(copy.journal_path, kind=copy.journal_kind)
        if prepare is not None:
            prepare(journal)
        try:
            inbox = _ReadOnlyInbox(open_inbox(deployment.inbox, last_uid=journal.last_uid))
            return run_tick(copy, now=now, inbox=inbox, transport=_Printer(out), publish=False)
        finally:
            journal.close()
