"""Pictures for mail: the engine draws SVG (pure text); this turns it into the PNG shown inline.

resvg (through the resvg-py wheel, which carries its own renderer) needs no system library; text
uses DejaVu Sans when the machine has it, else resvg's fallback font.

Rendering is the dearest step of a round's mail. Players who see the same map share one rendering
(the cache is keyed on the SVG itself), and the different views of one round (Star Trek's fogged
maps, Monarchs' nations) are drawn side by side by helper processes, one per core (``prerender``)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from courier.compose import MailPicture
from courier.render_worker import pack, render_png, unpack
from engine.core import Illustrated, Picture

__all__ = ["mail_pictures", "prerender", "render_png"]

log = logging.getLogger(__name__)

KEPT = 64  # renderings kept: a round's views, and the welcome's map
WORKER = [sys.executable, "-m", "courier.render_worker"]


def mail_pictures(ruleset: Any, state: Any, viewer: str | None) -> list[MailPicture]:
    """The ruleset's pictures for one viewer, ready for a mail; none if the game draws none."""
    return [MailPicture(p.name, p.title, _png(p.svg), p.svg) for p in _pictures(ruleset, state, viewer)]


def prerender(ruleset: Any, state: Any, viewers: Iterable[str | None]) -> None:
    """Draw now, on every core, the pictures these viewers' mail is about to show. Where that fails
    (no helper process can start), the mail draws them one by one as before."""
    svgs = (p.svg for viewer in viewers for p in _pictures(ruleset, state, viewer))
    todo = [svg for svg in dict.fromkeys(svgs) if svg not in _rendered]
    helpers = min(_cores(), len(todo))
    if helpers < 2:
        return
    batches = [todo[i::helpers] for i in range(helpers)]
    with ThreadPoolExecutor(helpers) as threads:  # each thread only waits on its helper's pipes
        for batch, pngs in zip(batches, threads.map(_render_elsewhere, batches), strict=True):
            for svg, png in zip(batch, pngs, strict=False):
                _remember(svg, png)


def _render_elsewhere(svgs: Sequence[str]) -> list[bytes]:
    try:
        done = subprocess.run(
            WORKER,
            input=pack([s.encode("utf-8") for s in svgs]),
            capture_output=True,
            check=True,
            timeout=300,
        )
    except (OSError, subprocess.SubprocessError) as e:
        log.warning("drawing maps in a helper process failed (%s); drawing them here", e)
        return []
    return list(unpack(done.stdout))


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def _pictures(ruleset: Any, state: Any, viewer: str | None) -> list[Picture]:
    return ruleset.pictures(state, viewer) if isinstance(ruleset, Illustrated) else []


_rendered: OrderedDict[str, bytes] = OrderedDict()


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
