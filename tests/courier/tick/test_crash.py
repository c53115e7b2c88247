"""A crash at any point of a tick loses no order, resolves no round twice, and leaves no report
unsent. The tick runs in a subprocess that SIGKILLs itself at a checkpoint (COURIER_CRASH_AT);
a clean tick then finishes the job."""

from __future__ import annotations

import signal
from collections import Counter
from collections.abc import Callable
from email import message_from_bytes

import pytest

from tests.conftest import PLAYERS, Table
from tests.helpers.clock import at
from tests.helpers.crash import tick_process

POINTS = [
    "ingest.journalled",
    "ingest.marked#2",
    "interpret.committed",
    "interpret.committed#3",
    "resolve.committed",
    "send.before",
    "send.sent",
    "send.sent#4",
    "send.marked#6",
]


@pytest.mark.parametrize("point", POINTS)
def test_crash_then_clean_tick_loses_nothing(make_table: Callable[..., Table], point: str) -> None:
    table = make_table()
    assert tick_process(table, at(0, 8, 5).isoformat(), None) == 0
    table.clock = at(0, 8, 5)
    orders = {"Agatha": "loot", "Barney": "attack Agatha", "Celeste": "support Barney", "Darcy": "defend"}
    for name, text in orders.items():
        table.order(name, text)
    code = tick_process(table, at(0, 20, 5).isoformat(), point)
    assert code == -signal.SIGKILL, f"the tick did not reach {point}"
    assert tick_process(table, at(0, 20, 6).isoformat(), None) == 0

    journal = table.journal()
    try:
        rounds = journal.rounds("truce-1")
        assert [r["phase_key"] for r in rounds] == ["round-1"]  # resolved once
        resolved = rounds[0]["submissions"]
        assert {p: s["orders"] for p, s in resolved.items()} == {p: [t] for p, t in orders.items()}
        assert journal.outbox_counts().get("queued", 0) == 0
        statuses = journal.db.execute("SELECT status, COUNT(*) FROM inputs GROUP BY status").fetchall()
        assert dict(statuses) == {"used": 4}  # each message journalled exactly once
    finally:
        journal.close()
    for name in PLAYERS:
        ids = Counter(str(m["Message-ID"]) for m in table.sent(name))
        kinds = Counter(str(m["X-Courier-Kind"]) for m in table.sent(name))
        assert kinds["report"] == 1 and kinds["receipt"] == 1 and kinds["welcome"] == 1, (name, kinds)
        assert max(ids.values()) == 1


def test_send_crash_resends_at_most_once(make_table: Callable[..., Table]) -> None:
    """Between handing a mail to the transport and marking it sent, a crash makes one duplicate."""
    table = make_table()
    assert tick_process(table, at(0, 8, 5).isoformat(), "send.sent#2") == -signal.SIGKILL
    journal = table.journal()
    sent_before = journal.outbox_counts().get("sent", 0)
    journal.close()
    assert sent_before == 1
    assert tick_process(table, at(0, 8, 6).isoformat(), None) == 0
    journal = table.journal()
    raws = [bytes(r[0]) for r in journal.db.execute("SELECT raw FROM outbox WHERE status = 'sent'")]
    journal.close()
    assert len(raws) == len(PLAYERS)
    assert len({message_from_bytes(r)["Message-ID"] for r in raws}) == len(PLAYERS)


def test_a_late_receipt_says_late_after_a_crash_between_the_round_and_the_receipt(
    make_table: Callable[..., Table],
) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    table.clock = at(0, 20, 1)  # delivered a minute after the deadline, before the tick ran
    table.order("Agatha", "loot")
    assert tick_process(table, at(0, 20, 5).isoformat(), "resolve.committed") == -9
    assert tick_process(table, at(0, 20, 10).isoformat(), None) == 0
    receipts = [m for m in table.sent("Agatha") if m["X-Courier-Kind"] == "receipt"]
    assert len(receipts) == 1
    assert "Late orders received: they count for Round 2 of 3" in str(receipts[0]["Subject"])
