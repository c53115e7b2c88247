"""The Star Trek map as SVG text, in two pictures shaped for a phone (600 wide, names at 15 px: 10 px
on a 400 px screen): the core, and the two hyperspace layers (upper on top, lower under it).
Systems sit at Courier's own drawn positions (``_layout``: no lane passes through a system it does
not join), lanes within a layer are straight lines; a vertical lane between layers is no line: a
core system carries an arrow pointing to the layer its lane goes to, and a hyperspace system a note
naming the core systems it joins (``↓ earth``). Supply centres ringed, owners as fills, units as
ship (triangle) or troop (square) glyphs in faction colours; a unit dislodged and waiting to retreat
is drawn small and crossed beside its system, with a dashed arrow from where the attack came. The
last phase's moves and retreats are arrows in the mover's colour (dashed: failed; dotted: a
retreat), each only for the players who read its order line (``StarTrekState.routes``).
Systems out of a fogged viewer's sight are grey, with no owner and no unit. The key under each
picture flows in rows, each entry in its own box. Text is drawn for speed (``optimizeSpeed``): at
these sizes it reads as well and halves the PNG, keeping a report with both pictures under 400 KB.
Pure text, no I/O: the shell renders it (resvg, DejaVu Sans)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from xml.sax.saxutils import escape

from engine.core import Picture
from engine.diplomacy import Position
from engine.diplomacy.maps.startrek import STARTREK as DATA
from engine.startrek._factions import COLOURS, FACTIONS, MAP, visible_systems
from engine.startrek._layout import CORE, LOWER, UPPER
from engine.startrek._legend import Entry, draw_legend
from engine.startrek._routes import draw_routes, route_entries
from engine.startrek._state import Route, StarTrekState
from engine.svg import svg_text

WIDTH = 600
LABEL = 15
RADIUS = 12.0
TITLE = 48.0  # the title's band
BAND_GAP = 50.0  # between the two hyperspace bands: room for the lower band's title
UPPER_HEIGHT, LOWER_HEIGHT = 420.0, 400.0
LANE, VERTICAL, TEXT, FOG, FOG_INK, EMPTY = "#9a9a9a", "#6a4fa8", "#202124", "#d6d6d6", "#8a8a8a", "#ffffff"
DISLODGED = "#c5221f"


def pictures(state: StarTrekState, viewer: str | None) -> list[Picture]:
    """The organiser's maps (``viewer=None``) show everything; a player's show their faction's
    view, fogged when the option is on (until the game ends). Nobody else gets one."""
    position = state.position
    season = "Spring" if position.phase.season == "spring" else "Fall"
    when = f"{season} {position.phase.year}"
    if viewer is None:
        name, title = f"map-{position.phase.key}", f"{when}, all factions"
        return _pair(position, name, title, seen=None, routes=state.routes)
    faction = state.factions.get(viewer)
    if faction is None:
        return []
    fogged = state.options.fog and state.result is None
    seen = visible_systems(position, faction) if fogged else None
    routes = tuple(r for r in state.routes if r.audience is None or viewer in r.audience)
    name, title = f"map-{position.phase.key}-{faction.lower()}", f"{when}, {faction}"
    return _pair(position, name, title, seen=seen, routes=routes)


def _pair(
    position: Position, name: str, title: str, *, seen: Collection[str] | None, routes: Sequence[Route]
) -> list[Picture]:
    hyper = f"{title}: hyperspace"
    return [
        Picture(name, title, draw_core(position, title=title, seen=seen, routes=routes)),
        Picture(
            f"{name}-hyperspace", hyper, draw_hyperspace(position, title=hyper, seen=seen, routes=routes)
        ),
    ]


def centre(system: str) -> tuple[float, float]:
    """Where a system is drawn in its own picture."""
    if system in CORE:
        x, y, _ = CORE[system]
        return x, y + TITLE - 30
    if system in UPPER:
        x, y = UPPER[system]
        return x, y + TITLE + 30
    x, y = LOWER[system]
    return x, y + TITLE + 30 + UPPER_HEIGHT + BAND_GAP


def in_picture(system: str) -> str:
    """``core`` or ``hyperspace``: the picture a system is drawn in."""
    return "core" if system in CORE else "hyperspace"


# --- the two pictures ----------------------------------------------------------------------------


def draw_core(
    position: Position, *, title: str, seen: Collection[str] | None, routes: Sequence[Route] = ()
) -> str:
    systems = sorted(CORE)
    parts = _systems_and_lanes(position, systems, seen, routes) + draw_routes(routes, set(systems), centre)
    entries = _faction_entries(position) + _unit_entries() + _core_lane_entries()
    entries += _situation_entries(position, seen, systems) + route_entries(routes, set(systems))
    return _picture(title, parts, entries, top=max(y for _, y, _ in CORE.values()) + TITLE + 10)


def draw_hyperspace(
    position: Position, *, title: str, seen: Collection[str] | None, routes: Sequence[Route] = ()
) -> str:
    systems = sorted([*UPPER, *LOWER])
    upper_top, lower_top = TITLE + 8, TITLE + 8 + UPPER_HEIGHT + BAND_GAP
    parts = [
        _band(upper_top, UPPER_HEIGHT, "Upper hyperspace", "#eef0fb"),
        _band(lower_top, LOWER_HEIGHT, "Lower hyperspace", "#f3eefb"),
    ]
    parts += _systems_and_lanes(position, systems, seen, routes) + draw_routes(routes, set(systems), centre)
    entries = _unit_entries() + _hyper_lane_entries() + _situation_entries(position, seen, systems)
    entries += route_entries(routes, set(systems))
    return _picture(title, parts, entries, top=lower_top + LOWER_HEIGHT + 16)


def _picture(title: str, body: list[str], entries: Sequence[Entry], *, top: float) -> str:
    legend, bottom = draw_legend(entries, left=16.0, top=top, width=WIDTH - 32.0)
    height = round(bottom + 12)
    return (
        "\n".join(
            [
                f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
                f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans" text-rendering="optimizeSpeed">',
                f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
                svg_text(WIDTH / 2, 32, title, size=22, bold=True, ink=TEXT, klass="title"),
                *body,
                *legend,
                "</svg>",
            ]
        )
        + "\n"
    )


def _band(top: float, height: float, name: str, fill: str) -> str:
    return (
        f'<rect class="band" x="6" y="{top:.1f}" width="{WIDTH - 12}" height="{height:.1f}" rx="10" '
        f'fill="{fill}" stroke="#c8c8d0"/>'
        + svg_text(16, top + 20, name, size=15, bold=True, anchor="start", ink="#555577", klass="band-title")
    )


def _systems_and_lanes(
    position: Position, systems: Sequence[str], seen: Collection[str] | None, routes: Sequence[Route]
) -> list[str]:
    drawn = set(systems)
    parts = [_lane(a, b) for a, b in DATA["lanes"] if a in drawn and b in drawn]
    parts += [_system(position, key, visible=seen is None or key in seen) for key in systems]
    moved = {(r.origin, r.target) for r in routes}  # an attack drawn as a move needs no second arrow
    parts += _attacks(position, drawn, seen, moved)
    return parts


def _lane(a: str, b: str) -> str:
    (x1, y1), (x2, y2) = centre(a), centre(b)
    return (
        f'<line class="lane" data-lane="{a} {b}" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
        f'stroke="{LANE}" stroke-width="2"/>'
    )


# --- a system --------------------------------------------------------------------------------------


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
    owner = position.owner(key) if visible else None
    fill = _tint(COLOURS[owner]) if owner else (EMPTY if visible else FOG)
    parts = [f'<g id="{key}" class="{"seen" if visible else "fog"}">']
    if province.supply_center:  # a ring round every centre; a home centre's ring in its home colour
        home = COLOURS.get(province.home_of or "", "#444444") if visible else FOG_INK
        parts.append(
            f'<circle class="centre" cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS + 4:.1f}" fill="none" '
            f'stroke="{home}" stroke-width="2.5"/>'
        )
    edge = "#555555" if visible else FOG_INK
    parts.append(
        f'<circle class="system" cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS:.1f}" fill="{fill}" stroke="{edge}"/>'
    )
    if visible:
        parts += _units(position, key, x, y)
    ink = TEXT if visible else FOG_INK
    side = CORE[key][2] if key in CORE else "below"
    parts.append(_name(x, y, key, side, ink))
    note = _vertical_note(key)
    if note and key in CORE:  # the core is dense: only the arrow, hyperspace names the system
        parts.append(
            _halo(x - RADIUS - 9, y + 5, note[0], size=15, ink=VERTICAL, klass="vertical-lane", bold=True)
        )
    elif note:  # hyperspace has room: under the system's name
        parts.append(_halo(x, y + RADIUS + 36, note, size=13, ink=VERTICAL, klass="vertical-lane"))
    parts.append("</g>")
    return "".join(parts)


def _name(x: float, y: float, key: str, side: str, ink: str) -> str:
    ring = RADIUS + 4
    if side == "above":
        return _halo(x, y - ring - 4, key, size=LABEL, ink=ink, klass="name")
    if side == "left":
        return _halo(x - ring - 3, y + 5, key, size=LABEL, ink=ink, klass="name", anchor="end")
    if side == "right":
        return _halo(x + ring + 3, y + 5, key, size=LABEL, ink=ink, klass="name", anchor="start")
    return _halo(x, y + ring + LABEL, key, size=LABEL, ink=ink, klass="name")


def _halo(
    x: float,
    y: float,
    words: str,
    *,
    size: int,
    ink: str,
    klass: str,
    anchor: str = "middle",
    bold: bool = False,
) -> str:
    """Text with a white outline under it, so a lane passing behind never hides a letter."""
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text class="{klass}" x="{x:.1f}" y="{y:.1f}" font-size="{size}"{weight} fill="{ink}" '
        f'text-anchor="{anchor}" stroke="#ffffff" stroke-width="3" stroke-linejoin="round" '
        f'paint-order="stroke">{escape(words)}</text>'
    )


def _units(position: Position, key: str, x: float, y: float) -> list[str]:
    glyphs = []
    unit = position.unit_in(key)
    if unit is not None:
        glyphs.append(_glyph(unit.type, unit.power, x, y, size=9.0))
    for dislodged in position.dislodged:  # waiting to retreat: small, crossed, up and to the right
        if dislodged.unit.province == key:
            gx, gy = x + 15, y - 13
            glyphs.append(_glyph(dislodged.unit.type, dislodged.unit.power, gx, gy, size=6.5, dislodged=True))
            glyphs.append(
                f'<path class="dislodged-cross" d="M{gx - 7:.1f},{gy - 7:.1f} L{gx + 7:.1f},{gy + 7:.1f} '
                f'M{gx + 7:.1f},{gy - 7:.1f} L{gx - 7:.1f},{gy + 7:.1f}" stroke="{DISLODGED}" '
                'stroke-width="2.5"/>'
            )
    return glyphs


def _glyph(unit_type: str, faction: str, x: float, y: float, *, size: float, dislodged: bool = False) -> str:
    colour = COLOURS[faction]
    paint = f'fill="{colour}" stroke="#111111" stroke-width="1.2"'
    extra = " dislodged" if dislodged else ""
    if unit_type == "F":  # a ship: an arrowhead pointing up
        corners = [(0, -1), (0.85, 0.8), (0, 0.35), (-0.85, 0.8)]
        points = " ".join(f"{x + dx * size:.1f},{y + dy * size:.1f}" for dx, dy in corners)
        return f'<polygon class="ship unit{extra}" data-faction="{faction}" points="{points}" {paint}/>'
    side = size * 1.4
    return (
        f'<rect class="troop unit{extra}" data-faction="{faction}" x="{x - side / 2:.1f}" '
        f'y="{y - side / 2:.1f}" width="{side:.1f}" height="{side:.1f}" {paint}/>'
    )


def _attacks(
    position: Position, drawn: set[str], seen: Collection[str] | None, moved: set[tuple[str, str]]
) -> list[str]:
    """A dashed red arrow from where each dislodging attack came to the unit it dislodged, when the
    viewer sees the dislodged unit and both ends are in this picture."""
    arrows = []
    for d in position.dislodged:
        at, origin = d.unit.province, d.attacker_from
        if at in drawn and origin in drawn and (seen is None or at in seen) and (origin, at) not in moved:
            (x1, y1), (x2, y2) = centre(origin), centre(at)
            length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
            ux, uy = (x2 - x1) / length, (y2 - y1) / length
            ax, ay, bx, by = x1 + ux * 18, y1 + uy * 18, x2 - ux * 20, y2 - uy * 20
            head = f"{bx:.1f},{by:.1f} {bx - ux * 9 - uy * 5:.1f},{by - uy * 9 + ux * 5:.1f} "
            head += f"{bx - ux * 9 + uy * 5:.1f},{by - uy * 9 - ux * 5:.1f}"
            arrows.append(
                f'<g class="attack" data-from="{origin}" data-to="{at}"><line x1="{ax:.1f}" y1="{ay:.1f}" '
                f'x2="{bx:.1f}" y2="{by:.1f}" stroke="{DISLODGED}" stroke-width="2.5" '
                'stroke-dasharray="6 4"/>'
                f'<polygon points="{head}" fill="{DISLODGED}"/></g>'
            )
    return arrows


# --- the key ---------------------------------------------------------------------------------------


def _faction_entries(position: Position) -> list[Entry]:
    """Centre counts are public, as on the ledger."""
    return [Entry("swatch", f"{f} {len(position.centres_of(f))}", COLOURS[f]) for f in FACTIONS]


def _unit_entries() -> list[Entry]:
    return [
        Entry("ship", "ship", COLOURS["neutral"]),
        Entry("troop", "troop", COLOURS["neutral"]),
        Entry("centre", "supply centre (ring: home colour; fill: owner)", EMPTY),
    ]


def _core_lane_entries() -> list[Entry]:
    return [
        Entry("lane", "lane", LANE),
        Entry("arrow", "lane up to upper hyperspace (↓: down to lower)", VERTICAL, "↑"),
    ]


def _hyper_lane_entries() -> list[Entry]:
    return [
        Entry("lane", "lane", LANE),
        Entry("arrow", "lane down to qonos in the core (↑: up to it)", VERTICAL, "↓ qonos"),
    ]


def _situation_entries(
    position: Position, seen: Collection[str] | None, systems: Sequence[str]
) -> list[Entry]:
    entries = []
    if any(
        d.unit.province in systems and (seen is None or d.unit.province in seen) for d in position.dislodged
    ):
        entries.append(Entry("dislodged", "dislodged: must retreat (dashed: the attack)", DISLODGED))
    if seen is not None:
        entries.append(Entry("fog", "out of sight", FOG))
    return entries


def _tint(colour: str, amount: float = 0.55) -> str:
    """A lighter shade of ``#rrggbb`` for an owned system's fill, so the unit glyph stands out."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)
