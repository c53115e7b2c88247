"""What the last step did, drawn over the lands (``TalossaState.marks``): each conquest and attack as
an arrow from the land it came from (dashed when the defender held), a land taken this step framed
in a thick dashed line, each battle a star in its winner's colour on the land's edge. Talossa
has no fog, so everybody sees the same marks. Pure text."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping

from engine.talossa._map import GameMap
from engine.talossa._state import Mark

NEW = "#111111"


def draw_marks(
    marks: tuple[Mark, ...],
    game_map: GameMap,
    unit: float,
    fills: Mapping[str, str],
    owners: Mapping[str, str | None],
) -> Iterator[str]:
    """Frames under the arrows, stars on top. ``owners``: who holds each land now (the defender
    who held a battle still does)."""
    taken = dict.fromkeys(m.land for m in marks if m.kind != "held" and owners.get(m.land) == m.player)
    for land in taken:
        yield _frame(game_map.land(land).centre, unit, land)
    for mark in marks:
        start, end = game_map.land(mark.origin).centre, game_map.land(mark.land).centre
        yield _arrow(start, end, unit, mark, held=mark.kind == "held")
    for mark in marks:
        if mark.kind != "conquered":
            winner = mark.player if mark.kind == "captured" else owners.get(mark.land)
            yield _battle(game_map.land(mark.land).centre, unit, fills.get(winner or "", "#9e9e9e"), mark)


def _frame(centre: tuple[float, float], unit: float, land: str) -> str:
    width, height = unit * 0.86 + 8, unit * 0.66 + 8
    x, y = centre[0] - width / 2, centre[1] - height / 2
    return (
        f'<rect class="taken" data-land="{land}" x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" '
        f'height="{height:.1f}" rx="{unit * 0.1:.1f}" fill="none" stroke="{NEW}" stroke-width="3" '
        'stroke-dasharray="6 3"/>'
    )


def _arrow(
    start: tuple[float, float], end: tuple[float, float], unit: float, mark: Mark, *, held: bool
) -> str:
    """From the edge of the origin's box to the edge of the target's, off the straight line a little
    so a second attack the other way shows beside it."""
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    ox, oy = -uy * unit * 0.08, ux * unit * 0.08
    ax, ay = x1 + ux * length * 0.3 + ox, y1 + uy * length * 0.3 + oy
    bx, by = x1 + ux * length * 0.72 + ox, y1 + uy * length * 0.72 + oy
    back, wide = unit * 0.1, unit * 0.07
    head = [(bx, by), (bx - ux * back - uy * wide, by - uy * back + ux * wide)]
    head.append((bx - ux * back + uy * wide, by - uy * back - ux * wide))
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in head)
    dash = ' stroke-dasharray="5 4"' if held else ""
    line = f'x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx - ux * back:.1f}" y2="{by - uy * back:.1f}"'
    return (
        f'<g class="attack" data-from="{mark.origin}" data-land="{mark.land}" data-player="{mark.player}" '
        f'data-kind="{mark.kind}"><line {line} stroke="#ffffff" stroke-width="{unit * 0.07:.1f}"/>'
        f'<line {line} stroke="{NEW}" stroke-width="{unit * 0.035:.1f}"{dash}/>'
        f'<polygon points="{points}" fill="{NEW}" stroke="#ffffff" stroke-width="1"/></g>'
    )


def _battle(centre: tuple[float, float], unit: float, colour: str, mark: Mark) -> str:
    """An eight-pointed star on the box's right-hand edge (clear of its name and count), in the
    winner's colour."""
    x, y = centre[0] + unit * 0.36, centre[1] + unit * 0.02  # inside the land's half of the gap
    points = []
    for i in range(16):
        r = unit * (0.13 if i % 2 == 0 else 0.06)
        points.append(f"{x + r * math.cos(math.pi / 8 * i):.1f},{y + r * math.sin(math.pi / 8 * i):.1f}")
    won = "attacker" if mark.kind == "captured" else "defender"
    return (
        f'<polygon class="battle" data-land="{mark.land}" data-won="{won}" points="{" ".join(points)}" '
        f'fill="{colour}" stroke="{NEW}" stroke-width="1.5"/>'
    )
