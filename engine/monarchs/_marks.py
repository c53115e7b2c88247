"""What the last turn did, drawn over the hexes: each move as an arrow in its nation's colour with
the regiments it carried, the boosted hex ringed in gold, each battle in its winner's colour (a
star on the hex, under its count, or the border where two armies met drawn thick). ``_maps``
decides which of them a viewer may see; this only draws them. Pure text."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from engine.monarchs._state import Recap
from engine.svg import svg_text

Point = tuple[float, float]
BOOST = "#f9ab00"


@dataclass(frozen=True)
class Round:
    """The marks one viewer's map carries."""

    moves: tuple[tuple[str, str, str, int], ...] = ()  # (nation, origin, target, regiments)
    boosts: tuple[tuple[str, str], ...] = ()  # (nation, hex)
    battles: tuple[tuple[str, str], ...] = ()  # (place: a hex or a border "E3–F2", winner)


def round_of(recaps: Mapping[str, Recap], nations: tuple[str, ...]) -> Round:
    """The orders of ``nations`` and the battles they fought; a battle's winner is the nation
    whose recap lists it won (its loser was told who beat it)."""
    winner = {place: n for n, r in recaps.items() for place in r.won}
    fought = dict.fromkeys(p for n in nations for p in (*recaps[n].won, *recaps[n].lost) if p in winner)
    return Round(
        moves=tuple((n, *m) for n in nations for m in recaps[n].moves),
        boosts=tuple((n, b) for n in nations if (b := recaps[n].boost)),
        battles=tuple((p, winner[p]) for p in fought),
    )


def draw_round(
    shown: Round, centre: Callable[[str], Point], ink: Mapping[str, str], size: float
) -> Iterator[str]:
    """Boost rings first (under everything), then the borders fought over, the arrows, and the
    battle stars on top."""
    for nation, hex_name in shown.boosts:
        yield _boost(centre(hex_name), size, nation, hex_name)
    for place, winner in shown.battles:  # a border under the arrows that met on it
        if "–" in place:
            first, second = place.split("–")
            yield _border(centre(first), centre(second), size, ink[winner], place, winner)
    for nation, origin, target, regiments in shown.moves:
        yield _arrow(centre(origin), centre(target), ink[nation], regiments, nation, f"{origin}-{target}")
    for place, winner in shown.battles:
        if "–" not in place:
            yield _battle(centre(place), size, ink[winner], place, winner)


def _boost(at: Point, size: float, nation: str, hex_name: str) -> str:
    x, y = at
    r = size * 0.78
    corners = (math.radians(30 + 60 * k) for k in range(6))
    points = " ".join(f"{x + r * math.cos(a):.1f},{y + r * math.sin(a):.1f}" for a in corners)
    return (
        f'<polygon class="boost" data-nation="{nation}" data-hex="{hex_name}" points="{points}" '
        f'fill="none" stroke="{BOOST}" stroke-width="4"/>'
    )


def _arrow(start: Point, end: Point, colour: str, regiments: int, nation: str, key: str) -> str:
    """From near the origin's centre to just inside the target, offset to its right so two armies
    crossing one border both show; the regiments it carried in a badge on its tail."""
    (x1, y1), (x2, y2) = start, end
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    ox, oy = -uy * 6, ux * 6  # the right-hand side of travel (y grows downward)
    ax, ay = x1 + ux * length * 0.15 + ox, y1 + uy * length * 0.15 + oy
    bx, by = x1 + ux * length * 0.84 + ox, y1 + uy * length * 0.84 + oy
    head = _head(bx, by, ux, uy)
    line = f'x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx - ux * 6:.1f}" y2="{by - uy * 6:.1f}"'
    badge_x, badge_y = x1 + ux * length * 0.5 + ox, y1 + uy * length * 0.5 + oy  # on the border
    return (
        f'<g class="move" data-nation="{nation}" data-move="{key}" data-regiments="{regiments}">'
        f'<line {line} stroke="#ffffff" stroke-width="6.5" stroke-linecap="round"/>'
        f'<line {line} stroke="{colour}" stroke-width="3.5" stroke-linecap="round"/>'
        f'<polygon points="{head}" fill="{colour}" stroke="#ffffff" stroke-width="1"/>'
        f'<circle cx="{badge_x:.1f}" cy="{badge_y:.1f}" r="6.5" fill="{colour}" stroke="#ffffff"/>'
        + svg_text(
            badge_x, badge_y + 3.5, str(regiments), size=10, bold=True, ink="#ffffff", klass="regiments"
        )
        + "</g>"
    )


def _head(x: float, y: float, ux: float, uy: float) -> str:
    """An arrowhead with its tip at (x, y), pointing along (ux, uy)."""
    back, wide = 10.0, 6.5
    corners = [(x, y), (x - ux * back - uy * wide, y - uy * back + ux * wide)]
    corners.append((x - ux * back + uy * wide, y - uy * back - ux * wide))
    return " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in corners)


def _battle(at: Point, size: float, colour: str, place: str, winner: str) -> str:
    """An eight-pointed star low in the hex, under its count."""
    x, y = at[0], at[1] + size * 0.68
    points = []
    for i in range(16):
        r = 8.5 if i % 2 == 0 else 4.0
        a = math.pi / 8 * i
        points.append(f"{x + r * math.cos(a):.1f},{y + r * math.sin(a):.1f}")
    return (
        f'<polygon class="battle" data-place="{place}" data-winner="{winner}" points="{" ".join(points)}" '
        f'fill="{colour}" stroke="#ffffff" stroke-width="1.5"/>'
    )


def _border(a: Point, b: Point, size: float, colour: str, place: str, winner: str) -> str:
    """The edge two neighbouring hexes share, drawn thick: it runs across the line between their
    centres, through its middle, as long as a hex's side."""
    (x1, y1), (x2, y2) = a, b
    length = math.hypot(x2 - x1, y2 - y1)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    px, py = -(y2 - y1) / length * size / 2, (x2 - x1) / length * size / 2
    ends = f'x1="{mx - px:.1f}" y1="{my - py:.1f}" x2="{mx + px:.1f}" y2="{my + py:.1f}"'
    return (
        f'<g class="battle" data-place="{place}" data-winner="{winner}">'
        f'<line {ends} stroke="#ffffff" stroke-width="9" stroke-linecap="round"/>'
        f'<line {ends} stroke="{colour}" stroke-width="6" stroke-linecap="round"/></g>'
    )
