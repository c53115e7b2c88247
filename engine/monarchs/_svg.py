"""The map as SVG text: pointy-top hexes where the board puts them (row 9 on top), owner colours,
hex names and regiment counts; fogged hexes grey with their names only. Pure text, no I/O: the
shell renders it (resvg, DejaVu Sans)."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Collection, Sequence
from typing import Any

from engine.monarchs._board import HEXES, coordinates, home_of
from engine.monarchs._position import Position
from engine.svg import svg_text

SIZE = 28.0  # centre to corner
WIDTH = math.sqrt(3) * SIZE
MARGIN = 20.0
TITLE_HEIGHT = 44.0
LINE_HEIGHT = 19.0
CANVAS_WIDTH = round(2 * MARGIN + 9 * WIDTH)  # 17 letters: eight half-steps either side of I
BOARD_HEIGHT = 14 * SIZE  # 9 rows, each 1.5 sizes below the last, plus a whole hex
WRAP = 62  # characters per line under the map

FILL = {"red": "#f28b82", "green": "#81c995", "blue": "#8ab4f8", None: "#fbf8ef"}
INK = {"red": "#a50e0e", "green": "#0d652d", "blue": "#174ea6"}
FOG, FOG_INK, EDGE, TEXT = "#d0d0d0", "#707070", "#5f5f5f", "#202124"


def draw_map(position: Position, *, title: str, seen: Collection[str] | None, notes: Sequence[str]) -> str:
    """The board as one viewer sees it. ``seen`` lists the hexes shown with owner and count
    (``None``: all of them); ``notes`` are the lines printed under the map."""
    lines = [wrapped for note in notes for wrapped in textwrap.wrap(note, WRAP)]
    if seen is not None:
        lines.append("Grey hexes are out of sight.")
    height = round(TITLE_HEIGHT + BOARD_HEIGHT + MARGIN + LINE_HEIGHT * len(lines) + MARGIN)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{CANVAS_WIDTH}" height="{height}" '
        f'viewBox="0 0 {CANVAS_WIDTH} {height}" font-family="DejaVu Sans">',
        f'<rect width="{CANVAS_WIDTH}" height="{height}" fill="#ffffff"/>',
        _text(CANVAS_WIDTH / 2, 30, title, size=20, bold=True, klass="title"),
    ]
    parts += [_hex(position, h, visible=seen is None or h in seen) for h in HEXES]
    top = TITLE_HEIGHT + BOARD_HEIGHT + MARGIN + 12
    parts += [
        _text(MARGIN, top + i * LINE_HEIGHT, line, size=13, anchor="start", klass="note")
        for i, line in enumerate(lines)
    ]
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def centre(hex_name: str) -> tuple[float, float]:
    letter, row = coordinates(hex_name)
    return MARGIN + WIDTH / 2 + letter * WIDTH / 2, TITLE_HEIGHT + SIZE + (9 - row) * 1.5 * SIZE


def _hex(position: Position, hex_name: str, *, visible: bool) -> str:
    """One hex as a group named after it; a fogged hex carries its name and nothing else."""
    x, y = centre(hex_name)
    home = home_of(hex_name)  # home bases are fixed and known to all: drawn with a thick edge
    edge = INK[home] if home else EDGE
    owner = position.owners[hex_name]
    fill = FILL[owner] if visible else FOG
    parts = [
        f'<g id="{hex_name}" class="{"seen" if visible else "fog"}">',
        f'<polygon points="{_corners(x, y)}" fill="{fill}" stroke="{edge}" '
        f'stroke-width="{3 if home else 1}"/>',
        _text(x, y - SIZE * 0.42, hex_name, size=10, ink=TEXT if visible else FOG_INK, klass="name"),
    ]
    army = position.armies.get(hex_name)
    if visible and army:
        parts.append(_text(x, y + 11, str(army[1]), size=17, bold=True, ink=INK[army[0]], klass="count"))
    parts.append("</g>")
    return "".join(parts)


def _corners(x: float, y: float) -> str:
    angles = (math.radians(30 + 60 * k) for k in range(6))  # pointy top: corners at ±30° from the sides
    return " ".join(f"{x + SIZE * math.cos(a):.1f},{y + SIZE * math.sin(a):.1f}" for a in angles)


def _text(x: float, y: float, content: str, *, size: int, klass: str, **style: Any) -> str:
    return svg_text(x, y, content, size=size, klass=klass, **{"ink": TEXT, **style})
