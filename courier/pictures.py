"""Pictures for mail: the engine draws SVG (pure text); this turns it into the PNG shown inline.

resvg (through the resvg-py wheel, which carries its own renderer) needs no system library; text
uses DejaVu Sans when the machine has it, else resvg's fallback font.

Drawing PNGs is the dearest step of a round's mail. Players who see the same map share one drawing
(kept by its SVG), and a tick that resolves rounds hands every map it will mail to helper processes,
one per core, before it resolves the first (``predraw``): they draw while the tick writes mail, and
a mail waits only for its own maps. Without helpers (one core, or one cannot start) each map is
drawn when its mail is written; the bytes are the same."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from concurrent.futures import Future
from typing import Any

from courier.compose import MailPicture
from courier.render_worker import read_item, render_png, write_item
from engine.core import Illustrated, Picture

__all__ = ["end_drawing", "mail_pictures", "map_svgs", "predraw", "render_png"]

log = logging.getLogger(__name__)

KEPT = 64  # drawings kept once mailed: a round's views, and the welcome's map
WAIT = 300.0  # seconds a mail waits for a helper's drawing before drawing it itself
WORKER = [sys.executable, "-m", "courier.render_worker"]


def mail_pictures(ruleset: Any, state: Any, viewer: str | None) -> list[MailPicture]:
    """The ruleset's pictures for one viewer, ready for a mail; none if the game draws none."""
    return [MailPicture(p.name, p.title, _png(p.svg), p.svg) for p in _pictures(ruleset, state, viewer)]


def map_svgs(ruleset: Any, state: Any, viewers: Iterable[str | None]) -> list[str]:
    """The SVGs these viewers' mail will show."""
    return [p.svg for viewer in viewers for p in _pictures(ruleset, state, viewer)]


def predraw(svgs: Iterable[str]) -> None:
    """Have helper processes start drawing these maps (in this order) while the tick goes on."""
    todo = [svg for svg in dict.fromkeys(svgs) if svg not in _rendered and svg not in _pending]
    helpers = min(_cores(), len(todo))
    if helpers < 2:
        return
    for number in range(helpers):
        batch = todo[number::helpers]  # in turn, so the first games' maps come first
        futures: list[Future[bytes]] = [Future() for _ in batch]
        if _start_helper(batch, futures):
            _pending.update(zip(batch, futures, strict=True))


def end_drawing() -> None:
    """At the end of a tick: stop helpers still drawing maps nobody will mail, forget their work."""
    for helper in _helpers:
        if helper.poll() is None:
            helper.kill()
        helper.wait()
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
_helpers: list[subprocess.Popen[bytes]] = []


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


def _start_helper(svgs: Sequence[str], futures: Sequence[Future[bytes]]) -> bool:
    try:
        helper = subprocess.Popen(
            WORKER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
    except OSError as e:
        log.warning("cannot start a helper process to draw maps (%s); drawing them here", e)
        return False
    _helpers.append(helper)
    threading.Thread(target=_feed, args=(helper, svgs), daemon=True).start()
    threading.Thread(target=_collect, args=(helper, futures), daemon=True).start()
    return True


def _feed(helper: subprocess.Popen[bytes], svgs: Sequence[str]) -> None:
    assert helper.stdin is not None
    try:
        for svg in svgs:
            write_item(helper.stdin, svg.encode("utf-8"))
        helper.stdin.close()
    except OSError:
        pass  # the helper died: its drawings fail below and are drawn by the tick


def _collect(helper: subprocess.Popen[bytes], futures: Sequence[Future[bytes]]) -> None:
    assert helper.stdout is not None
    for future in futures:
        png = read_item(helper.stdout)
        if png is None:
            break
        future.set_result(png)
    for future in futures:
        if not future.done():
            future.set_exception(RuntimeError("the helper process ended early"))
