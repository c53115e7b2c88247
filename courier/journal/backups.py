"""Copies of the journal taken before a tick resolves anything, and putting one back.

A copy is the journal's own (``Journal.copy_to``: SQLite's ``VACUUM INTO``, the pages in use only),
consistent even while a tick writes; copies are pruned by count and age. ``restore`` checks a copy
opens and every game in it replays before it replaces the journal (the replaced one is kept beside
it, renamed, never deleted)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

from courier.config.deployment import BackupPolicy
from courier.errors import CourierError, JournalError
from courier.journal.interface import Journal
from courier.journal.meta import LAST_TICK
from courier.journal.opener import DEFAULT_KIND, copy_journal_file, open_journal
from courier.journal.replay import replay_game

log = logging.getLogger(__name__)

STAMP = "%Y%m%dT%H%M%SZ"


class BackupFailed(CourierError):
    """No copy of the journal could be made (no room, no permission): the operator's to fix."""


def backup_journal(journal: Journal, folder: Path, *, now: datetime, policy: BackupPolicy) -> Path:
    """A consistent copy of ``journal`` in ``folder`` named by ``now``; older copies pruned.
    Raises ``BackupFailed`` (one line naming the folder) when the copy cannot be written."""
    target = folder / f"journal-{now.astimezone(UTC).strftime(STAMP)}.sqlite"
    partial = target.with_suffix(".partial")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        partial.unlink(missing_ok=True)  # a copy is made in a new file
        journal.copy_to(partial)
        partial.chmod(0o600)  # a copy holds every player's orders, as the journal does
        partial.replace(target)
        _prune(folder, now=now, policy=policy)
    except OSError as e:
        partial.unlink(missing_ok=True)
        raise BackupFailed(
            f"cannot copy the journal to {folder} ({e.strerror or e}): free some space there or let this"
            " user write it; no round resolves until a copy is taken"
        ) from e
    log.info("journal copied to %s", target)
    return target


def _prune(folder: Path, *, now: datetime, policy: BackupPolicy) -> None:
    copies = sorted(folder.glob("journal-*.sqlite"), reverse=True)  # newest first: names sort by time
    oldest = now - timedelta(days=policy.days)
    for rank, path in enumerate(copies):
        if rank == 0:
            continue
        if rank >= policy.keep or datetime.fromtimestamp(path.stat().st_mtime, now.tzinfo) < oldest:
            path.unlink(missing_ok=True)
    for stale in folder.glob("*.partial"):  # a copy a killed tick left half written
        stale.unlink(missing_ok=True)


def check_backup(path: Path, *, kind: str = DEFAULT_KIND) -> list[str]:
    """Every game in the copy replayed: one line per game. Raises ``JournalError`` if it fails."""
    copy = open_journal(path, kind=kind, create=False)
    try:
        lines = []
        for game in copy.games():
            rounds, mismatches = replay_game(copy, game.id)
            if mismatches:
                raise JournalError(f"{path}: game {game.id} does not replay ({mismatches[0].what})")
            lines.append(f"{game.id}: {rounds} round(s) replay")
        return lines
    finally:
        copy.close()


def restore_journal(
    backup: Path, journal_path: Path, *, now: datetime, kind: str = DEFAULT_KIND
) -> Path | None:
    """Put ``backup`` in place of the journal; returns where the replaced journal was kept."""
    kept = None
    if journal_path.exists():
        kept = journal_path.with_name(f"{journal_path.name}.replaced-{now.astimezone(UTC).strftime(STAMP)}")
        journal_path.replace(kept)
    for side in ("-wal", "-shm"):  # the old journal's side files belong to it, not to the copy
        journal_path.with_name(journal_path.name + side).unlink(missing_ok=True)
    copy_journal_file(backup, journal_path, kind=kind)
    journal_path.chmod(0o600)
    return kept


def last_tick_of(path: Path, *, kind: str = DEFAULT_KIND) -> datetime | None:
    """The last tick a journal (or a copy of one) recorded: the mail read after it is not in it."""
    journal = open_journal(path, kind=kind, create=False)
    try:
        return LAST_TICK.get(journal)
    finally:
        journal.close()
