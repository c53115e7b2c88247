"""The Star Trek map as SVG text: the three layers as horizontal bands (upper hyperspace on top, the
core, lower hyperspace below), systems at their display coordinates, lanes within a layer as solid
lines; a vertical lane between layers is no line across the core: a hyperspace system carries a note
naming the core systems it joins, its arrow pointing to the core (``↓ earth``), and a core system an
arrow pointing to the band its lane goes to. Supply centres ringed, owners as fills and
units as ship (triangle) or troop (square) glyphs in faction colours. Systems out of a fogged
viewer's sight are grey, with no owner and no unit. Pure text, no I/O: the shell renders it (resvg,
DejaVu Sans)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from engine.core import Picture
from engine.diplomacy import Position
from engine.diplomacy.maps.startrek import STARTREK as DATA
from engine.startrek._factions import COLOURS, FACTIONS, MAP, visible_systems
from engine.startrek._state import StarTrekState
from engine.svg import svg_text

WIDTH = 1120
MARGIN = 60.0
SCALE_X = (WIDTH - 2 * MARGIN) / 100  # map units are 0..100 on both axes, in every layer
TITLE_HEIGHT = 56.0
# (layer, title, height of the band's 0..100 depth in pixels): the core is dense, hyperspace sparse
BANDS: tuple[tuple[int, str, float], ...] = (
    (3, "Upper hyperspace", 180.0),
    (2, "The core", 820.0),
    (1, "Lower hyperspace", 220.0),  # underspace_delta, quantum_realm, mirror_passage stand in a column
)
BAND_PAD = 40.0  # above and below each band's systems: room for its title and labels
RADIUS = {2: 12.0, 1: 10.0, 3: 10.0}
LEGEND_HEIGHT = 118.0

BACKGROUND = {3: "#eef0fb", 2: "#f7f7f2", 1: "#f3eefb"}
LANE, VERTICAL, TEXT, FOG, FOG_INK, EMPTY = "#9a9a9a", "#6a4fa8", "#202124", "#d6d6d6", "#8a8a8a", "#ffffff"


def pictures(state: StarTrekState, viewer: str | None) -> list[Picture]:
    """The organiser's map (``viewer=None``) shows everything; a player's shows their faction's
    view, fogged when the option is on (until the game ends). Nobody else gets one."""
    position = state.position
    season = "Spring" if position.phase.season == "spring" else "Fall"
    when = f"{season} {position.phase.year}"
    if viewer is None:
        title = f"{when}, all factions"
        return [Picture(f"map-{position.phase.key}", title, draw_map(position, title=title, seen=None))]
    faction = state.factions.get(viewer)
    if faction is None:
        return []
    fogged = state.options.fog and state.result is None
    seen = visible_systems(position, faction) if fogged else None
    title = f"{when}, {faction}"
    name = f"map-{position.phase.key}-{faction.lower()}"
    return [Picture(name, title, draw_map(position, title=title, seen=seen))]


def band_tops() -> dict[int, float]:
    tops, y = {}, TITLE_HEIGHT
    for layer, _, height in BANDS:
        tops[layer] = y
        y += height + 2 * BAND_PAD
    return tops


_TOPS = band_tops()
_HEIGHT = {layer: height for layer, _, height in BANDS}
_DEPTH = {  # each layer's own range of z, stretched over its band
    layer: (
        min(float(p["z"]) for p in DATA["provinces"].values() if p["layer"] == layer),
        max(float(p["z"]) for p in DATA["provinces"].values() if p["layer"] == layer),
    )
    for layer, _, _ in BANDS
}
# Labels go under their system, except where they would run into a neighbour's: frozen_passage
# sits between breen_gateway (right) and clarus (above right), so its label goes to the left.
LABEL_LEFT = frozenset({"frozen_passage"})
MAP_BOTTOM = _TOPS[1] + _HEIGHT[1] + 2 * BAND_PAD


def centre(system: str) -> tuple[float, float]:
    data = DATA["provinces"][system]
    layer = int(data["layer"])
    x = MARGIN + float(data["x"]) * SCALE_X
    low, high = _DEPTH[layer]
    y = _TOPS[layer] + BAND_PAD + (float(data["z"]) - low) * _HEIGHT[layer] / (high - low)
    return x, y


def draw_map(position: Position, *, title: str, seen: Collection[str] | None) -> str:
    """The map as one viewer sees it: ``seen`` lists the systems shown with owner and units
    (``None``: all of them)."""
    height = round(MAP_BOTTOM + LEGEND_HEIGHT)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans">',
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        _text(WIDTH / 2, 36, title, size=22, bold=True, klass="title"),
    ]
    parts += [_band(layer, name, height) for layer, name, height in BANDS]
    parts += [_lane(a, b) for a, b in DATA["lanes"]]
    parts += [_system(position, key, visible=seen is None or key in seen) for key in sorted(MAP.provinces)]
    parts += _legend(position, fogged=seen is not None)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _band(layer: int, name: str, height: float) -> str:
    top = _TOPS[layer]
    return (
        f'<rect class="band" x="8" y="{top + 4:.1f}" width="{WIDTH - 16}" '
        f'height="{height + 2 * BAND_PAD - 8:.1f}" rx="10" fill="{BACKGROUND[layer]}" stroke="#c8c8d0"/>'
        + _text(18, top + 22, name, size=15, bold=True, anchor="start", ink="#555577", klass="band-title")
    )


def _lane(a: str, b: str) -> str:
    (x1, y1), (x2, y2) = centre(a), centre(b)
    style = f'stroke="{LANE}" stroke-width="1.6"'
    return f'<line class="lane" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" {style}/>'


def _vertical_note(key: str) -> str | None:
    """``↑ hyperspace_alpha``: the systems a vertical lane joins to ``key``, the arrow pointing to
    their layer (upper hyperspace is on top)."""
    layer = MAP.provinces[key].layer
    ends = sorted(b if a == key else a for a, b in DATA["vertical_lanes"] if key in (a, b))
    if not ends:
        return None
    arrow = "↑" if MAP.provinces[ends[0]].layer > layer else "↓"
    return f"{arrow} {', '.join(ends)}"


def _system(position: Position, key: str, *, visible: bool) -> str:
    """One system as a group named after it; a fogged system carries its name and nothing else."""
    province = MAP.provinces[key]
    x, y = centre(key)
    r = RADIUS[province.layer]
    owner = position.owner(key) if visible else None
    fill = _tint(COLOURS[owner]) if owner else (EMPTY if visible else FOG)
    parts = [f'<g id="{key}" class="{"seen" if visible else "fog"}">']
    if province.supply_center:  # a ring round every centre; a home centre's ring in its home colour
        home = COLOURS.get(province.home_of or "", "#444444") if visible else FOG_INK
        parts.append(
            f'<circle class="centre" cx="{x:.1f}" cy="{y:.1f}" r="{r + 4:.1f}" fill="none" '
            f'stroke="{home}" stroke-width="2.5"/>'
        )
    edge = "#555555" if visible else FOG_INK
    parts.append(
        f'<circle class="system" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" stroke="{edge}"/>'
    )
    if visible:
        parts += _units(position, key, x, y)
    ink = TEXT if visible else FOG_INK
    if key in LABEL_LEFT:
        parts.append(_text(x - r - 6, y + 4, key, size=10, ink=ink, anchor="end", klass="name"))
    else:
        parts.append(_text(x, y + r + 15, key, size=10, ink=ink, klass="name"))
    note = _vertical_note(key)
    if note and province.layer == 2:  # the core is dense: only the arrow, hyperspace names the system
        parts.append(
            _text(x - r - 12, y + 4, note[0], size=12, ink=VERTICAL, bold=True, klass="vertical-lane")
        )
    elif note:  # hyperspace has room: under the system's name
        parts.append(_text(x, y + r + 27, note, size=9, ink=VERTICAL, klass="vertical-lane"))
    parts.append("</g>")
    return "".join(parts)


def _units(position: Position, key: str, x: float, y: float) -> list[str]:
    glyphs = []
    unit = position.unit_in(key)
    if unit is not None:
        glyphs.append(_glyph(unit.type, unit.power, x, y, size=9.0))
    for dislodged in position.dislodged:  # waiting to retreat: a smaller glyph off to the side
        if dislodged.unit.province == key:
            glyphs.append(_glyph(dislodged.unit.type, dislodged.unit.power, x + 14, y - 12, size=6.0))
    return glyphs


def _glyph(unit_type: str, faction: str, x: float, y: float, *, size: float) -> str:
    colour = COLOURS[faction]
    paint = f'fill="{colour}" stroke="#111111" stroke-width="1.2"'
    if unit_type == "F":  # a ship: an arrowhead pointing up
        corners = [(0, -1), (0.85, 0.8), (0, 0.35), (-0.85, 0.8)]
        points = " ".join(f"{x + dx * size:.1f},{y + dy * size:.1f}" for dx, dy in corners)
        return f'<polygon class="ship unit" data-faction="{faction}" points="{points}" {paint}/>'
    side = size * 1.4
    return (
        f'<rect class="troop unit" data-faction="{faction}" x="{x - side / 2:.1f}" y="{y - side / 2:.1f}" '
        f'width="{side:.1f}" height="{side:.1f}" {paint}/>'
    )


def _legend(position: Position, *, fogged: bool) -> list[str]:
    top = MAP_BOTTOM + 8
    parts = []
    column = (WIDTH - 2 * MARGIN) / len(FACTIONS)
    for i, faction in enumerate(FACTIONS):  # centre counts are public, as on the ledger
        x = MARGIN + i * column
        parts.append(
            f'<rect class="swatch" x="{x:.1f}" y="{top:.1f}" width="16" height="16" '
            f'fill="{COLOURS[faction]}" stroke="#111111"/>'
        )
        label = f"{faction} {len(position.centres_of(faction))}"
        parts.append(_text(x + 22, top + 13, label, size=13, anchor="start", klass="legend"))
    row = top + 44
    parts.append(_glyph("F", "neutral", MARGIN + 8, row, size=9.0))
    parts.append(_text(MARGIN + 22, row + 5, "ship", size=13, anchor="start", klass="legend"))
    parts.append(_glyph("A", "neutral", MARGIN + 88, row, size=9.0))
    parts.append(_text(MARGIN + 102, row + 5, "troop", size=13, anchor="start", klass="legend"))
    parts.append(
        f'<circle cx="{MARGIN + 176:.1f}" cy="{row:.1f}" r="9" fill="{EMPTY}" stroke="#444444" '
        f'stroke-width="2.5"/>'
    )
    notes = "supply centre (ring: home colour; fill: owner)"
    parts.append(_text(MARGIN + 192, row + 5, notes, size=13, anchor="start", klass="legend"))
    parts += _legend_lines(row + 30, fogged=fogged)
    return parts


def _legend_lines(y: float, *, fogged: bool) -> Sequence[str]:
    x = MARGIN
    parts = [
        f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{x + 30:.1f}" y2="{y:.1f}" stroke="{LANE}" '
        'stroke-width="1.6"/>',
        _text(x + 38, y + 5, "lane", size=13, anchor="start", klass="legend"),
        _text(x + 90, y + 5, "↓ qonos", size=13, anchor="start", ink=VERTICAL, klass="legend"),
        _text(
            x + 148,
            y + 5,
            "vertical lane down to qonos (in the core: ↑ or ↓ beside a system)",
            size=13,
            anchor="start",
            klass="legend",
        ),
    ]
    if fogged:
        parts.append(f'<circle cx="{x + 400:.1f}" cy="{y:.1f}" r="9" fill="{FOG}" stroke="{FOG_INK}"/>')
        parts.append(_text(x + 416, y + 5, "out of sight", size=13, anchor="start", klass="legend"))
    return parts


def _tint(colour: str, amount: float = 0.55) -> str:
    """A lighter shade of ``#rrggbb`` for an owned system's fill, so the unit glyph stands out."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)


def _text(x: float, y: float, content: str, *, size: int, klass: str, **style: Any) -> str:
    return svg_text(x, y, content, size=size, klass=klass, **{"ink": TEXT, **style})
