"""The last phase's moves and retreats on the Star Trek map: an arrow from system to system in the
mover's colour, solid when it went, dashed when it failed, dotted for a retreat. A move along a
vertical lane joins two pictures and is drawn in neither (the report's text has it). Pure text."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence

from engine.startrek._factions import COLOURS
from engine.startrek._legend import Entry
from engine.startrek._state import Route

GAP = 19.0  # from a system's centre to where its arrow starts or ends: clear of the ring


def draw_routes(
    routes: Sequence[Route], drawn: Collection[str], centre: Callable[[str], tuple[float, float]]
) -> list[str]:
    """The arrows of ``routes`` with both ends among the ``drawn`` systems, at ``centre``'s places."""
    return [
        _arrow(r, centre(r.origin), centre(r.target))
        for r in routes
        if r.origin in drawn and r.target in drawn
    ]


def route_entries(routes: Sequence[Route], drawn: Collection[str]) -> list[Entry]:
    shown = [r for r in routes if r.origin in drawn and r.target in drawn]
    entries = []
    if any(r.kind == "move" for r in shown):
        entries.append(Entry("move", "a move (dashed: it failed)", "#202124"))
    if any(r.kind == "retreat" for r in shown):
        entries.append(Entry("retreat", "a retreat", "#202124"))
    return entries


def _arrow(route: Route, start: tuple[float, float], end: tuple[float, float]) -> str:
    (x1, y1), (x2, y2) = start, end
    length = max(math.hypot(x2 - x1, y2 - y1), 1.0)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    ax, ay, bx, by = x1 + ux * GAP, y1 + uy * GAP, x2 - ux * GAP, y2 - uy * GAP
    colour = COLOURS[route.faction]
    dash = ' stroke-dasharray="2 5" stroke-linecap="round"' if route.kind == "retreat" else ""
    if not route.succeeded:
        dash = ' stroke-dasharray="8 5"'
    head = [
        (bx, by),
        (bx - ux * 11 - uy * 6, by - uy * 11 + ux * 6),
        (bx - ux * 11 + uy * 6, by - uy * 11 - ux * 6),
    ]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in head)
    line = f'x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx - ux * 8:.1f}" y2="{by - uy * 8:.1f}"'
    return (
        f'<g class="{route.kind}" data-faction="{route.faction}" data-from="{route.origin}" '
        f'data-to="{route.target}" data-succeeded="{str(route.succeeded).lower()}">'
        f'<line {line} stroke="#ffffff" stroke-width="6"/>'
        f'<line {line} stroke="{colour}" stroke-width="3.5"{dash}/>'
        f'<polygon points="{points}" fill="{colour}" stroke="#ffffff" stroke-width="1"/></g>'
    )
