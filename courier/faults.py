"""Crash points for the crash-safety tests.

``COURIER_CRASH_AT=name`` (or ``name#3`` for the third time the point is reached) makes the tick
kill itself with SIGKILL at that point, as a power cut would. Unset in production: a no-op.
"""

from __future__ import annotations

import os
import signal
from collections import Counter

_reached: Counter[str] = Counter()


def checkpoint(name: str) -> None:
    wanted = os.environ.get("COURIER_CRASH_AT")
    if not wanted:
        return
    _reached[name] += 1
    point, _, count = wanted.partition("#")
    if point == name and _reached[name] == int(count or 1):
        os.kill(os.getpid(), signal.SIGKILL)
