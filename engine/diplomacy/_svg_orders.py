"""The orders of a resolved phase as arrows on the Diplomacy map: a move (or retreat) solid in its
power's colour, a failed one grey and dashed, a support thin and dashed to the middle of the move it
supports (or to the unit it holds up), a convoy dotted to the middle of the convoyed move. Holds,
disbands, builds and waives draw none. Each arrow carries the order and its result as data, so a
test reads from the SVG what a player sees."""

from __future__ import annotations

from collections.abc import Callable
from xml.sax.saxutils import quoteattr

COLOURS = {
    "Austria": "#c62828",
    "England": "#1a3f9e",
    "France": "#2f8fd8",
    "Germany": "#5d4037",
    "Italy": "#2e8b3a",
    "Russia": "#7b3fa0",
    "Turkey": "#c99a00",
}
INK, FAILED = "#202124", "#6f6f6f"
UNIT_GAP = 15.0  # an arrow stops this far short of the point it aims at, clear of the unit there

Place = tuple[float, float]


def arrow_defs() -> str:
    heads = "".join(
        f'<marker id="head-{name}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" '
        f'markerHeight="4" orient="auto-start-reverse">'
        f'<path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
        for name, colour in [*((p.lower(), c) for p, c in COLOURS.items()), ("failed", FAILED)]
    )
    return f"<defs>{heads}</defs>"


def order_arrow(power: str, line: str, result: str, *, at: Callable[[str], Place]) -> str | None:
    """One order line (canonical form: ``A par - bur``, ``A mar S A par - bur``, ``F nth C A lon -
    bel``, ``A par R bur``) as an arrow between the places ``at`` gives; None for what draws none."""
    words = line.split()
    if len(words) < 4:
        return None
    origin, verb, rest = words[1], words[2], words[3:]
    attrs = f'data-power="{power}" data-order={quoteattr(line)} data-result="{result}"'
    colour = COLOURS.get(power, INK) if result == "succeeds" else FAILED
    head = power.lower() if result == "succeeds" else "failed"
    style = {"colour": colour, "head": head, "attrs": attrs}
    if verb in ("-", "R"):
        dash = None if result == "succeeds" else "9 5"
        return _arrow(at(origin), at(rest[0]), klass="move", dash=dash, **style)
    if verb == "S":
        places = [w for w in rest if w not in ("A", "F", "-")]
        target = _mid(at(places[0]), at(places[1])) if len(places) > 1 else at(places[0])
        return _arrow(at(origin), target, klass="support", dash="5 4", **style)
    if verb == "C" and len(rest) >= 4:
        target = _mid(at(rest[1]), at(rest[3]))
        return _arrow(at(origin), target, klass="convoy", dash="1.5 4", **style)
    return None


def _arrow(
    start: Place, end: Place, *, klass: str, colour: str, head: str, attrs: str, dash: str | None
) -> str:
    """A line from just outside the unit at ``start`` to just short of ``end``."""
    (x1, y1), (x2, y2) = _short_of(end, start, UNIT_GAP), _short_of(start, end, UNIT_GAP)
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    width = 5.0 if klass == "move" else 3.5
    line = f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"'
    return (
        f'<line class="order {klass}" {attrs} {line} stroke="{colour}" stroke-width="{width}"{dashes} '
        f'stroke-linecap="round" marker-end="url(#head-{head})"/>'
    )


def _mid(a: Place, b: Place) -> Place:
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


def _short_of(start: Place, end: Place, by: float) -> Place:
    """The end pulled back towards the start (by ``by``, at most half the way)."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    keep = max(length - by, length / 2) / length
    return start[0] + dx * keep, start[1] + dy * keep
