"""Fault injection for the test Sheets server: what Google's front end and the network do to a
request, set up by a test and consumed request by request. ``FakeSheets`` exposes each as a method
(see tests/servers/sheets.py's docstring for the list); this module keeps their state.

A *kind* picks which API requests a fault hits (``None``: any): "read" (GET) or "write" (anything
else), "metadata" (spreadsheets.get), ":batchUpdate" (spreadsheets.batchUpdate), or the end of the
path: "values:batchGet", "values:batchUpdate", ":append", ":clear"... The token endpoint is never hit."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.servers.sheets_errors import ApiError, Reply, html_page, quota_exceeded

__all__ = ["Faults", "is_read", "matches"]


def is_read(method: str) -> bool:
    return method == "GET"


def matches(kind: str | None, method: str, path: str) -> bool:
    """Whether an API request (``path`` percent-decoded, from /v4/) is of ``kind``."""
    if kind is None:
        return True
    if kind == "read":
        return is_read(method)
    if kind == "write":
        return not is_read(method)
    if kind == "metadata":
        return method == "GET" and "/values" not in path
    if kind == ":batchUpdate":
        return path.endswith(":batchUpdate") and "/values" not in path
    return path.endswith(kind)


@dataclass
class _Pending:
    """``count`` more requests of ``kind`` get this fault."""

    kind: str | None
    count: int
    status: int = 0
    delay: float = 0.0


@dataclass
class Faults:
    """Pending faults, in the order a request meets them: ``before`` (the front end: nothing is
    performed) and ``after`` (the request was performed; its answer may still be lost)."""

    clock: Callable[[], float] = time.monotonic
    failures: list[_Pending] = field(default_factory=list)  # JSON errors (fail_next)
    pages: list[_Pending] = field(default_factory=list)  # HTML error pages
    lost: list[_Pending] = field(default_factory=list)  # performed, answer lost
    storm_left: int | None = None  # 429 for this many more requests (None: no count)
    storm_until: float | None = None  # 429 until this time of ``clock`` (None: no deadline)

    def fail(self, count: int, status: int, kind: str | None) -> None:
        if count > 0:  # none asked: nothing to inject
            self.failures.append(_Pending(kind, count, status))

    def html(self, count: int, status: int, kind: str | None) -> None:
        if count > 0:  # none asked: nothing to inject
            self.pages.append(_Pending(kind, count, status))

    def lose(self, count: int, kind: str | None, delay: float) -> None:
        if count > 0:  # none asked: nothing to inject
            self.lost.append(_Pending(kind, count, delay=delay))

    def storm(self, count: int | None, seconds: float | None) -> None:
        if count is None and seconds is None:
            raise ValueError("a storm needs a count of requests, a number of seconds, or both")
        self.storm_left = count
        self.storm_until = None if seconds is None else self.clock() + seconds

    def before(self, method: str, path: str) -> Reply | None:
        """The front end's answer to this request instead of the API's, if a fault says so."""
        if self._storming():
            if self.storm_left is not None:
                self.storm_left -= 1
            error = quota_exceeded("Read" if is_read(method) else "Write", 60)
            return Reply(429, error.body())
        page = _take(self.pages, method, path)
        if page is not None:
            return Reply(page.status, html=html_page(page.status, path=path, method=method))
        failure = _take(self.failures, method, path)
        if failure is not None:
            if failure.status == 429:
                return Reply(429, quota_exceeded("Read" if is_read(method) else "Write", 60).body())
            return Reply(failure.status, ApiError(failure.status).body())
        return None

    def after(self, method: str, path: str, reply: Reply) -> Reply:
        """The API's reply, or none at all when its answer is to be lost."""
        lost = _take(self.lost, method, path)
        return reply if lost is None else Reply(reply.status, lose=lost.delay)

    def _storming(self) -> bool:
        if self.storm_left is None and self.storm_until is None:
            return False
        over = (self.storm_left is not None and self.storm_left <= 0) or (
            self.storm_until is not None and self.clock() >= self.storm_until
        )
        if over:
            self.storm_left = self.storm_until = None
        return not over


def _take(pending: list[_Pending], method: str, path: str) -> _Pending | None:
    """The first pending fault this request matches, one of its count used up."""
    for entry in pending:
        if matches(entry.kind, method, path):
            entry.count -= 1
            if entry.count <= 0:
                pending.remove(entry)
            return entry
    return None
