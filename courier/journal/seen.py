"""The last tick this deployment ran, kept beside the journal in a small file (``journal.last-tick``
beside ``journal.sqlite``), so that a journal put back from an older copy is noticed.

The journal records its own last tick (meta ``tick/last``). A journal whose own is older than the
file's was put back (``courier restore``, or a plain ``cp`` of a copy): the mail read since its last
tick is marked read in the inbox but not in the journal, and courier/tick/put_back.py stops the tick
until that mail is read again. The file is written after the journal's own record, and from it, so it
never runs ahead of a journal nobody replaced; its name does not match ``journal.sqlite*``, so
removing a journal's side files (as one does before copying a journal back) leaves it."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from pathlib import Path

from courier.backends.files import atomic_writer
from courier.journal.interface import Journal
from courier.journal.meta import LAST_TICK

log = logging.getLogger(__name__)


def seen_path(journal_path: Path) -> Path:
    return journal_path.with_name(f"{journal_path.stem}.last-tick")


def last_seen(journal_path: Path) -> datetime | None:
    """The last tick the deployment ran as the file beside the journal records it (None: no record)."""
    try:
        return datetime.fromisoformat(seen_path(journal_path).read_text(encoding="ascii").strip())
    except FileNotFoundError:
        return None
    except (OSError, ValueError, UnicodeDecodeError):
        return None  # unreadable: only a warning is lost, and the next tick writes it again


def note_seen(journal: Journal, journal_path: Path) -> None:
    """Copy the journal's last tick into the file beside it (after the tick recorded it). A file
    that cannot be written stops nothing: only the warning it stands for would be missed."""
    last = LAST_TICK.get(journal)
    if last is None:
        return
    try:
        with atomic_writer(seen_path(journal_path)) as file:
            file.write(last.isoformat().encode("ascii"))
    except OSError as e:
        log.warning("cannot write %s (%s): a journal put back would go unnoticed", seen_path(journal_path), e)


def reread_since(last: datetime) -> str:
    """``last`` as ``courier tick --reread-since`` takes it: UTC, whole seconds rounded down (earlier
    is safe: mail the journal holds is recognised and read once only)."""
    return last.astimezone(UTC).replace(microsecond=0).isoformat()
