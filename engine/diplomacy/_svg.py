"""The standard Diplomacy map as SVG text: a schematic (one disc per province at its place in
``maps/standard_layout``, the borders as thin lines), supply centres ringed and filled in their
owner's colour, units as army (square) or fleet (triangle) glyphs, dislodged units small and
crossed beside their province, and the orders of the phase just resolved as arrows (solid: moved;
dashed: failed; thin dashed: support; dotted: convoy). Everything drawn is public in Diplomacy:
the board and, once a phase is resolved, every order. Pure text; the shell renders the PNG."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from xml.sax.saxutils import quoteattr

from engine.diplomacy._position import Position
from engine.diplomacy._variant import STANDARD
from engine.diplomacy.maps.standard_layout import CENTRES, COASTS, HEIGHT, WIDTH
from engine.svg import svg_text

COLOURS = {
    "Austria": "#c62828",
    "England": "#1a3f9e",
    "France": "#3d9be0",
    "Germany": "#5d4037",
    "Italy": "#2e8b3a",
    "Russia": "#7b3fa0",
    "Turkey": "#d4a600",
}
SEA, LAND, BORDER, INK, FAILED = "#dbe9f6", "#f3ead7", "#c9c2b2", "#202124", "#8a8a8a"
RADIUS = 17.0
LEGEND = 70
TOP = 40  # the title's band

# (power, order line, result) as the phase's OrderResolved events give them
OrderRow = tuple[str, str, str]


def draw_map(position: Position, orders: Sequence[OrderRow], *, title: str) -> str:
    """The whole board after a phase, with that phase's orders."""
    height = TOP + HEIGHT + LEGEND
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans">',
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        _defs(),
        _text(WIDTH / 2, 28, title, size=20, bold=True, klass="title"),
        f'<g transform="translate(0 {TOP})">',
    ]
    parts += [_border(a, b) for a, b in _borders()]
    parts += [_province(position, key) for key in sorted(CENTRES)]
    parts += [a for row in orders if (a := _order(*row))]
    parts += [_dislodged(position, i) for i in range(len(position.dislodged))]
    parts.append("</g>")
    parts += _legend(position, TOP + HEIGHT)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _defs() -> str:
    heads = "".join(
        f'<marker id="head-{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
        f'markerHeight="6" orient="auto-start-reverse">'
        f'<path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
        for name, colour in [*((p.lower(), c) for p, c in COLOURS.items()), ("failed", FAILED)]
    )
    return f"<defs>{heads}</defs>"


def _borders() -> list[tuple[str, str]]:
    edges = {tuple(sorted((a.split("/")[0], b.split("/")[0]))) for a, b in STANDARD.map.army_edges}
    edges |= {tuple(sorted((a.split("/")[0], b.split("/")[0]))) for a, b in STANDARD.map.fleet_edges}
    return sorted((a, b) for a, b in edges if a != b)


def _border(a: str, b: str) -> str:
    (x1, y1), (x2, y2) = CENTRES[a], CENTRES[b]
    return (
        f'<line class="border" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
        f'stroke="{BORDER}" stroke-width="1.2"/>'
    )


def _province(position: Position, key: str) -> str:
    province = STANDARD.map.provinces[key]
    x, y = CENTRES[key]
    owner = position.owner(key)
    fill = SEA if province.kind == "sea" else _tint(COLOURS[owner]) if owner else LAND
    parts = [
        f'<g id="{key}" class="province {province.kind}"' + (f' data-owner="{owner}">' if owner else ">")
    ]
    parts.append(
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS}" fill="{fill}" stroke="#8c8372" stroke-width="1"/>'
    )
    if province.supply_center:
        ring = COLOURS.get(province.home_of or "", "#444444")
        parts.append(
            f'<circle class="centre" cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS + 3:.1f}" fill="none" '
            f'stroke="{ring}" stroke-width="2.5"/>'
        )
    parts += [_coast_dot(loc) for loc in COASTS if loc.startswith(key + "/")]
    unit = position.unit_in(key)
    if unit is not None:
        ux, uy = COASTS.get(unit.location, (x, y))
        parts.append(_glyph(unit.type, unit.power, ux, uy, size=8.0, klass="unit"))
    parts.append(_text(x, y + RADIUS + 12, key, size=10, klass="name"))
    parts.append("</g>")
    return "".join(parts)


def _coast_dot(location: str) -> str:
    x, y = COASTS[location]
    return f'<circle class="coast" cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{SEA}" stroke="#5a87b0"/>'


def _dislodged(position: Position, index: int) -> str:
    """A dislodged unit waits beside its province, small and crossed out in red."""
    unit = position.dislodged[index].unit
    x, y = CENTRES[unit.province]
    x, y = x + 15, y - 15
    glyph = _glyph(unit.type, unit.power, x, y, size=6.0, klass="dislodged")
    cross = (
        f'<path d="M{x - 7:.1f},{y - 7:.1f} L{x + 7:.1f},{y + 7:.1f} M{x + 7:.1f},{y - 7:.1f} '
        f'L{x - 7:.1f},{y + 7:.1f}" stroke="#d00000" stroke-width="1.6"/>'
    )
    return glyph + cross


def _glyph(unit_type: str, power: str, x: float, y: float, *, size: float, klass: str) -> str:
    paint = f'fill="{COLOURS.get(power, "#999999")}" stroke="#111111" stroke-width="1.2"'
    data = f'class="{"fleet" if unit_type == "F" else "army"} {klass}" data-power="{power}"'
    if unit_type == "F":
        corners = [(0, -1), (0.9, 0.8), (0, 0.35), (-0.9, 0.8)]
        points = " ".join(f"{x + dx * size:.1f},{y + dy * size:.1f}" for dx, dy in corners)
        return f"<polygon {data} points={quoteattr(points)} {paint}/>"
    side = size * 1.5
    corner = f'x="{x - side / 2:.1f}" y="{y - side / 2:.1f}"'
    return f'<rect {data} {corner} width="{side:.1f}" height="{side:.1f}" {paint}/>'


# --- orders as arrows -----------------------------------------------------------------------


def _order(power: str, line: str, result: str) -> str | None:
    """One order line (canonical form: ``A par - bur``, ``A mar S A par - bur``, ``F nth C A lon -
    bel``, ``A par R bur``) as an arrow; holds, disbands, builds and waives draw none."""
    words = line.split()
    if len(words) < 4:
        return None
    origin, verb, rest = words[1], words[2], words[3:]
    attrs = f'data-power="{power}" data-order={quoteattr(line)} data-result="{result}"'
    colour = COLOURS.get(power, INK) if result == "succeeds" else FAILED
    head = power.lower() if result == "succeeds" else "failed"
    if verb in ("-", "R"):
        dash = None if result == "succeeds" else "7 4"
        return _arrow(
            _at(origin), _at(rest[0]), klass="move", colour=colour, head=head, attrs=attrs, dash=dash
        )
    if verb == "S":
        places = [w for w in rest if w not in ("A", "F", "-")]
        target = _mid(_at(places[0]), _at(places[1])) if len(places) > 1 else _at(places[0])
        return _arrow(_at(origin), target, klass="support", colour=colour, head=head, attrs=attrs, dash="4 3")
    if verb == "C" and len(rest) >= 4:
        target = _mid(_at(rest[1]), _at(rest[3]))
        return _arrow(_at(origin), target, klass="convoy", colour=colour, head=head, attrs=attrs, dash="1 3")
    return None


def _arrow(
    start: tuple[float, float],
    end: tuple[float, float],
    *,
    klass: str,
    colour: str,
    head: str,
    attrs: str,
    dash: str | None,
) -> str:
    (x1, y1), (x2, y2) = start, _short_of(start, end, 10.0)
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    width = 3.0 if klass == "move" else 2.0
    return (
        f'<line class="order {klass}" {attrs} x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
        f'stroke="{colour}" stroke-width="{width}"{dashes} marker-end="url(#head-{head})"/>'
    )


def _at(location: str) -> tuple[float, float]:
    return COASTS.get(location) or CENTRES[location.split("/")[0]]


def _mid(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


def _short_of(start: tuple[float, float], end: tuple[float, float], by: float) -> tuple[float, float]:
    """The end pulled back towards the start, so the head does not cover the unit it points at."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    keep = max(length - by, length / 2) / length
    return start[0] + dx * keep, start[1] + dy * keep


# --- the legend -----------------------------------------------------------------------------


def _legend(position: Position, top: float) -> list[str]:
    parts: list[str] = []
    column = (WIDTH - 40) / len(COLOURS)
    for i, power in enumerate(COLOURS):  # centre counts are public, as on the ledger
        x = 20 + i * column
        parts.append(
            f'<rect class="swatch" x="{x:.1f}" y="{top + 8:.1f}" width="16" height="16" '
            f'fill="{COLOURS[power]}" stroke="#111111"/>'
        )
        count = len(position.centres_of(power))
        parts.append(_text(x + 22, top + 21, f"{power} {count}", size=13, anchor="start", klass="legend"))
    notes = "■ army  ▲ fleet  ◯ supply centre (ring: home, fill: owner)  → move  ⇢ failed / support  ⋯ convoy"
    parts.append(_text(20, top + 50, notes, size=12, anchor="start", klass="legend"))
    return parts


def _tint(colour: str, amount: float = 0.55) -> str:
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)


def _text(x: float, y: float, content: str, *, size: int, klass: str, **style: Any) -> str:
    return svg_text(x, y, content, size=size, klass=klass, **{"ink": INK, **style})


def order_rows(rows: Iterable[Any]) -> tuple[OrderRow, ...]:
    """(power, order, result) rows from a phase's resolved orders."""
    return tuple((str(r["power"]), str(r["order"]), str(r["result"])) for r in rows)
