"""Pictures for mail: the engine draws SVG (pure text); this turns it into the PNG shown inline.

resvg (through the resvg-py wheel, which carries its own renderer) needs no system library; text
uses DejaVu Sans when the machine has it, else resvg's fallback font.

Rendering is the dearest step of a round's mail. Players who see the same map share one rendering
(the cache is keyed on the SVG itself), and the different views of one round (Star Trek's fogged
maps, Monarchs' nations) are rendered side by side on the machine's cores (``prerender``)."""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections import OrderedDict
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import resvg_py

from courier.compose import MailPicture
from engine.core import Illustrated, Picture

FONT = "DejaVu Sans"
KEPT = 64  # renderings kept: a round's views, and the welcome's map


def render_png(svg: str) -> bytes:
    return bytes(
        resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff", font_family=FONT, sans_serif_family=FONT)
    )


def mail_pictures(ruleset: Any, state: Any, viewer: str | None) -> list[MailPicture]:
    """The ruleset's pictures for one viewer, ready for a mail; none if the game draws none."""
    return [MailPicture(p.name, p.title, _png(p.svg), p.svg) for p in _pictures(ruleset, state, viewer)]


def prerender(ruleset: Any, state: Any, viewers: Iterable[str | None]) -> None:
    """Render now, in parallel, the pictures these viewers' mail is about to show."""
    svgs = (p.svg for viewer in viewers for p in _pictures(ruleset, state, viewer))
    todo = [svg for svg in dict.fromkeys(svgs) if svg not in _rendered]
    pool = _pool() if len(todo) > 1 else None
    if pool is None:
        return  # rendered one by one as the mail is written
    for svg, png in zip(todo, pool.map(render_png, todo), strict=True):
        _remember(svg, png)


def close_pool() -> None:
    """End the worker processes (at the end of a tick)."""
    global _workers
    if _workers is not None:
        _workers.shutdown()
        _workers = None


def _pictures(ruleset: Any, state: Any, viewer: str | None) -> list[Picture]:
    return ruleset.pictures(state, viewer) if isinstance(ruleset, Illustrated) else []


_rendered: OrderedDict[str, bytes] = OrderedDict()
_workers: ProcessPoolExecutor | None = None


def _png(svg: str) -> bytes:
    if svg in _rendered:
        _rendered.move_to_end(svg)
        return _rendered[svg]
    return _remember(svg, render_png(svg))


def _remember(svg: str, png: bytes) -> bytes:
    _rendered[svg] = png
    while len(_rendered) > KEPT:
        _rendered.popitem(last=False)
    return png


def _pool() -> ProcessPoolExecutor | None:
    """Worker processes forked from this one, or None where that is unsafe or gains nothing: one
    core, no fork (macOS, Windows), or other threads running (a fork copies their locks held)."""
    global _workers
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if cores < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    if threading.active_count() > 1:
        return None
    if _workers is None:
        _workers = ProcessPoolExecutor(max_workers=cores, mp_context=multiprocessing.get_context("fork"))
    return _workers
