"""A small standings chart as SVG text: one line per player, coins after each round (Truce's Supply,
Veneer's coins). Pure text; the shell renders the PNG as for the maps. Only public numbers (the
Ledger's) are ever given to it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from xml.sax.saxutils import quoteattr

from engine.svg import svg_text

WIDTH, PLOT_HEIGHT = 600, 300  # a phone's shape: text 13-16 px reads at 400 px
LEFT, RIGHT, TOP, BOTTOM = 44.0, 24.0, 62.0, 44.0  # margins: axis labels, title; the key goes below
PALETTE = ("#1a73e8", "#d93025", "#188038", "#f29900", "#9334e6", "#00838f", "#e8710a", "#5f6368")
MARKERS = ("circle", "square", "triangle", "diamond")  # one shape per line: tied points still differ
DODGE = 4.0  # pixels between equal lines, drawn side by side rather than on top of each other
KEY_ROW = 24.0
INK, GRID = "#202124", "#e0e0e0"


def standings_chart(
    title: str, series: Mapping[str, Sequence[int]], *, x_label: str, ticks: Sequence[str] = ()
) -> str:
    """``series`` maps each player to their coins at 0, 1, 2… (the start, then after each round);
    ``ticks`` names those points on the axis instead (Veneer: the turns, then "now"). Each line has
    its own colour and point marker and sits a few pixels from its neighbours, so players level
    with each other both show; the key under the chart says who is tied at the end."""
    rounds = max((len(v) for v in series.values()), default=1)
    top_value = max((max(v) for v in series.values() if v), default=1) or 1
    plot_w = WIDTH - LEFT - RIGHT
    key_rows = -(-len(series) // 3)
    height = round(TOP + PLOT_HEIGHT + BOTTOM + key_rows * KEY_ROW + 12)

    def at(i: int, value: int) -> tuple[float, float]:
        x = LEFT + (plot_w * i / (rounds - 1) if rounds > 1 else plot_w / 2)
        return x, TOP + PLOT_HEIGHT * (1 - value / top_value)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans">',
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        svg_text(WIDTH / 2, 28, title, size=18, bold=True, ink=INK, klass="title"),
    ]
    parts += _grid(top_value, rounds, at, x_label, ticks)
    finals = [values[-1] if values else 0 for values in series.values()]
    for n, (player, values) in enumerate(series.items()):
        colour, marker = PALETTE[n % len(PALETTE)], MARKERS[n % len(MARKERS)]
        dodge = (n - (len(series) - 1) / 2) * DODGE
        points = [(x, y + dodge) for x, y in (at(i, v) for i, v in enumerate(values))]
        parts.append(
            f'<polyline class="series" data-player={quoteattr(player)} '
            f'data-values="{",".join(map(str, values))}" points="{_points(points)}" fill="none" '
            f'stroke="{colour}" stroke-width="2.5"/>'
        )
        parts += [_marker(marker, x, y, colour, player) for x, y in points]
        last = finals[n]
        tied = " (tied)" if finals.count(last) > 1 else ""
        kx, ky = LEFT + (n % 3) * (plot_w / 3), TOP + PLOT_HEIGHT + BOTTOM + 8 + (n // 3) * KEY_ROW
        parts.append(
            f'<line x1="{kx:.1f}" y1="{ky:.1f}" x2="{kx + 26:.1f}" y2="{ky:.1f}" stroke="{colour}" '
            'stroke-width="3"/>'
        )
        parts.append(_marker(marker, kx + 13, ky, colour, player, klass="key-marker"))
        label = f"{player} {last}{tied}"
        size = min(14, int((plot_w / 3 - 36) / (0.6 * max(len(label), 1))))  # the whole name, smaller
        parts.append(svg_text(kx + 32, ky + 5, label, size=size, ink=INK, anchor="start", klass="legend"))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _points(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _marker(shape: str, x: float, y: float, colour: str, player: str, *, klass: str = "marker") -> str:
    paint = f'fill="{colour}" stroke="#ffffff" stroke-width="1.2"'
    who = f"class={quoteattr(klass)} data-player={quoteattr(player)} data-shape={quoteattr(shape)}"
    if shape == "circle":
        return f'<circle {who} cx="{x:.1f}" cy="{y:.1f}" r="4.5" {paint}/>'
    if shape == "square":
        return f'<rect {who} x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8" {paint}/>'
    corners = [(0, -5.5), (5, 4), (-5, 4)] if shape == "triangle" else [(0, -5.5), (5, 0), (0, 5.5), (-5, 0)]
    return f'<polygon {who} points="{_points([(x + dx, y + dy) for dx, dy in corners])}" {paint}/>'


def _grid(
    top_value: int,
    rounds: int,
    at: Callable[[int, int], tuple[float, float]],
    x_label: str,
    ticks: Sequence[str],
) -> list[str]:
    parts = []
    step = max(1, -(-top_value // 5))
    for value in range(0, top_value + 1, step):
        _, y = at(0, value)
        parts.append(
            f'<line class="grid" x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="{GRID}"/>'
        )
        parts.append(svg_text(LEFT - 8, y + 5, str(value), size=13, ink=INK, anchor="end", klass="axis"))
    every = max(1, -(-rounds // 12))
    for i in range(0, rounds, every):
        x, _ = at(i, 0)
        tick = ticks[i] if i < len(ticks) else str(i)
        parts.append(svg_text(x, TOP + PLOT_HEIGHT + 18, tick, size=13, ink=INK, klass="axis"))
    parts.append(
        svg_text(
            LEFT + (WIDTH - LEFT - RIGHT) / 2, TOP + PLOT_HEIGHT + 36, x_label, size=13, ink=INK, klass="axis"
        )
    )
    return parts
