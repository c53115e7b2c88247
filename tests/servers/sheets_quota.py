"""The test Sheets server's quota model: Google's "Read requests per minute per user" and "Write
requests per minute per user" (60 each for the Sheets API), counted per service account over the
last 60 seconds of the server's clock (a sliding window, so a burst across a minute boundary is
refused too: stricter than a calendar minute, never looser). A GET is a read, anything else a
write; a request refused for quota is not counted, every other one that reached the API is (even
one then refused as invalid). Over the limit: 429 RESOURCE_EXHAUSTED with Google's message."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.servers.sheets_errors import quota_exceeded

__all__ = ["Quota"]

WINDOW = 60.0  # seconds


@dataclass
class Quota:
    """``reads``/``writes``: requests allowed per user in any 60 s; None: unlimited."""

    clock: Callable[[], float] = field(default=lambda: time.time())
    reads: int | None = 60
    writes: int | None = 60
    _seen: dict[tuple[str, bool], deque[float]] = field(default_factory=dict)

    def spend(self, user: str, is_read: bool) -> None:
        """Count one request of ``user``, or refuse it with 429 if the window is full."""
        limit = self.reads if is_read else self.writes
        if limit is None:
            return
        now = self.clock()
        seen = self._seen.setdefault((user, is_read), deque())
        while seen and seen[0] <= now - WINDOW:
            seen.popleft()
        if len(seen) >= limit:
            raise quota_exceeded("Read" if is_read else "Write", limit)
        seen.append(now)

    def used(self, user: str, is_read: bool) -> int:
        """Requests counted in the last 60 s."""
        now = self.clock()
        return sum(1 for t in self._seen.get((user, is_read), ()) if t > now - WINDOW)
