"""The key under a Star Trek picture: entries flow left to right and wrap to a new row, each in a box
of its own (``legend-box``, invisible) measured from its words, so no two ever print over each other;
an entry too long for one row wraps its words. Pure text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

SIZE = 14
ADVANCE = 0.6  # DejaVu Sans' average advance, in ems (generous: capitals and digits are wider)
SAMPLE = 30.0  # the sample's width, before the words
GAP, ROW = 14.0, 24.0
INK = "#202124"


@dataclass(frozen=True)
class Entry:
    kind: str  # swatch, ship, troop, centre, lane, arrow, move, retreat, dislodged, fog
    words: str
    colour: str
    symbol: str = ""  # the arrow entry's text sample


def draw_legend(
    entries: Sequence[Entry], *, left: float, top: float, width: float
) -> tuple[list[str], float]:
    """The entries' SVG and the y where the key ends."""
    parts: list[str] = []
    x, y = left, top
    for entry in entries:
        lines = _lines(entry, width)
        box_width = _sample_width(entry) + max(_width(line) for line in lines)
        if x > left and x + box_width > left + width:
            x, y = left, y + ROW
        height = ROW * len(lines) - 6
        parts.append(
            f'<rect class="legend-box" x="{x:.1f}" y="{y:.1f}" width="{box_width:.1f}" height="{height:.1f}" '
            'fill="none" stroke="none"/>'
        )
        parts.append(_sample(entry, x, y + 9))
        for i, line in enumerate(lines):
            parts.append(
                f'<text class="legend" x="{x + _sample_width(entry):.1f}" y="{y + 14 + i * ROW:.1f}" '
                f'font-size="{SIZE}" fill="{INK}" text-anchor="start">{escape(line)}</text>'
            )
        x += box_width + GAP
        y += ROW * (len(lines) - 1)
        if len(lines) > 1:
            x = left + width  # the next entry starts a row of its own
    return parts, y + ROW


def _width(words: str) -> float:
    return len(words) * SIZE * ADVANCE


def _sample_width(entry: Entry) -> float:
    return SAMPLE + (_width(entry.symbol) if entry.symbol else 0.0)


def _lines(entry: Entry, width: float) -> list[str]:
    room = width - _sample_width(entry)
    lines: list[str] = []
    for word in entry.words.split():
        if lines and _width(f"{lines[-1]} {word}") <= room:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def _sample(entry: Entry, x: float, y: float) -> str:
    """The small drawing before the words, centred on height ``y``."""
    paint = f'fill="{entry.colour}" stroke="#111111" stroke-width="1.2"'
    match entry.kind:
        case "swatch" | "fog":
            return f'<rect x="{x:.1f}" y="{y - 8:.1f}" width="18" height="16" {paint}/>'
        case "ship":
            corners = ((9, -9), (17, 7), (9, 3), (1, 7))
            points = " ".join(f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in corners)
            return f'<polygon points="{points}" {paint}/>'
        case "troop":
            return f'<rect x="{x + 3:.1f}" y="{y - 6:.1f}" width="12" height="12" {paint}/>'
        case "centre":
            return (
                f'<circle cx="{x + 10:.1f}" cy="{y:.1f}" r="9" fill="{entry.colour}" stroke="#444444" '
                'stroke-width="2.5"/>'
            )
        case "lane":
            ends = f'x1="{x:.1f}" y1="{y:.1f}" x2="{x + 24:.1f}" y2="{y:.1f}"'
            return f'<line {ends} stroke="{entry.colour}" stroke-width="2"/>'
        case "arrow":
            return (
                f'<text x="{x:.1f}" y="{y + 5:.1f}" font-size="{SIZE}" font-weight="bold" '
                f'fill="{entry.colour}" text-anchor="start">{escape(entry.symbol)}</text>'
            )
        case "move" | "retreat":
            dash = ' stroke-dasharray="2 5" stroke-linecap="round"' if entry.kind == "retreat" else ""
            return (
                f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{x + 17:.1f}" y2="{y:.1f}" stroke="{entry.colour}" '
                f'stroke-width="3"{dash}/><polygon points="{x + 25:.1f},{y:.1f} {x + 15:.1f},{y - 5:.1f} '
                f'{x + 15:.1f},{y + 5:.1f}" fill="{entry.colour}"/>'
            )
        case _:  # dislodged: a red cross
            return (
                f'<path d="M{x + 3:.1f},{y - 7:.1f} L{x + 17:.1f},{y + 7:.1f} M{x + 17:.1f},{y - 7:.1f} '
                f'L{x + 3:.1f},{y + 7:.1f}" stroke="{entry.colour}" stroke-width="2.5"/>'
            )
