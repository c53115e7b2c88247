"""The outbox's daily recipient budget (``[outbox] daily_recipients``; Gmail's limit by default):
the send step stops before the provider would refuse, and the mail beyond it waits, earliest first,
until the sends of 24 hours before have aged out of the window. The journal keeps how many
recipients each tick sent (``outbox/sent``), so the window survives restarts."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from email.utils import getaddresses

from courier.journal.interface import Journal, OutboxRow
from courier.journal.meta import SENT_RECIPIENTS
from courier.state.context import Tick

log = logging.getLogger(__name__)

WINDOW = timedelta(hours=24)  # Gmail counts over a rolling day


def sent_within(journal: Journal, now: datetime) -> int:
    """Recipients sent in the 24 hours before ``now``."""
    return sum(_recent(journal, now).values())


def _recent(journal: Journal, now: datetime) -> dict[str, int]:
    sent = SENT_RECIPIENTS.get(journal) or {}
    return {at: n for at, n in sent.items() if datetime.fromisoformat(at) > now - WINDOW}


class Budget:
    """What this tick may still send; ``limit`` None: no budget."""

    def __init__(self, tick: Tick) -> None:
        limit = getattr(tick.transport, "daily_recipients", None)
        self.limit: int | None = limit if isinstance(limit, int) else None
        self.used = sent_within(tick.journal, tick.now)
        self.spent = 0

    def allows(self, row: OutboxRow) -> bool:
        return self.limit is None or self.used + self.spent + recipients(row) <= self.limit

    def spend(self, row: OutboxRow) -> None:
        self.spent += recipients(row)

    def save(self, tick: Tick) -> None:
        """Add this tick's sends to the window and drop what has aged out (one write a tick that
        sent, and none without a budget)."""
        if self.limit is None:
            return
        recent = _recent(tick.journal, tick.now)
        if self.spent:
            recent[tick.now.isoformat()] = recent.get(tick.now.isoformat(), 0) + self.spent
        if recent != (SENT_RECIPIENTS.get(tick.journal) or {}):
            SENT_RECIPIENTS.set(tick.journal, "", recent)

    def stop(self, waiting: int) -> None:
        log.warning(
            "daily_recipients = %s reached (%s sent in the last 24 hours): %d mails wait",
            self.limit,
            self.used + self.spent,
            waiting,
        )


def recipients(row: OutboxRow) -> int:
    """Each queued mail names its recipients in its To; Courier's mails have one each."""
    return max(1, len(getaddresses([row.recipient])))
