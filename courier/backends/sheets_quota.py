"""One budget of Google Sheets requests a tick, shared by every game's sheet.

Google allows 60 read and 60 write requests a minute per user (the service account), whichever
spreadsheet they go to (https://developers.google.com/sheets/api/limits), and answers 429 beyond.
A tick opens one ``SheetsQuota`` and hands it to every game's ``GoogleSheet``:

- at most ``reads_per_minute`` reads and ``writes_per_minute`` writes go out in any 60 seconds (48
  each by default: 80 % of Google's 60, headroom for the organiser's own scripts and for Google
  counting its minute differently); one more waits until the oldest of them is a minute old;
- a failed request (429, 408, 5xx, no answer) waits before the next try, whichever game sends it,
  as Google documents: min(backoff × 2ⁿ + a random part of ``backoff``, ``MAX_BACKOFF``), n
  counting the failures in a row *across the tick*, so twenty games under a 429 storm do not each
  start again at one second;
- a request that fails ``retries + 1`` times in a row gives up (``TransientError``); the next
  request, whatever its game, is a probe: when it fails too, Google is not answering this tick and
  no further request is sent;
- every wait of the tick comes out of one allowance (``wait``, 60 s by default); once a read would
  wait past it, no read goes out any more this tick, but writes still do while their own minute has
  room (and the other way round), so a tick that spent its waiting on reads still publishes.

A request that is not sent raises ``NotReached`` (a ``TransientError``): the game waits for the
next tick, which reaches it first (courier/tick/sheets_first.py). Nothing is lost; the journal is
the source of truth. The clock, the sleep and the random numbers are passed in, so tests never wait.
"""

from __future__ import annotations

import logging
import random
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from courier.backends.base import TransientError, WorkbookError
from courier.backends.kinds import SHEETS, find_kind

__all__ = ["MAX_BACKOFF", "NotReached", "SheetsQuota", "pause"]

log = logging.getLogger(__name__)

Kind = Literal["read", "write"]
MAX_BACKOFF = 32.0  # seconds: Google's documented maximum backoff
MINUTE = 60.0
# Patched by tests that run a whole tick (its sleeps are the quota's): never a real wait there.
pause: Callable[[float], None] = time.sleep
monotonic: Callable[[], float] = time.monotonic


class NotReached(TransientError):
    """This request was not sent: the tick's quota or its allowance of waiting is spent, or Google
    is not answering. The game is left for the next tick, which reaches it first."""


@dataclass
class _Window:
    """The requests of one kind sent in the last minute (their clock readings, oldest first)."""

    per_minute: int
    sent: deque[float] = field(default_factory=deque)

    def forget(self, now: float) -> None:
        while self.sent and self.sent[0] <= now - MINUTE:
            self.sent.popleft()


class SheetsQuota:
    """The tick's budget of Sheets requests; see the module's docstring."""

    def __init__(
        self,
        settings: Mapping[str, Any] | None = None,
        *,
        sleep: Callable[[float], None] | None = None,
        clock: Callable[[], float] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        """``settings``: the deployment's ``[sheets]`` table (``reads_per_minute``,
        ``writes_per_minute``, ``wait``, ``retries``, ``backoff``)."""
        settings = settings or {}
        self._sleep = pause if sleep is None else sleep
        self._clock = monotonic if clock is None else clock
        self._rng = random.Random() if rng is None else rng
        self.retries = int(_number(settings, "retries"))
        self.backoff = _number(settings, "backoff")
        self.allowance = _number(settings, "wait")
        self._skew = 0.0  # seconds slept that the clock did not see pass (a test's sleep)
        self._windows: dict[Kind, _Window] = {
            kind: _Window(max(1, int(_number(settings, f"{kind}s_per_minute")))) for kind in ("read", "write")
        }
        self.sent: dict[Kind, int] = {"read": 0, "write": 0}
        self.waited = 0.0  # seconds slept this tick
        self._failures = 0  # requests failed in a row, whichever game sent them
        self._delay = 0.0  # to wait before the next request (after a failure)
        self._stopped = ""  # why no request goes out for the rest of the tick
        self._spent: dict[Kind, str] = {}  # why no request of this kind goes out any more

    @property
    def stopped(self) -> str:
        """Why requests stopped going out this tick ("" while they all do)."""
        return self._stopped or next(iter(self._spent.values()), "")

    def take(self, kind: Kind) -> None:
        """Before a request of ``kind``: wait for its turn, or raise ``NotReached``."""
        if self._stopped or kind in self._spent:
            raise NotReached(self._stopped or self._spent[kind])
        if self._delay:
            delay, self._delay = self._delay, 0.0
            self._wait(delay, f"{self._failures} request(s) failed in a row")
        window = self._windows[kind]
        window.forget(self._now())
        if len(window.sent) >= window.per_minute:
            need = window.sent[0] + MINUTE - self._now()
            self._wait(need, f"the quota of {window.per_minute} {kind}s a minute is used up", kind)
            window.forget(self._now())
            while len(window.sent) >= window.per_minute:  # a clock's rounding: the wait was for it
                window.sent.popleft()
        window.sent.append(self._now())
        self.sent[kind] += 1

    def succeeded(self) -> None:
        self._failures = 0

    def failed(self, problem: str) -> bool:
        """After a request failed (429, 408, 5xx, no answer). True: try again (the wait is taken
        before the next request, whichever game sends it). False: give up on this request.
        Raises ``NotReached`` when this was the probe after a give-up."""
        self._failures += 1
        if self._failures > self.retries + 1:
            self._stop(f"{self._failures} requests failed in a row ({problem})")
            raise NotReached(self._stopped)
        jitter = self._rng.uniform(0, self.backoff)
        self._delay = min(self.backoff * 2 ** (self._failures - 1) + jitter, MAX_BACKOFF)
        return self._failures <= self.retries

    def _wait(self, seconds: float, why: str, kind: Kind | None = None) -> None:
        """Sleep ``seconds`` out of the tick's allowance. Past it, no more requests of ``kind`` go
        (the other kind may still go while its own minute has room), or none at all after failures."""
        if self.waited + seconds > self.allowance:
            why = f"{why}, and this tick has waited {self.waited:.0f} s of its {self.allowance:g} s"
            if kind is None:
                self._stop(why)
                raise NotReached(why)
            self._spent[kind] = why
            log.info("Google Sheets: %s; no more %ss this tick", why, kind)
            raise NotReached(why)
        log.info("Google Sheets: %s; waiting %.1f s", why, seconds)
        before = self._clock()
        self._sleep(seconds)
        self._skew += max(0.0, seconds - (self._clock() - before))
        self.waited += seconds

    def _now(self) -> float:
        return self._clock() + self._skew

    def _stop(self, why: str) -> None:
        self._stopped = why
        log.info("Google Sheets: %s; no more requests this tick", why)


def _number(settings: Mapping[str, Any], key: str) -> float:
    """``[sheets] key`` as a number (text of digits is taken too), its default from the kinds table."""
    value = settings.get(key, find_kind(SHEETS, "gsheet").default(key))
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise WorkbookError(f"[sheets] {key} must be a number, not {value!r}") from None
    if number < 0 or (key.endswith("per_minute") and number <= 0):
        raise WorkbookError(f"[sheets] {key} must be more than 0, not {value!r}")
    return number
