"""A small standings chart as SVG text: one line per player, coins after each round (Truce's Supply,
Veneer's coins). Pure text; the shell renders the PNG as for the maps. Only public numbers (the
Ledger's) are ever given to it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from xml.sax.saxutils import quoteattr

from engine.svg import svg_text

WIDTH, HEIGHT = 640, 360
LEFT, RIGHT, TOP, BOTTOM = 50.0, 150.0, 46.0, 40.0  # margins: axis labels, the legend, title
PALETTE = ("#1a73e8", "#d93025", "#188038", "#f29900", "#9334e6", "#00838f", "#e8710a", "#5f6368")
INK, GRID = "#202124", "#e0e0e0"


def standings_chart(
    title: str, series: Mapping[str, Sequence[int]], *, x_label: str, ticks: Sequence[str] = ()
) -> str:
    """``series`` maps each player to their coins at 0, 1, 2… (the start, then after each round);
    ``ticks`` names those points on the axis instead (Veneer: the turns, then "now")."""
    rounds = max((len(v) for v in series.values()), default=1)
    top_value = max((max(v) for v in series.values() if v), default=1) or 1
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def at(i: int, value: int) -> tuple[float, float]:
        x = LEFT + (plot_w * i / (rounds - 1) if rounds > 1 else plot_w / 2)
        return x, TOP + plot_h * (1 - value / top_value)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        svg_text(WIDTH / 2, 26, title, size=16, bold=True, ink=INK, klass="title"),
    ]
    parts += _grid(top_value, rounds, at, x_label, ticks)
    for n, (player, values) in enumerate(series.items()):
        colour = PALETTE[n % len(PALETTE)]
        dodge = (n - (len(series) - 1) / 2) * 2.0  # equal lines drawn side by side, not on top
        points = " ".join(f"{x:.1f},{y + dodge:.1f}" for x, y in (at(i, v) for i, v in enumerate(values)))
        parts.append(
            f'<polyline class="series" data-player={quoteattr(player)} '
            f'data-values="{",".join(map(str, values))}" points="{points}" fill="none" '
            f'stroke="{colour}" stroke-width="2.5"/>'
        )
        y = TOP + 8 + 20 * n
        parts.append(
            f'<line x1="{WIDTH - RIGHT + 14}" y1="{y}" x2="{WIDTH - RIGHT + 34}" y2="{y}" '
            f'stroke="{colour}" stroke-width="3"/>'
        )
        last = values[-1] if values else 0
        label = f"{player} {last}"
        parts.append(
            svg_text(WIDTH - RIGHT + 40, y + 4, label, size=12, ink=INK, anchor="start", klass="legend")
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


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
        parts.append(svg_text(LEFT - 8, y + 4, str(value), size=11, ink=INK, anchor="end", klass="axis"))
    every = max(1, -(-rounds // 12))
    for i in range(0, rounds, every):
        x, _ = at(i, 0)
        tick = ticks[i] if i < len(ticks) else str(i)
        parts.append(svg_text(x, HEIGHT - BOTTOM + 16, tick, size=11, ink=INK, klass="axis"))
    parts.append(
        svg_text(LEFT + (WIDTH - LEFT - RIGHT) / 2, HEIGHT - 6, x_label, size=12, ink=INK, klass="axis")
    )
    return parts
