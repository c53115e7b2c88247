"""The one line `courier tick` prints: what the tick did, read from the journal before and after it
(games, rounds resolved, mail sent, mail waiting), so a cron log shows each tick's work at a glance."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from courier.config.deployment import Deployment
from courier.errors import JournalError
from courier.journal.opener import open_journal


@dataclass(frozen=True)
class Progress:
    """The journal's totals at one moment."""

    games: int = 0
    finished: int = 0
    rounds: int = 0
    sent: int = 0
    waiting: int = 0  # queued, failed for now, or held by a mail budget


def progress(deployment: Deployment) -> Progress:
    """The totals now; all zero before the first tick made the journal."""
    try:
        journal = open_journal(deployment.journal_path, kind=deployment.journal_kind, create=False)
    except JournalError:
        return Progress()
    try:
        games = journal.games()
        counts = journal.outbox_counts()
        return Progress(
            games=len(games),
            finished=sum(1 for g in games if g.finished),
            rounds=sum(journal.round_count(g.id) for g in games),
            sent=counts.get("sent", 0),
            waiting=counts.get("queued", 0) + counts.get("held", 0),
        )
    finally:
        journal.close()


def summary_line(before: Progress, after: Progress, *, now: datetime, problems: int) -> str:
    """``tick 2026-12-01 20:05 UTC: 1 game, 1 round resolved, 5 mails sent, none waiting``."""
    games = _count(after.games, "game") + (f" ({after.finished} finished)" if after.finished else "")
    parts = [
        games,
        f"{_count(max(0, after.rounds - before.rounds), 'round')} resolved",
        f"{_count(max(0, after.sent - before.sent), 'mail')} sent",
        f"{after.waiting or 'none'} waiting",
    ]
    trouble = f"; {_count(problems, 'problem')} (above)" if problems else ""
    return f"tick {now.astimezone(UTC):%Y-%m-%d %H:%M} UTC: {', '.join(parts)}{trouble}"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
