"""Pictures for mail: the engine draws SVG (pure text); this turns it into the PNG shown inline.

resvg (through the resvg-py wheel, which carries its own renderer) needs no system library; text
uses DejaVu Sans when the machine has it, else resvg's fallback font."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import resvg_py

from courier.compose import MailPicture
from engine.core import Illustrated, Picture

FONT = "DejaVu Sans"


def render_png(svg: str) -> bytes:
    return bytes(
        resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff", font_family=FONT, sans_serif_family=FONT)
    )


def mail_pictures(ruleset: Any, state: Any, viewer: str | None) -> list[MailPicture]:
    """The ruleset's pictures for one viewer, ready for a mail; none if the game draws none."""
    if not isinstance(ruleset, Illustrated):
        return []
    pictures: list[Picture] = ruleset.pictures(state, viewer)
    return [MailPicture(p.name, p.title, _png(p.svg), p.svg) for p in pictures]


@lru_cache(maxsize=64)
def _png(svg: str) -> bytes:
    """Rendering is the dearest step of a round's mail; players who see the same map (an unfogged
    one, the welcome's) share one rendering, keyed on the SVG itself."""
    return render_png(svg)
