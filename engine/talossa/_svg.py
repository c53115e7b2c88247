"""The map picture after a step, as SVG text (pure: no I/O; the shell renders the PNG).

Any map in the documented format can be drawn: each land is a box at its centre point, sized from
the closest pair of centres so boxes never overlap; borders are lines between neighbours (dashed
blue across the water: between provinces and longer than the usual step); each province is a
tile on the water, so an island such as Cézembre stands apart. Talossa has no fog: one map for all.
Over the lands the last step (``_step_marks``): conquests and attacks as arrows, lands taken framed,
battles as stars in the winner's colour. The legend under the map gives each country a line of its
own (wrapped, never cut) and a key that wraps to the width of the map.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from xml.sax.saxutils import escape

from engine.talossa._colours import FREE, country_fills, fill_colour
from engine.talossa._map import GameMap, Land
from engine.talossa._state import Board, TalossaState
from engine.talossa._step_marks import NEW, draw_marks

FONT = "DejaVu Sans, sans-serif"
WATER, LINK, SEA, INK = "#cfe3f1", "#8a7f6c", "#3a78b8", "#222222"
PROVINCE_TINTS = ("#efe6cf", "#e6e9cc", "#eddcc6", "#e1e6d3")
CHAR_WIDTH = 0.62  # DejaVu Sans averages about this many ems per character
LEGEND_ROW, LEGEND_SIZE = 20, 13
WIDTH, MARGIN, HEADER = 600, 16.0, 54.0  # a phone's width: names at 10 px or more on a 400 px screen
PANEL_COLUMNS = 4  # a map wider than this many columns of lands is shown in two halves
MAX_SCALE = 2.0
NAME_SIZE = 0.115  # a land's name, in units of the spacing: about 10 px on a phone in a half panel


def draw_map(state: TalossaState) -> str:
    """The map drawn once (``<defs>``) and shown in panels 600 wide, one above the other: the west
    half, then the east half (a map of five columns or more), so names stay readable on a phone."""
    board = Board(state)
    game_map = board.map
    unit = _spacing(game_map)
    left, top, right, bottom = _bounds(game_map, unit)
    fills = dict(zip(board.countries, country_fills([c.colour for c in state.countries]), strict=True))
    owners = {k: h.owner for k, h in board.holdings.items()}
    body = [
        '<defs><g id="talossa-map">',
        *_provinces(game_map, unit),
        *_links(game_map, unit),
        *itertools.chain.from_iterable(_land(board, land, unit, fills) for land in game_map.lands.values()),
        *draw_marks(state.marks, game_map, unit, fills, owners),
        "</g></defs>",
    ]
    y, panels = HEADER, []
    crops = _crops(game_map, unit, left, right)
    scale = min(MAX_SCALE, *((WIDTH - 2 * MARGIN) / (x1 - x0) for _, (x0, x1) in crops))  # one for all
    for name, (x0, x1) in crops:
        shown, y = _panel(name if len(crops) > 1 else "", (x0, top, x1, bottom), y, scale)
        panels += shown
    legend, rows = _legend(state, board, fills, (MARGIN, y + 8), WIDTH - 2 * MARGIN)
    height = y + 8 + rows * LEGEND_ROW + MARGIN
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:.0f}" '
            f'viewBox="0 0 {WIDTH} {height:.0f}" font-family="{FONT}">',
            f'<rect width="{WIDTH}" height="{height:.0f}" fill="#ffffff"/>',
            *body,
            *_header(state, WIDTH),
            *panels,
            *legend,
            "</svg>",
        ]
    )


def _crops(
    game_map: GameMap, unit: float, left: float, right: float
) -> list[tuple[str, tuple[float, float]]]:
    """The x ranges of the panels: the whole map when it is four columns or fewer, else the west
    and the east half, split in the gap between the middle columns (no land is cut)."""
    columns = sorted({round(land.centre[0] / (unit / 2)) * (unit / 2) for land in game_map.lands.values()})
    if len(columns) <= PANEL_COLUMNS:
        return [("", (left, right))]
    middle = len(columns) // 2
    split = (columns[middle - 1] + columns[middle]) / 2
    return [("West", (left, split)), ("East", (split, right))]


def _panel(
    name: str, box: tuple[float, float, float, float], y: float, scale: float
) -> tuple[list[str], float]:
    """One panel: its name, then the map's ``box`` (map units) at ``scale`` on the water; the y
    under it."""
    x0, top, x1, bottom = box
    if name:
        hint = "the east half is below" if name == "West" else "the west half is above"
        y += 18
        parts = [_text(MARGIN, y, f"{name} · {hint}", 13, weight="bold", fill="#555555", klass="panel")]
        y += 6
    else:
        parts = []
    width, height = (x1 - x0) * scale, (bottom - top) * scale
    view = f"{x0:.1f} {top:.1f} {x1 - x0:.1f} {bottom - top:.1f}"
    parts += [
        f'<rect x="{MARGIN}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}" fill="{WATER}" rx="6"/>',
        f'<svg class="panel-map" x="{MARGIN}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}" '
        f'viewBox="{view}"><use href="#talossa-map"/></svg>',
    ]
    return parts, y + height


def step_shown(state: TalossaState) -> int:
    """The step whose result the map shows: the one just resolved (0 before any)."""
    return state.step if state.finished else state.step - 1


# --- geometry ---------------------------------------------------------------------------------------


def _spacing(game_map: GameMap) -> float:
    """The distance between the two closest centres: every box is drawn smaller than that."""
    centres = [land.centre for land in game_map.lands.values()]
    gaps = [math.dist(a, b) for a, b in itertools.combinations(centres, 2)]
    return max(min(gaps, default=100.0), 20.0)


def _bounds(game_map: GameMap, unit: float) -> tuple[float, float, float, float]:
    xs = [land.centre[0] for land in game_map.lands.values()]
    ys = [land.centre[1] for land in game_map.lands.values()]
    half = unit / 2 + unit * 0.1
    return min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half


def _is_sea(a: Land, b: Land, unit: float) -> bool:
    return a.province != b.province and math.dist(a.centre, b.centre) > 1.25 * unit


# --- layers -----------------------------------------------------------------------------------------


def _provinces(game_map: GameMap, unit: float) -> Iterator[str]:
    """Each province as a tile (the box around its lands) with its name in the top-left corner."""
    provinces = sorted({land.province for land in game_map.lands.values()})
    for index, province in enumerate(provinces):
        centres = [land.centre for land in game_map.lands.values() if land.province == province]
        x0 = min(x for x, _ in centres) - unit / 2
        y0 = min(y for _, y in centres) - unit / 2
        x1 = max(x for x, _ in centres) + unit / 2
        y1 = max(y for _, y in centres) + unit / 2
        tint = PROVINCE_TINTS[index % len(PROVINCE_TINTS)]
        yield (
            f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" fill="{tint}" '
            'stroke="#b9ad92" stroke-width="1"/>'
        )
        size = _fit(province, x1 - x0 - 6, unit * 0.09, unit * 0.065)
        yield _text(x0 + 4, y0 + size + 2, province, size, fill="#7a6d55", style="italic")


def _links(game_map: GameMap, unit: float) -> Iterator[str]:
    for a, b in itertools.combinations(game_map.lands.values(), 2):
        if b.key not in a.neighbours:
            continue
        (x0, y0), (x1, y1) = a.centre, b.centre
        if _is_sea(a, b, unit):
            style = f'stroke="{SEA}" stroke-width="{unit * 0.025:.1f}" stroke-dasharray="7 5"'
        else:
            style = f'stroke="{LINK}" stroke-width="{unit * 0.035:.1f}"'
        yield f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" {style}/>'


def _land(board: Board, land: Land, unit: float, fills: dict[str, str]) -> Iterator[str]:
    """One land's box: given name (bold), map name, unit count, and a star (capital) or a
    square (stronghold) in the bottom-left corner."""
    holding = board.holdings[land.key]
    width, height = unit * 0.86, unit * 0.66
    x, y = land.centre[0] - width / 2, land.centre[1] - height / 2
    fill, stroke = FREE, "#9e9e9e"
    if holding.owner is not None:
        fill, stroke = fills[holding.owner], "#444444"
    yield (
        f'<rect class="land" id="land-{land.key}" x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" '
        f'height="{height:.1f}" rx="{unit * 0.08:.1f}" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="{unit * 0.015:.1f}"><title>{escape(land.name)}</title></rect>'
    )
    room, cx, baseline, ink = width - unit * 0.08, land.centre[0], y + unit * 0.13, _ink(fill)
    name_lines = 2
    if holding.given_name:
        size = _fit(holding.given_name, room, unit * 0.105, unit * 0.09)
        given = _wrap(holding.given_name, room, size, lines=2)
        for line in given:
            yield _text(cx, baseline, line, size, weight="bold", anchor="middle", fill=ink)
            baseline += unit * 0.12
        name_lines = 3 - len(given)
    size = unit * NAME_SIZE
    for line in _wrap(
        land.name, room, size, lines=name_lines if holding.owner is None else min(name_lines, 2)
    ):
        yield _text(cx, baseline, line, size, anchor="middle", fill=ink, klass="land-name")
        baseline += unit * 0.12
    bottom = y + height - unit * 0.06
    if holding.owner is not None:
        yield _text(cx, bottom, str(holding.units), unit * 0.16, weight="bold", anchor="middle", fill=ink)
    mark_x, mark_y = x + unit * 0.12, bottom - unit * 0.055
    if board.is_capital(land.key):
        yield _star(mark_x, mark_y, unit * 0.075, mark="capital")
    elif board.is_stronghold(land.key):
        yield _square(mark_x, mark_y, unit * 0.1, mark="stronghold")


def _header(state: TalossaState, width: float) -> Iterator[str]:
    shown = step_shown(state)
    if state.finished:
        winner = state.country(state.winner).name if state.winner else "nobody"
        title, note = f"Step {shown}", f"The final map: {winner} has won."
    elif shown == 0:
        title, note = "Step 1", "The starting map, before any action."
    else:
        title, note = f"Step {shown}", f"The map after step {shown}; step {state.step} is next."
    yield _text(16, 26, f"{state.game_map.title} · {title}", 20, weight="bold")
    yield _text(16, 44, note, 12, fill="#555555")
    yield _text(width - 16, 44, "no fog: every conqueror sees this map", 10, fill="#888888", anchor="end")


def _legend(
    state: TalossaState, board: Board, fills: dict[str, str], at: tuple[float, float], width: float
) -> tuple[list[str], int]:
    """A line per country (wrapped onto more when long), then the key, wrapped to ``width``; and
    the number of rows it took."""
    (x, y), parts, row = at, [], 0
    for country in state.countries:
        lands = board.lands_of(country.player)
        swatch = fills[country.player]
        parts.append(_swatch(x, y + row * LEGEND_ROW, swatch, "#444444"))
        status = (
            " — fallen"
            if country.fallen
            else f": {_count(len(lands), 'land')}, {_count(_units(board, lands), 'unit')}"
        )
        named = f", {country.colour}" if fill_colour(country.colour) == swatch else ""  # else drawn apart
        line = f"{country.name} ({country.player}{named}){status}"
        for wrapped in _wrap(line, width - 30, LEGEND_SIZE, lines=3):
            parts.append(_text(x + 30, y + row * LEGEND_ROW + 11.5, wrapped, LEGEND_SIZE, klass="legend"))
            row += 1
    keys = _keys(state)
    left = x
    row_y = y + row * LEGEND_ROW + 4
    row += 1
    for sample, words in keys:
        room = 34 + _width(words, LEGEND_SIZE) + 18
        if left > x and left + room > x + width:
            left, row_y, row = x, row_y + LEGEND_ROW, row + 1
        parts.append(sample(left, row_y))
        parts.append(_text(left + 34, row_y + 11.5, words, LEGEND_SIZE, klass="legend"))
        left += room
    return parts, row


Sample = Callable[[float, float], str]


def _keys(state: TalossaState) -> list[tuple[Sample, str]]:
    """The key's entries, each a sample drawn at (x, y) and what it means; the step's marks only
    when the map carries them."""
    keys: list[tuple[Sample, str]] = [
        (lambda x, y: _swatch(x, y, FREE, "#9e9e9e"), "free land"),
        (lambda x, y: _star(x + 11, y + 7, 7), "capital (a stronghold)"),
        (lambda x, y: _square(x + 11, y + 7, 10), "stronghold"),
        (
            lambda x, y: (
                f'<line x1="{x:.1f}" y1="{y + 7:.1f}" x2="{x + 28:.1f}" y2="{y + 7:.1f}" '
                f'stroke="{SEA}" stroke-width="2.5" stroke-dasharray="7 5"/>'
            ),
            "sea link",
        ),
    ]
    kinds = {m.kind for m in state.marks}
    if kinds:
        keys.append((_sample_arrow, "an attack (dashed: the defender held)"))
    if kinds - {"held"}:
        keys.append((_sample_frame, "taken this step"))
    if kinds & {"captured", "held"}:
        keys.append((_sample_battle, "a battle, in its winner's colour"))
    return keys


def _sample_arrow(x: float, y: float) -> str:
    return (
        f'<line x1="{x:.1f}" y1="{y + 7:.1f}" x2="{x + 20:.1f}" y2="{y + 7:.1f}" stroke="{NEW}" '
        f'stroke-width="3"/><polygon points="{x + 28:.1f},{y + 7:.1f} {x + 19:.1f},{y + 2:.1f} '
        f'{x + 19:.1f},{y + 12:.1f}" fill="{NEW}"/>'
    )


def _sample_frame(x: float, y: float) -> str:
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="26" height="14" rx="2" fill="none" stroke="{NEW}" '
        'stroke-width="2.5" stroke-dasharray="5 2"/>'
    )


def _sample_battle(x: float, y: float) -> str:
    points = " ".join(
        f"{x + 13 + (9 if i % 2 == 0 else 4) * math.cos(math.pi / 8 * i):.1f},"
        f"{y + 7 + (9 if i % 2 == 0 else 4) * math.sin(math.pi / 8 * i):.1f}"
        for i in range(16)
    )
    return f'<polygon points="{points}" fill="#ffffff" stroke="{NEW}" stroke-width="1.5"/>'


# --- shapes and text -----------------------------------------------------------------------------------


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _units(board: Board, lands: list[str]) -> int:
    return sum(board.units(k) for k in lands)


def _swatch(x: float, y: float, fill: str, stroke: str) -> str:
    return f'<rect x="{x:.1f}" y="{y:.1f}" width="22" height="14" rx="2" fill="{fill}" stroke="{stroke}"/>'


def _ink(fill: str) -> str:
    """Black text on light fills, white on dark ones (relative luminance, roughly)."""
    digits = fill.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    red, green, blue = (int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return INK if 0.2126 * red + 0.7152 * green + 0.0722 * blue > 0.45 else "#ffffff"


def _star(cx: float, cy: float, radius: float, mark: str = "key") -> str:
    points = []
    for i in range(10):
        r = radius if i % 2 == 0 else radius * 0.45
        angle = math.pi / 5 * i - math.pi / 2
        points.append(f"{cx + r * math.cos(angle):.1f},{cy + r * math.sin(angle):.1f}")
    drawn = " ".join(points)
    return f'<polygon class="{mark}" points="{drawn}" fill="#ffd400" stroke="#222222" stroke-width="1"/>'


def _square(cx: float, cy: float, side: float, mark: str = "key") -> str:
    return (
        f'<rect class="{mark}" x="{cx - side / 2:.1f}" y="{cy - side / 2:.1f}" width="{side:.1f}" '
        f'height="{side:.1f}" fill="#333333" stroke="#ffffff" stroke-width="1"/>'
    )


def _text(
    x: float,
    y: float,
    content: str,
    size: float,
    *,
    weight: str = "normal",
    anchor: str = "start",
    fill: str = INK,
    style: str = "normal",
    klass: str = "label",
) -> str:
    return (
        f'<text class="{klass}" x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" font-weight="{weight}" '
        f'font-style="{style}" text-anchor="{anchor}" fill="{fill}">{escape(content)}</text>'
    )


def _width(text: str, size: float) -> float:
    return len(text) * size * CHAR_WIDTH


def _fit(text: str, room: float, largest: float, smallest: float) -> float:
    """The largest font size (within bounds) at which ``text`` fits ``room``."""
    return max(smallest, min(largest, room / max(_width(text, 1.0), 1.0)))


def _clip(text: str, room: float, size: float) -> str:
    if _width(text, size) <= room:
        return text
    keep = max(1, int(room / (size * CHAR_WIDTH)) - 1)
    return text[:keep].rstrip() + "…"


def _wrap(text: str, room: float, size: float, *, lines: int) -> list[str]:
    """Greedy word wrap into at most ``lines`` lines; the last one is clipped if still too long."""
    out: list[str] = []
    for word in text.split():
        if out and _width(f"{out[-1]} {word}", size) <= room:
            out[-1] = f"{out[-1]} {word}"
        elif len(out) < lines:
            out.append(word)
        else:
            out[-1] = f"{out[-1]} {word}"
    return [_clip(line, room, size) for line in out]
