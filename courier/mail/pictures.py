"""Pictures for mail: the engine draws SVG (pure text); this turns it into the PNG shown inline.

resvg (through the resvg-py wheel, which carries its own renderer) needs no system library; text
uses DejaVu Sans when the machine has it, else resvg's fallback font.

Drawing PNGs is the dearest step of a round's mail. Players who see the same map share one drawing
(kept by its SVG), and a tick that resolves rounds hands every map it will mail to helper processes,
one per core, before it resolves the first (``predraw``): they draw while the tick writes mail, and
a mail waits only for its own maps. Without helpers (one core, or one cannot start) each map is
drawn when its mail is written; the bytes are the same."""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import subprocess
import sys
import threading
from collections import OrderedDict, deque
from collections.abc import Iterable
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field
from typing import Any

from courier.mail.compose import MailPicture
from courier.mail.render_worker import read_item, render_png, write_item
from engine.core import Illustrated, Picture

__all__ = [
    "end_drawing",
    "forget_pictures",
    "mail_pictures",
    "map_svgs",
    "predraw",
    "predraw_done",
    "render_png",
]

log = logging.getLogger(__name__)

KEPT = 64  # drawings kept once mailed: a round's views, and the welcome's map
WAIT = 300.0  # seconds a mail waits for a helper's drawing before drawing it itself
WORKER = [sys.executable, "-m", "courier.mail.render_worker"]


def mail_pictures(ruleset: Any, state: Any, viewer: str | None) -> list[MailPicture]:
    """The ruleset's pictures for one viewer, ready for a mail; none if the game draws none."""
    return [MailPicture(p.name, p.title, _png(p.svg), p.svg) for p in _pictures(ruleset, state, viewer)]


def map_svgs(ruleset: Any, state: Any, viewers: Iterable[str | None]) -> list[str]:
    """The SVGs these viewers' mail will show."""
    return [p.svg for viewer in viewers for p in _pictures(ruleset, state, viewer)]


def predraw(svgs: Iterable[str]) -> None:
    """Have helper processes start drawing these maps (in this order) while the tick goes on. May
    be called again with more; ``predraw_done`` says there are no more."""
    todo = [svg for svg in dict.fromkeys(svgs) if svg not in _rendered and svg not in _pending]
    if not todo or not _ensure_helpers():
        return
    for svg in todo:
        helper = min(_helpers, key=lambda h: h.backlog)  # the least busy, so early maps come first
        future: Future[bytes] = Future()
        helper.backlog += 1
        helper.inbox.put((svg, future))
        _pending[svg] = future


def predraw_done() -> None:
    """No more maps this tick: the helpers end once they have drawn what they were given."""
    for helper in _helpers:
        helper.inbox.put(None)


def forget_pictures(state: Any) -> None:
    """The drawings of ``state`` are mailed: drop them (a tick of 100 rounds would keep them all)."""
    for key in [k for k in _drawn if k[1] == id(state)]:
        del _drawn[key]


def end_drawing() -> None:
    """At the end of a tick: stop helpers still drawing maps nobody will mail, forget their work."""
    for helper in _helpers:
        helper.inbox.put(None)
        if helper.process.poll() is None:
            helper.process.kill()
        helper.process.wait()
    _helpers.clear()
    _pending.clear()
    _drawn.clear()


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def _pictures(ruleset: Any, state: Any, viewer: str | None) -> list[Picture]:
    """Drawn once per state and viewer (states are frozen): the maps' forecast and the mail share
    one drawing. The entry keeps the ruleset and state alive, so their ids are not reused."""
    if not isinstance(ruleset, Illustrated):
        return []
    key = (id(ruleset), id(state), viewer)
    if key not in _drawn:
        if len(_drawn) > 1024:
            _drawn.clear()
        _drawn[key] = (ruleset, state, ruleset.pictures(state, viewer))
    return _drawn[key][2]


_rendered: OrderedDict[str, bytes] = OrderedDict()
_pending: dict[str, Future[bytes]] = {}
_drawn: dict[tuple[int, int, str | None], tuple[Any, Any, list[Picture]]] = {}
_helpers: list[_Helper] = []


def _png(svg: str) -> bytes:
    if svg in _rendered:
        _rendered.move_to_end(svg)
        return _rendered[svg]
    future = _pending.pop(svg, None)
    try:
        png = future.result(timeout=WAIT) if future else render_png(svg)
    except Exception as e:  # a helper died or is stuck: draw it here
        log.warning("a helper process did not draw a map (%s); drawing it here", e or type(e).__name__)
        png = render_png(svg)
    return _remember(svg, png)


def _remember(svg: str, png: bytes) -> bytes:
    _rendered[svg] = png
    while len(_rendered) > KEPT:
        _rendered.popitem(last=False)
    return png


@dataclass
class _Helper:
    """One helper process, a thread feeding it SVGs as they come and one reading back its PNGs."""

    process: subprocess.Popen[bytes]
    inbox: queue.Queue[tuple[str, Future[bytes]] | None] = field(default_factory=queue.Queue)
    sent: deque[Future[bytes]] = field(default_factory=deque)  # written, PNG not yet read back
    backlog: int = 0


def _ensure_helpers() -> bool:
    """Start one helper per core (once a tick); False where there is one core or none can start."""
    if not _helpers and _cores() > 1:
        for _ in range(_cores()):
            try:
                process = subprocess.Popen(
                    WORKER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
                )
            except OSError as e:
                log.warning("cannot start a helper process to draw maps (%s); drawing them here", e)
                break
            helper = _Helper(process)
            _helpers.append(helper)
            threading.Thread(target=_feed, args=(helper,), daemon=True).start()
            threading.Thread(target=_collect, args=(helper,), daemon=True).start()
    return bool(_helpers)


def _feed(helper: _Helper) -> None:
    stdin = helper.process.stdin
    assert stdin is not None
    try:
        while (item := helper.inbox.get()) is not None:
            svg, future = item
            helper.sent.append(future)  # before writing: its PNG may come back at once
            write_item(stdin, svg.encode("utf-8"))
        stdin.close()
    except OSError:  # the helper died: what it was given is drawn by the tick (see _collect)
        _fail(helper)


def _collect(helper: _Helper) -> None:
    stdout = helper.process.stdout
    assert stdout is not None
    while (png := read_item(stdout)) is not None and helper.sent:
        future = helper.sent.popleft()
        helper.backlog -= 1
        future.set_result(png)
    _fail(helper)


def _fail(helper: _Helper) -> None:
    """The helper ended: every drawing it still owed fails, so the tick draws it itself."""
    owed = list(helper.sent)
    while not helper.inbox.empty():
        item = helper.inbox.get_nowait()
        if item is not None:
            owed.append(item[1])
    for future in owed:
        with contextlib.suppress(InvalidStateError):  # the feeder and the reader may both get here
            future.set_exception(RuntimeError("the helper process ended early"))
