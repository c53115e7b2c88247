"""A crash while commands are applied loses none and applies none twice: an organiser's extension
moves the deadline once, a notice and a press reach each addressee once, every answer goes once.
The tick runs in a subprocess that SIGKILLs itself at a checkpoint (COURIER_CRASH_AT)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Callable

import pytest

from tests.conftest import PLAYERS, Table
from tests.helpers.clock import at

POINTS = ["organiser.committed", "organiser.committed#2", "players.committed", "send.sent#3"]


def tick(table: Table, when: str, crash_at: str | None) -> int:
    env = {**os.environ, "COURIER_CRASH_AT": crash_at or ""}
    command = [sys.executable, "-m", "courier", "tick", "--config", str(table.deployment.path), "--now", when]
    return subprocess.run(command, env=env, capture_output=True, timeout=60).returncode


def cli(table: Table, *args: str) -> int:
    command = [sys.executable, "-m", "courier", args[0], "--config", str(table.deployment.path), *args[1:]]
    return subprocess.run(command, capture_output=True, timeout=60).returncode


@pytest.mark.parametrize("point", POINTS)
def test_a_crash_among_commands_then_a_clean_tick(make_table: Callable[..., Table], point: str) -> None:
    table = make_table()
    assert tick(table, at(0, 8, 5).isoformat(), None) == 0
    table.clock = at(0, 8, 5)
    assert cli(table, "extend", "truce-1", "24h", "--now", at(0, 8, 6).isoformat()) == 0
    table.mail("organiser@courier.test", "message all: hello", subject="[truce-1] commands")
    table.order("Agatha", "press to Barney: psst")
    assert tick(table, at(0, 9).isoformat(), point) == -signal.SIGKILL, f"the tick did not reach {point}"
    assert tick(table, at(0, 9, 1).isoformat(), None) == 0

    journal = table.journal()
    try:
        row = journal.game("truce-1")
        statuses = dict(journal.db.execute("SELECT status, COUNT(*) FROM inputs GROUP BY status").fetchall())
        assert journal.outbox_counts().get("queued", 0) == 0
    finally:
        journal.close()
    assert row is not None and row.deadline == at(1, 20)  # extended once, not twice
    assert statuses == {"used": 3}
    assert Counter(str(m["X-Courier-Kind"]) for m in table.sent("organiser@courier.test"))["answer"] == 2
    for name in PLAYERS:
        kinds = Counter(str(m["X-Courier-Kind"]) for m in table.sent(name))
        assert kinds["notice"] == 2, (name, kinds)  # the extension and the message, once each
        assert kinds["press"] == (1 if name == "Barney" else 0)
