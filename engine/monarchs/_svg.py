"""The map as SVG text: pointy-top hexes where the board puts them (row 9 on top), owner colours,
hex names and regiment counts; fogged hexes grey with their names only; over them the last turn
(``_marks``: moves, boost, battles) with a key to them. Pure text, no I/O: the shell renders it
(resvg, DejaVu Sans)."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Collection, Sequence
from typing import Any

from engine.monarchs._board import HEXES, coordinates, home_of
from engine.monarchs._marks import BOOST, Round, draw_round
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

NOTHING = Round()  # a map with no marks: the start
FILL = {"red": "#f28b82", "green": "#81c995", "blue": "#8ab4f8", None: "#fbf8ef"}
INK = {"red": "#a50e0e", "green": "#0d652d", "blue": "#174ea6"}
FOG, FOG_INK, EDGE, TEXT = "#d0d0d0", "#707070", "#5f5f5f", "#202124"


def draw_map(
    position: Position,
    *,
    title: str,
    seen: Collection[str] | None,
    notes: Sequence[str],
    shown: Round = NOTHING,
) -> str:
    """The board as one viewer sees it. ``seen`` lists the hexes shown with owner and count
    (``None``: all of them); ``notes`` are the lines printed under the map; ``shown`` the last
    turn's marks this viewer may see."""
    lines = [wrapped for note in notes for wrapped in textwrap.wrap(note, WRAP)]
    if seen is not None:
        lines.append("Grey hexes are out of sight.")
    keys = _keys(shown)
    height = round(TITLE_HEIGHT + BOARD_HEIGHT + MARGIN + LINE_HEIGHT * (len(lines) + len(keys)) + MARGIN)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{CANVAS_WIDTH}" height="{height}" '
        f'viewBox="0 0 {CANVAS_WIDTH} {height}" font-family="DejaVu Sans">',
        f'<rect width="{CANVAS_WIDTH}" height="{height}" fill="#ffffff"/>',
        _text(CANVAS_WIDTH / 2, 30, title, size=20, bold=True, klass="title"),
    ]
    parts += [_hex(position, h, visible=seen is None or h in seen) for h in HEXES]
    parts += draw_round(shown, centre, INK, SIZE)
    top = TITLE_HEIGHT + BOARD_HEIGHT + MARGIN + 12
    parts += [part for i, key in enumerate(keys) for part in key(MARGIN, top + i * LINE_HEIGHT)]
    top += len(keys) * LINE_HEIGHT
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
        _text(x, y - SIZE * 0.38, hex_name, size=11, ink=TEXT if visible else FOG_INK, klass="name"),
    ]
    army = position.armies.get(hex_name)
    if visible and army:
        parts.append(_text(x, y + 11, str(army[1]), size=17, bold=True, ink=INK[army[0]], klass="count"))
    parts.append("</g>")
    return "".join(parts)


Key = Callable[[float, float], list[str]]


def _keys(shown: Round) -> list[Key]:
    """One line of key per kind of mark the map carries, each a sample and its meaning."""
    keys: list[Key] = []
    if shown.moves:
        keys.append(lambda x, y: [_sample_arrow(x, y), _key_text(x, y, "a move; the badge: regiments sent")])
    if shown.boosts:
        keys.append(lambda x, y: [_sample_boost(x, y), _key_text(x, y, "the boosted hex")])
    if shown.battles:
        words = "a battle in a hex, on a border: its winner's colour"
        keys.append(lambda x, y: [_sample_battle(x, y), _key_text(x + 16, y, words)])
    return keys


def _key_text(x: float, y: float, words: str) -> str:
    return _text(x + 34, y, words, size=13, anchor="start", klass="key")


def _sample_arrow(x: float, y: float) -> str:
    return (
        f'<line x1="{x:.1f}" y1="{y - 4:.1f}" x2="{x + 20:.1f}" y2="{y - 4:.1f}" stroke="{TEXT}" '
        f'stroke-width="3"/><polygon points="{x + 28:.1f},{y - 4:.1f} {x + 19:.1f},{y - 9:.1f} '
        f'{x + 19:.1f},{y + 1:.1f}" fill="{TEXT}"/>'
    )


def _sample_boost(x: float, y: float) -> str:
    return f'<circle cx="{x + 12:.1f}" cy="{y - 4:.1f}" r="8" fill="none" stroke="{BOOST}" stroke-width="4"/>'


def _sample_battle(x: float, y: float) -> str:
    points = " ".join(
        f"{x + 12 + (9 if i % 2 == 0 else 4.5) * math.cos(math.pi / 8 * i):.1f},"
        f"{y - 4 + (9 if i % 2 == 0 else 4.5) * math.sin(math.pi / 8 * i):.1f}"
        for i in range(16)
    )
    edge = f'x1="{x + 34:.1f}" y1="{y - 12:.1f}" x2="{x + 34:.1f}" y2="{y + 4:.1f}"'
    return f'<polygon points="{points}" fill="{TEXT}"/><line {edge} stroke="{TEXT}" stroke-width="6"/>'


def _corners(x: float, y: float) -> str:
    angles = (math.radians(30 + 60 * k) for k in range(6))  # pointy top: corners at ±30° from the sides
    return " ".join(f"{x + SIZE * math.cos(a):.1f},{y + SIZE * math.sin(a):.1f}" for a in angles)


def _text(x: float, y: float, content: str, *, size: int, klass: str, **style: Any) -> str:
    return svg_text(x, y, content, size=size, klass=klass, **{"ink": TEXT, **style})
