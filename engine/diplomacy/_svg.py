"""The standard Diplomacy map as SVG text, drawn as a board: every province a filled region (traced
from our own cell map, ``maps/standard_cells.txt``, into ``maps/standard_regions.py``), seas blue,
supply centres filled in their owner's colour and other land tinted for the unit standing on it,
Switzerland impassable; units as lettered discs (A army, F fleet) at a point of their own apart
from the province's name, fleets on split coasts at that coast; dislodged units beside their
province, ringed in red; and the orders of the phase just resolved as arrows (solid: moved;
dashed: failed; thin dashed: support; dotted: convoy). Everything drawn is public in Diplomacy: the
board and, once a phase is resolved, every order. Pure text; the shell renders the PNG."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.diplomacy._orders import Unit
from engine.diplomacy._position import Position
from engine.diplomacy._svg_orders import COLOURS, INK, arrow_defs, order_arrow
from engine.diplomacy._variant import STANDARD
from engine.diplomacy.maps._places import LETTERS
from engine.diplomacy.maps.standard_layout import HEIGHT, IMPASSABLE, OFF_BOARD, WIDTH
from engine.diplomacy.maps.standard_regions import DISLODGED, LABELS, PATHS, UNITS
from engine.svg import svg_text

__all__ = ["COLOURS", "OrderRow", "draw_map", "order_rows"]

SEA, LAND, ROCK, OFF = "#b9d5ee", "#f1e8d2", "#a39e94", "#dedad2"
BORDER, COAST_INK = "#5c554b", "#1d4a78"
HALO = 'stroke="#ffffff" stroke-width="3" paint-order="stroke" '

TOP = 44  # the title's band
LEGEND = 96
UNIT_RADIUS = 11.5
SHOWN = 0.8  # the PNG is drawn 800 px wide: sharp on a phone (400 px at 2x), under 150 KB

# (power, order line, result) as the phase's OrderResolved events give them
OrderRow = tuple[str, str, str]


def draw_map(position: Position, orders: Sequence[OrderRow], *, title: str) -> str:
    """The whole board after a phase, with that phase's orders."""
    height = TOP + HEIGHT + LEGEND
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH * SHOWN:.0f}" height="{height * SHOWN:.0f}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans">',
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        arrow_defs(),
        _text(WIDTH / 2, 31, title, size=26, bold=True, klass="title"),
        f'<g transform="translate(0 {TOP})">',
        '<g class="regions" shape-rendering="crispEdges">',  # crisp: a third smaller PNG
        *(_region(position, key) for key in sorted(PATHS)),
        "</g>",
        '<g class="arrows">',
        *(a for row in orders if (a := order_arrow(*row, at=_at))),
        "</g>",
        '<g class="labels">',  # over the arrows: a name is never hidden
        *(_label(position, key) for key in sorted(LABELS)),
        "</g>",
        '<g class="units">',
        *(_unit(unit) for unit in sorted(position.units)),
        *(_dislodged(d.unit) for d in position.dislodged),
        "</g>",
        "</g>",
        *_legend(position, TOP + HEIGHT),
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


# --- the regions ----------------------------------------------------------------------------


def _region(position: Position, key: str) -> str:
    """A province's filled outline; its id is the province key, its class its kind."""
    if key == OFF_BOARD:
        return f'<path class="offboard" d="{PATHS[key]}" fill="{OFF}" fill-rule="evenodd" stroke="{BORDER}"/>'
    if key in IMPASSABLE:
        return (
            f'<path id="{key}" class="province impassable" d="{PATHS[key]}" fill="{ROCK}" '
            f'fill-rule="evenodd" stroke="{BORDER}" stroke-width="1.2"/>'
        )
    province = STANDARD.map.provinces[key]
    owner = position.owner(key) if province.supply_center else None
    klass = f"province {province.kind}" + (" centre" if province.supply_center else "")
    data = f' data-owner="{owner}"' if owner else ""
    return (
        f'<path id="{key}" class="{klass}"{data} d="{PATHS[key]}" fill="{_fill(position, key)}" '
        f'fill-rule="evenodd" stroke="{BORDER}" stroke-width="1.2"/>'
    )


def _fill(position: Position, key: str) -> str:
    """Seas blue; a supply centre in its owner's colour; other land lightly in the colour of the
    unit standing on it (the game has no owner for it), else plain."""
    province = STANDARD.map.provinces[key]
    if province.kind == "sea":
        return SEA
    if province.supply_center:
        owner = position.owner(key)
        return _tint(COLOURS[owner], 0.45) if owner in COLOURS else LAND
    unit = position.unit_in(key)
    return _tint(COLOURS[unit.power], 0.78) if unit and unit.power in COLOURS else LAND


def _label(position: Position, key: str) -> str:
    """The province's key at its widest point; a supply centre has a dot before it (filled in the
    owner's colour, white while nobody owns it); a split coast's free coasts are named."""
    x, y = LABELS[key]
    if key in IMPASSABLE:
        return _text(x, y + 6, key, size=17, klass="name impassable", ink="#ffffff")
    province = STANDARD.map.provinces[key]
    parts = [
        _text(
            x,
            y + 7,
            key,
            size=20,
            bold=True,
            klass="name",
            ink=COAST_INK if province.kind == "sea" else INK,
            halo=True,
        )
    ]
    if province.supply_center:
        owner = position.owner(key)
        fill = COLOURS.get(owner or "", "#ffffff")
        dot = x - _half_width(key) - 7
        parts.append(
            f'<circle class="centre-dot" data-owner="{owner or ""}" cx="{dot:.1f}" cy="{y:.1f}" r="5" '
            f'fill="{fill}" stroke="#111111" stroke-width="1.5"/>'
        )
    for coast in province.coasts:
        location = f"{key}/{coast}"
        unit = position.unit_in(key)
        if unit is None or unit.location != location:
            cx, cy = UNITS[location]
            parts.append(
                _text(cx, cy + 5, coast, size=15, klass="coast", ink=COAST_INK, italic=True, halo=True)
            )
    return "".join(parts)


# --- units ----------------------------------------------------------------------------------


def _unit(unit: Unit) -> str:
    x, y = UNITS.get(unit.location) or UNITS[unit.province]
    return _glyph(unit, x, y, radius=UNIT_RADIUS, klass="unit", ring="#111111")


def _dislodged(unit: Unit) -> str:
    """A dislodged unit waits in its province, smaller, ringed in red, at a place of its own (the
    unit that took its place stands at the unit's place)."""
    x, y = DISLODGED[unit.province]
    return _glyph(unit, x, y, radius=10.0, klass="dislodged", ring="#d00000")


def _glyph(unit: Unit, x: float, y: float, *, radius: float, klass: str, ring: str) -> str:
    kind = "fleet" if unit.type == "F" else "army"
    colour = COLOURS.get(unit.power, "#999999")
    width = 3 if klass == "dislodged" else 1.6
    return (
        f'<g class="{kind} {klass}" data-power="{unit.power}" data-province="{unit.province}">'
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" fill="{colour}" stroke="{ring}" '
        f'stroke-width="{width}"/>'
        + _text(
            x,
            y + radius * 0.45,
            unit.type,
            size=round(radius * 1.25),
            bold=True,
            klass="glyph",
            ink="#ffffff",
        )
        + "</g>"
    )


def _at(location: str) -> tuple[float, float]:
    return UNITS.get(location) or UNITS[location.split("/")[0]]


# --- the legend -----------------------------------------------------------------------------


def _legend(position: Position, top: float) -> list[str]:
    """Who owns how many centres (public, as on the ledger), four powers a row, then the key."""
    parts: list[str] = []
    column = (WIDTH - 40) / 4
    for i, power in enumerate(COLOURS):
        x, y = 20 + (i % 4) * column, top + 10 + (i // 4) * 30
        parts.append(
            f'<rect class="swatch" x="{x:.1f}" y="{y:.1f}" width="20" height="20" '
            f'fill="{COLOURS[power]}" stroke="#111111"/>'
        )
        count = len(position.centres_of(power))
        parts.append(_text(x + 28, y + 17, f"{power} {count}", size=21, anchor="start", klass="legend"))
    notes = (
        "A army  F fleet  ● centre  → moved  ⇢ failed  ╌ support  ⋯ convoy  red ring: dislodged  "
        "nc sc ec: coasts"
    )
    parts.append(_text(20, top + 86, notes, size=19, anchor="start", klass="legend"))
    return parts


def _half_width(key: str) -> float:
    """Half the drawn width of a name, in pixels (as ``maps._places`` reckons it)."""
    return sum(LETTERS.get(c, 0.7) for c in key) * 10.0


def _tint(colour: str, amount: float) -> str:
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)


def _text(
    x: float,
    y: float,
    content: str,
    *,
    size: int,
    klass: str,
    italic: bool = False,
    halo: bool = False,
    **style: Any,
) -> str:
    """Text; a name on the board gets a pale halo so that it reads over borders and colours."""
    text = svg_text(x, y, content, size=size, klass=klass, **{"ink": INK, **style})
    extra = ('font-style="italic" ' if italic else "") + (HALO if halo else "")
    return text.replace("<text ", f"<text {extra}", 1) if extra else text


def order_rows(rows: Iterable[Any]) -> tuple[OrderRow, ...]:
    """(power, order, result) rows from a phase's resolved orders."""
    return tuple((str(r["power"]), str(r["order"]), str(r["result"])) for r in rows)
