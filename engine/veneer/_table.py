"""The Veneer table as SVG text: the seats round a table in seating order, each a card with the
player's name, faction, coins and troops (and "eliminated" or "won"); alliances as green lines
between the seats, the active player's card ringed, and the laws in force in the middle. Only what
the Ledger shows everybody: never targets, dealt factions or hands. Shaped for a phone (600 wide,
text 14 px and up). Pure text; the shell renders the PNG."""

from __future__ import annotations

import math
import textwrap
from xml.sax.saxutils import quoteattr

from engine.svg import svg_text
from engine.veneer._state import VeneerState

WIDTH = 600
CARD_W, CARD_H = 170.0, 92.0
TOP = 56.0  # the title's band
INK, MUTED, TABLE, ALLY, ACTIVE = "#202124", "#6b6b6b", "#efe8d8", "#188038", "#d93025"


def draw_table(state: VeneerState, *, title: str) -> str:
    seats = state.seats
    radius_x, radius_y = WIDTH / 2 - CARD_W / 2 - 12, 190.0 + 14 * max(0, len(seats) - 4)
    cx, cy = WIDTH / 2, TOP + radius_y + CARD_H / 2 + 8
    places = {s.name: _place(i, len(seats), cx, cy, radius_x, radius_y) for i, s in enumerate(seats)}
    height = round(cy + radius_y + CARD_H / 2 + 40)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans">',
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        svg_text(WIDTH / 2, 34, title, size=20, bold=True, ink=INK, klass="title"),
        f'<ellipse cx="{cx:.1f}" cy="{cy:.1f}" rx="{radius_x - 40:.1f}" ry="{radius_y - 40:.1f}" '
        f'fill="{TABLE}" stroke="#c9bd9f" stroke-width="2"/>',
    ]
    parts += [_alliance(a, b, places) for a, b in state.alliances]
    parts += _laws(state, cx, cy)  # over the alliances' lines, on a card of its own
    parts += [_card(state, s.name, *places[s.name]) for s in seats]
    parts.append(
        svg_text(
            WIDTH / 2,
            height - 14,
            "green line: allies · red ring: whose turn",
            size=13,
            ink=MUTED,
            klass="key",
        )
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _place(i: int, count: int, cx: float, cy: float, rx: float, ry: float) -> tuple[float, float]:
    """Seats clockwise from the top."""
    angle = -math.pi / 2 + 2 * math.pi * i / count
    return cx + rx * math.cos(angle), cy + ry * math.sin(angle)


def _laws(state: VeneerState, cx: float, cy: float) -> list[str]:
    laws = list(state.laws) or ["none"]
    lines = [wrapped for law in laws for wrapped in textwrap.wrap(law, 22)]
    top = cy - 10 * len(lines)
    width, height = 200.0, 36.0 + 20 * len(lines)
    parts = [
        f'<rect class="laws" x="{cx - width / 2:.1f}" y="{top - 24:.1f}" width="{width}" height="{height}" '
        f'rx="8" fill="#fbf8ef" stroke="#c9bd9f"/>',
        svg_text(
            cx,
            top,
            "Law in force" if len(laws) < 2 else "Laws in force",
            size=14,
            bold=True,
            ink=INK,
            klass="laws-title",
        ),
    ]
    parts += [
        svg_text(cx, top + 22 + 20 * i, line, size=15, ink=INK, klass="law") for i, line in enumerate(lines)
    ]
    return parts


def _alliance(a: str, b: str, places: dict[str, tuple[float, float]]) -> str:
    (x1, y1), (x2, y2) = places[a], places[b]
    return (
        f'<line class="alliance" data-between={quoteattr(f"{a} | {b}")} x1="{x1:.1f}" y1="{y1:.1f}" '
        f'x2="{x2:.1f}" y2="{y2:.1f}" stroke="{ALLY}" stroke-width="6" stroke-linecap="round" opacity="0.8"/>'
    )


def _card(state: VeneerState, name: str, x: float, y: float) -> str:
    seat = state.seat(name)
    left, top = x - CARD_W / 2, y - CARD_H / 2
    active = name == state.active and not state.finished
    edge = f'stroke="{ACTIVE}" stroke-width="4"' if active else 'stroke="#8a8a8a" stroke-width="1.5"'
    fill = "#ffffff" if seat.alive else "#e4e4e4"
    status = "won" if name in state.winners else ("" if seat.alive else "eliminated")
    faction = seat.faction or "no faction yet"
    troops = f"{seat.attackers} att · {seat.defenders} def"
    parts = [
        f'<g class="seat" data-player={quoteattr(name)} data-coins="{seat.coins}">',
        f'<rect x="{left:.1f}" y="{top:.1f}" width="{CARD_W}" height="{CARD_H}" rx="10" fill="{fill}" '
        f"{edge}/>",
        svg_text(x, top + 22, name, size=_fit(name, 16), bold=True, ink=INK, klass="name"),
        svg_text(x, top + 42, faction, size=_fit(faction, 14), ink=MUTED, klass="faction"),
        svg_text(x, top + 64, f"{seat.coins} coins", size=16, bold=True, ink=INK, klass="coins"),
        svg_text(
            x,
            top + 83,
            status or troops,
            size=13,
            ink=ACTIVE if status == "eliminated" else INK,
            klass="troops",
        ),
        "</g>",
    ]
    return "".join(parts)


def _fit(words: str, size: int) -> int:
    """The font size, at most ``size``, at which ``words`` fit the card whole (never cut)."""
    room = CARD_W - 12
    return max(8, min(size, int(room / (0.62 * max(len(words), 1)))))
