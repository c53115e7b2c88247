"""Country colours on the map: the names players may ask for, the fill each is drawn with, and how
far apart two fills must be to tell them apart at a glance (CIE76 ΔE in CIELAB: about 2 is the
least difference an eye notices; ``MIN_DISTANCE`` reads as two different colours).

Pure arithmetic; a new conqueror's colour is chosen here when it joins, and the picture checks
again, so a state made by hand or before colours were checked still draws every country apart.
"""

from __future__ import annotations

import colorsys
import itertools
import math
import re
from collections.abc import Iterator, Sequence

FREE = "#fbfaf6"  # the fill of a free land: no country may look like it
MIN_DISTANCE = 20.0
SOFT = {  # the colours players name, softened so black unit counts stay legible on them
    "red": "#e57373",
    "blue": "#64b5f6",
    "green": "#81c784",
    "yellow": "#fff176",
    "purple": "#ba68c8",
    "violet": "#ba68c8",
    "orange": "#ffb74d",
    "brown": "#a1887f",
    "pink": "#f48fb1",
    "teal": "#4db6ac",
    "cyan": "#4dd0e1",
    "grey": "#b0bec5",
    "gray": "#b0bec5",
    "black": "#616161",
    "white": "#f5f5f5",
    "gold": "#ffd54f",
    "navy": "#7986cb",
    "olive": "#c0ca33",
    "lime": "#d4e157",
    "magenta": "#f06292",
    "maroon": "#b5646a",
}
DEFAULTS = ("red", "blue", "green", "yellow", "purple", "orange", "brown", "pink", "teal", "grey")
_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}){1,2}$")

UNKNOWN, LIKE_FREE, LIKE_TAKEN = "unknown", "free", "taken"  # why an asked colour was not given


def fill_colour(colour: str) -> str | None:
    """The fill a colour is drawn with: a softened named colour, a #hex as given; None when the
    map does not know the name."""
    name = colour.strip().lower()
    if _HEX.match(name):
        return _six_digits(name)
    return SOFT.get(name)


def distance(a: str, b: str) -> float:
    """CIE76 ΔE between two #rrggbb fills."""
    return math.dist(_lab(a), _lab(b))


def choose_colour(asked: str, taken: Sequence[str]) -> tuple[str, str | None, int | None]:
    """A new conqueror's colour, given the colours already ``taken`` (in join order): the one asked
    when the map knows it and it stands apart from every taken colour and from free land; else the
    first that does of the defaults, the other named colours, then generated shades. Also says why
    the asked colour was not given, and which taken colour (by index) it was too like."""
    used = [f for f in (fill_colour(c) for c in taken) if f is not None]
    fill = fill_colour(asked) if asked else None
    if fill is not None and _apart(fill, used):
        return asked, None, None
    for candidate in _candidates():
        if _apart(_fill(candidate), used):
            break
    else:  # more conquerors than distinct colours: the one farthest from all
        candidate = max(_candidates(), key=lambda c: min(distance(_fill(c), f) for f in [FREE, *used]))
    if not asked:
        return candidate, None, None
    if fill is None:
        return candidate, UNKNOWN, None
    near = [i for i, c in enumerate(taken) if (f := fill_colour(c)) and distance(fill, f) < MIN_DISTANCE]
    return candidate, (LIKE_TAKEN if near else LIKE_FREE), (near[0] if near else None)


def country_fills(colours: Sequence[str]) -> list[str]:
    """The fill of each country (in join order): its own colour's, unless the map does not know it
    or it is too like an earlier country's; then the first distinct candidate."""
    fills: list[str] = []
    for colour in colours:
        fill = fill_colour(colour)
        if fill is None or not _apart(fill, fills):
            fill = next((_fill(c) for c in _candidates() if _apart(_fill(c), fills)), _fill(DEFAULTS[0]))
        fills.append(fill)
    return fills


def _apart(fill: str, used: Sequence[str]) -> bool:
    return all(distance(fill, other) >= MIN_DISTANCE for other in [FREE, *used])


def _fill(colour: str) -> str:
    fill = fill_colour(colour)
    assert fill is not None, colour
    return fill


def _candidates() -> Iterator[str]:
    """Named colours (defaults first), then light shades around the colour wheel."""
    yield from DEFAULTS
    yield from (n for n in SOFT if n not in DEFAULTS and n not in ("gray", "violet"))
    for lightness, hue in itertools.product((0.72, 0.58, 0.84, 0.45, 0.65, 0.78), range(0, 360, 10)):
        red, green, blue = colorsys.hls_to_rgb(hue / 360, lightness, 0.65)
        yield "#" + "".join(f"{round(c * 255):02x}" for c in (red, green, blue))


def _six_digits(fill: str) -> str:
    digits = fill.lstrip("#")
    return "#" + ("".join(d * 2 for d in digits) if len(digits) == 3 else digits)


def _lab(fill: str) -> tuple[float, float, float]:
    """sRGB → CIELAB (D65)."""
    digits = _six_digits(fill)[1:]
    rgb = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)
