"""From a cell map (a grid of province keys, ``standard_cells.txt``) to the regions the map picture
fills: one outline per key, borders shared cell for cell, smoothed alike on both sides so that
neighbours never gap or overlap. Pure: text in, data out; ``maps._build`` writes the outlines and
the places of labels and units (``maps._places``) into ``standard_regions.py``, so that drawing a
map does no tracing."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

Grid = tuple[tuple[str, ...], ...]
Point = tuple[int, int]  # a lattice corner: (column, row), (0, 0) the map's top-left corner
XY = tuple[float, float]

OFF = "..."  # a cell outside the board (drawn as nothing)
# directions on screen (y grows downwards), and the cell whose side each edge is (for the key's loop)
RIGHT, DOWN, LEFT, UP = (1, 0), (0, 1), (-1, 0), (0, -1)


def read_cells(text: str) -> Grid:
    """The grid: one row per line, a key per cell separated by spaces; ``#`` lines are notes."""
    rows = [tuple(line.split()) for line in text.splitlines() if line.strip() and not line.startswith("#")]
    widths = {len(row) for row in rows}
    if len(widths) != 1:
        raise ValueError(f"the cell map's rows differ in length: {sorted(widths)}")
    return tuple(rows)


def keys(grid: Grid) -> set[str]:
    return {key for row in grid for key in row} - {OFF}


def touching(grid: Grid) -> set[tuple[str, str]]:
    """Pairs of keys whose cells share a side (a corner is not enough), each pair sorted."""
    pairs: set[tuple[str, str]] = set()
    for r, row in enumerate(grid):
        for c, key in enumerate(row):
            for other in (
                row[c + 1] if c + 1 < len(row) else key,
                grid[r + 1][c] if r + 1 < len(grid) else key,
            ):
                if other != key and OFF not in (key, other):
                    pairs.add((min(key, other), max(key, other)))
    return pairs


# --- outlines -------------------------------------------------------------------------------


def outlines(grid: Grid, cell: float) -> dict[str, str]:
    """Every key's outline as SVG path data (one closed subpath per loop; draw with evenodd)."""
    nodes = _nodes(grid)
    smoothed: dict[tuple[Point, ...], list[XY]] = {}
    paths: dict[str, str] = {}
    for key in sorted(keys(grid)):
        loops = [_smooth_loop(loop, nodes, smoothed) for loop in _loops(grid, key)]
        paths[key] = " ".join(_subpath(points, cell) for points in loops)
    return paths


def _at(grid: Grid, c: int, r: int) -> str:
    return grid[r][c] if 0 <= r < len(grid) and 0 <= c < len(grid[0]) else OFF


def _nodes(grid: Grid) -> set[Point]:
    """Corners where a border ends: three keys meet, two meet corner to corner, or the frame turns."""
    width, height = len(grid[0]), len(grid)
    found = {(0, 0), (width, 0), (0, height), (width, height)}
    for r in range(height + 1):
        for c in range(width + 1):
            a, b, d, e = _at(grid, c - 1, r - 1), _at(grid, c, r - 1), _at(grid, c - 1, r), _at(grid, c, r)
            if len({a, b, d, e}) >= 3 or (a == e and b == d and a != b):
                found.add((c, r))
    return found


def _loops(grid: Grid, key: str) -> list[list[Point]]:
    """The key's boundary as closed loops of corners, clockwise on screen (the key on the right)."""
    out: dict[Point, list[Point]] = {}
    for r, row in enumerate(grid):
        for c, here in enumerate(row):
            if here != key:
                continue
            sides = [
                ((c, r), (c + 1, r), (c, r - 1)),
                ((c + 1, r), (c + 1, r + 1), (c + 1, r)),
                ((c + 1, r + 1), (c, r + 1), (c, r + 1)),
                ((c, r + 1), (c, r), (c - 1, r)),
            ]
            for start, end, (nc, nr) in sides:
                if _at(grid, nc, nr) != key:
                    out.setdefault(start, []).append(end)
    loops = []
    while out:
        start = min(out)
        loop, point, heading = [start], start, RIGHT
        while True:
            point, heading = _step(out, point, heading)
            if point == start:
                break
            loop.append(point)
        loops.append(loop)
    return loops


def _step(
    out: dict[Point, list[Point]], point: Point, heading: tuple[int, int]
) -> tuple[Point, tuple[int, int]]:
    """Leave ``point`` by its unused edge; where the key touches itself corner to corner, turn right
    (keeping the two cells in separate loops)."""
    ends = out[point]
    right = (-heading[1], heading[0])
    for turn in (right, heading, (-right[0], -right[1])):
        end = (point[0] + turn[0], point[1] + turn[1])
        if end in ends:
            break
    else:
        end = ends[0]
    ends.remove(end)
    if not ends:
        del out[point]
    return end, (end[0] - point[0], end[1] - point[1])


def _smooth_loop(loop: list[Point], nodes: set[Point], done: dict[tuple[Point, ...], list[XY]]) -> list[XY]:
    """The loop cut at its nodes into borders, each smoothed once for both its sides."""
    cuts = [i for i, p in enumerate(loop) if p in nodes]
    if not cuts:
        return _cached(tuple(_rotate_min(loop)), done, closed=True)
    start = cuts[0]
    loop = loop[start:] + loop[:start]
    cuts = [i - start for i in cuts] + [len(loop)]
    loop = [*loop, loop[0]]
    points: list[XY] = []
    for a, b in itertools.pairwise(cuts):
        points += _cached(tuple(loop[a : b + 1]), done, closed=False)[:-1]
    return points


def _rotate_min(loop: list[Point]) -> list[Point]:
    i = loop.index(min(loop))
    return loop[i:] + loop[:i]


def _cached(border: tuple[Point, ...], done: dict[tuple[Point, ...], list[XY]], *, closed: bool) -> list[XY]:
    # the same border seen from the other side runs the other way (a ring from its least corner)
    other = tuple(_rotate_min(list(reversed(border)))) if closed else tuple(reversed(border))
    if other in done:
        return list(reversed(done[other]))
    if border not in done:
        done[border] = _smooth(list(border), closed=closed)
    return done[border]


def _smooth(border: list[Point], *, closed: bool) -> list[XY]:
    """Corners of the cells become the midpoints of their sides (a staircase becomes a slope), then
    two rounds of corner cutting, then points that change nothing visible are dropped."""
    ring = [*border, border[0]] if closed else border
    mids = [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in itertools.pairwise(ring)]
    points: list[XY] = mids if closed else [_xy(border[0]), *mids, _xy(border[-1])]
    for _ in range(2):
        points = _cut_corners(points, closed=closed)
    return _simplify(points, 0.04, closed=closed)


def _xy(p: Point) -> XY:
    return float(p[0]), float(p[1])


def _cut_corners(points: list[XY], *, closed: bool) -> list[XY]:
    pairs = zip(points, points[1:] + points[:1] if closed else points[1:], strict=False)
    cut = [pt for a, b in pairs for pt in (_lerp(a, b, 0.25), _lerp(a, b, 0.75))]
    return cut if closed else [points[0], *cut[1:-1], points[-1]]


def _lerp(a: XY, b: XY, t: float) -> XY:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def _simplify(points: list[XY], tolerance: float, *, closed: bool) -> list[XY]:
    """Douglas-Peucker with the ends kept (a ring keeps its first point and the one farthest away)."""
    if closed:
        far = max(range(len(points)), key=lambda i: _dist2(points[0], points[i]))
        first = _simplify([*points[: far + 1]], tolerance, closed=False)
        second = _simplify([*points[far:], points[0]], tolerance, closed=False)
        return first[:-1] + second[:-1]
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        a, b = stack.pop()
        best, at = 0.0, -1
        for i in range(a + 1, b):
            d = _off_line(points[i], points[a], points[b])
            if d > best:
                best, at = d, i
        if at >= 0 and best > tolerance:
            keep[at] = True
            stack += [(a, at), (at, b)]
    return [p for p, k in zip(points, keep, strict=True) if k]


def _dist2(a: XY, b: XY) -> float:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def _off_line(p: XY, a: XY, b: XY) -> float:
    length2 = _dist2(a, b)
    if length2 == 0:
        return math.sqrt(_dist2(p, a))
    cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    return abs(cross) / math.sqrt(length2)


def _subpath(points: Sequence[XY], cell: float) -> str:
    coords = " ".join(_number(x * cell) + "," + _number(y * cell) for x, y in points)
    return f"M{coords}Z"


def _number(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


# --- where labels and units go --------------------------------------------------------------


def cells_of(grid: Grid, key: str) -> list[Point]:
    return [(c, r) for r, row in enumerate(grid) for c, here in enumerate(row) if here == key]


def room(grid: Grid, key: str, *, wide: float = 1.0) -> dict[Point, float]:
    """How far each of the key's cells is from the nearest cell not the key's (a label is wider
    than high: ``wide`` > 1 counts horizontal distance for less)."""
    inside = cells_of(grid, key)
    own = set(inside)
    edge = {
        (c + dc, r + dr)
        for c, r in inside
        for dc in (-1, 0, 1)
        for dr in (-1, 0, 1)
        if (c + dc, r + dr) not in own
    }
    return {(c, r): min(max(abs(c - x) / wide, abs(r - y)) for x, y in edge) for c, r in inside}
