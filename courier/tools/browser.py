"""Headless Chromium through its DevTools pipe: open a page at a given window size, measure it with
JavaScript, take a screenshot. One browser serves many pages (a launch costs about a second).

``--remote-debugging-pipe`` reads commands from file descriptor 3 and writes answers to 4, each a
JSON object ended by a NUL byte; no port, no websocket. A shell puts our pipes on 3 and 4.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from courier.errors import CourierError

__all__ = ["Browser", "BrowserMissing", "Page", "find_chromium"]

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "chrome")
TIMEOUT = 30.0  # seconds for one page to load and answer


class BrowserMissing(CourierError):
    """No Chromium on this machine."""


class BrowserFailed(CourierError):
    """Chromium ended, timed out or could not run a page's script: the render check stops with one line."""


def find_chromium() -> str | None:
    """The Chromium to run: ``$COURIER_CHROMIUM``, else the first of ``CANDIDATES`` on the PATH."""
    named = os.environ.get("COURIER_CHROMIUM")
    if named:
        return shutil.which(named)
    return next((found for name in CANDIDATES if (found := shutil.which(name))), None)


@dataclass(frozen=True)
class Page:
    """What one page measured at one window size, and its screenshot (PNG)."""

    width: int
    height: int
    measures: dict[str, Any]
    png: bytes


class Browser:
    """``with Browser() as b: b.page(path, 400, 800, script)``."""

    def __init__(self) -> None:
        executable = find_chromium()
        if executable is None:
            raise BrowserMissing("no Chromium found (apt-get install chromium, or set COURIER_CHROMIUM)")
        self._profile = tempfile.TemporaryDirectory(prefix="courier-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        flags = [
            "--headless",
            "--no-sandbox",  # as root in a container there is no sandbox to have
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--mute-audio",
            "--remote-debugging-pipe",
            f"--user-data-dir={self._profile.name}",
        ]
        self._process = subprocess.Popen(
            ["sh", "-c", 'exec "$0" "$@" 3<&0 4>&1 </dev/null >/dev/null', executable, *flags],
            stdin=to_browser_r,
            stdout=from_browser_w,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._next_id = 0
        self._buffer = b""
        self._events: list[dict[str, Any]] = []

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        for fd in (self._to_browser, self._from_browser):
            with contextlib.suppress(OSError):
                os.close(fd)
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._profile.cleanup()

    # --- one page ----------------------------------------------------------------------------------

    def page(self, path: Path, width: int, height: int, script: str, *, whole: bool = True) -> Page:
        """Load ``path`` in a ``width``×``height`` window; ``script`` (an expression giving a JSON
        value) measures it once every image has loaded; the screenshot is of the whole page, or
        with ``whole=False`` of the first screen (quicker)."""
        target = self._call("Target.createTarget", url="about:blank")["targetId"]
        session = self._call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        try:
            metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
            self._call("Emulation.setDeviceMetricsOverride", session=session, **metrics)
            self._call("Page.enable", session=session)
            self._events.clear()
            self._call("Page.navigate", session=session, url=path.resolve().as_uri())
            self._wait_event("Page.loadEventFired", session)
            measures = self._evaluate(session, script)
            full = self._call("Page.getLayoutMetrics", session=session)["cssContentSize"]
            tall = max(height, full["height"]) if whole else height
            clip = {"x": 0, "y": 0, "width": width, "height": tall, "scale": 1}
            shot = self._call(
                "Page.captureScreenshot", session=session, format="png", clip=clip, captureBeyondViewport=True
            )
            return Page(width, height, measures, base64.b64decode(shot["data"]))
        finally:
            self._call("Target.closeTarget", targetId=target)

    def _evaluate(self, session: str, expression: str) -> dict[str, Any]:
        answer = self._call(
            "Runtime.evaluate", session=session, expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in answer:
            raise BrowserFailed(f"the page's script failed: {answer['exceptionDetails']}")
        value: dict[str, Any] = answer["result"]["value"]
        return value

    # --- the pipe ----------------------------------------------------------------------------------

    def _call(self, method: str, *, session: str | None = None, **params: Any) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserFailed(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply["result"]
                return result
            if "method" in reply:
                self._events.append(reply)

    def _wait_event(self, method: str, session: str) -> None:
        deadline = time.monotonic() + TIMEOUT
        while True:
            if any(e["method"] == method and e.get("sessionId") == session for e in self._events):
                return
            self._events.append(self._read(deadline))

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_browser], [], [], left)[0]:
                raise BrowserFailed("Chromium did not answer in time")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise BrowserFailed("Chromium ended")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        parsed: dict[str, Any] = json.loads(message)
        return parsed
