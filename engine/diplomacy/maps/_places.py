"""Where things stand inside each region of the cell map: the province's name, its unit, a dislodged
unit waiting to retreat, and the fleets of each coast of a split-coast province. All are cells of
the region, chosen so that none covers another, in this province or the next: a name is a box (a
word, with a supply centre's dot before it), a unit a disc. The smallest regions choose first, as
they have the least room. Pure; ``maps._build`` writes the result into ``standard_regions.py``."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from engine.diplomacy.maps._trace import Grid, Point, cells_of, keys, room

XY = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, right, bottom in cells, around a point
Disc = tuple[XY, float]

NAME_SIZE = 2.0  # a name's font size, in cells
# widths of DejaVu Sans Bold's letters, in ems (the rest about 0.7)
LETTERS = {"m": 1.04, "w": 0.92, "i": 0.34, "l": 0.34, "j": 0.34, "t": 0.48, "r": 0.49, "f": 0.43, "s": 0.6}
DOT = 1.2  # a supply centre's dot before its name, and the gap
UNIT = 1.35  # a unit's disc, in cells (with a margin from names)
MARGIN = 0.2  # two units may stand closer: their discs touch, never overlap
WAITING = 1.15  # a dislodged unit's disc
CANDIDATES = 60  # places for a name tried, best first
ROUNDS = 4  # of placing names and units, the crowded first
ENOUGH = 2.0  # room (in cells) at which a name or a unit lies wholly inside its region


@dataclass
class Places:
    labels: dict[str, XY] = field(default_factory=dict)
    units: dict[str, XY] = field(default_factory=dict)  # by province, and by coast ("spa/nc")
    dislodged: dict[str, XY] = field(default_factory=dict)


@dataclass
class Taken:
    """What is already placed: names' boxes and units' discs (in cells, absolute)."""

    boxes: list[Box] = field(default_factory=list)
    discs: list[Disc] = field(default_factory=list)

    def box_free(self, box: Box) -> bool:
        return not any(_overlap(box, b) for b in self.boxes) and not any(_hits(d, box) for d in self.discs)

    def disc_free(self, disc: Disc) -> bool:
        (x, y), r = disc
        if any(_hits(disc, b) for b in self.boxes):
            return False
        return all((x - q[0]) ** 2 + (y - q[1]) ** 2 >= (r + rq - 2 * MARGIN) ** 2 for q, rq in self.discs)


def places(
    grid: Grid,
    *,
    coasts: dict[str, Point],
    dotted: Collection[str],
    unnamed: Collection[str],
    unitless: Collection[str],
) -> Places:
    """Every named key's places (cell centres, in cells); ``coasts`` maps ``spa/nc`` to a cell by
    that coast, ``dotted`` are the supply centres, ``unitless`` never hold a unit. A province left
    without a clear place chooses first in the next round (a few rounds at most)."""
    order = sorted(keys(grid) - set(unnamed), key=lambda k: (len(cells_of(grid, k)), k))
    for _ in range(ROUNDS):
        found, taken, crowded = _names_and_units(grid, order, dotted=dotted, unitless=unitless)
        if not crowded:
            break
        order = [*crowded, *(k for k in order if k not in crowded)]
    for key in order:
        if key in unitless:
            continue
        space = room(grid, key)
        own = [(found.units[key], UNIT)]
        for coast, near in sorted(coasts.items()):
            if coast.split("/")[0] == key:
                found.units[coast] = _nearest(space, near, taken)
                own.append((found.units[coast], UNIT))
                taken.discs.append(own[-1])
        found.dislodged[key] = _waiting(space, taken, own)
        taken.discs.append((found.dislodged[key], WAITING))
    return found


def name_box(key: str, *, dotted: bool) -> Box:
    """The box a province's name covers around its point (the dot of a centre on its left)."""
    half = sum(LETTERS.get(c, 0.7) for c in key) * NAME_SIZE / 2 + 0.1
    return -half - (DOT if dotted else 0.0), -0.55 * NAME_SIZE, half, 0.45 * NAME_SIZE


def _names_and_units(
    grid: Grid, order: list[str], *, dotted: Collection[str], unitless: Collection[str]
) -> tuple[Places, Taken, list[str]]:
    """Names and units placed in this order, and the provinces whose unit found no clear place."""
    found, taken, crowded = Places(), Taken(), []
    for key in order:
        box = name_box(key, dotted=key in dotted)
        label, unit = _name_and_unit(grid, key, box, taken, with_unit=key not in unitless)
        found.labels[key] = label
        taken.boxes.append(_placed(label, box))
        if key not in unitless:
            if not taken.disc_free((unit, UNIT)):
                crowded.append(key)
            found.units[key] = unit
            taken.discs.append((unit, UNIT))
    return found, taken, crowded


def _name_and_unit(grid: Grid, key: str, box: Box, taken: Taken, *, with_unit: bool) -> tuple[XY, XY]:
    """The name at the widest free place that leaves room for the unit beside it."""
    wide = room(grid, key, wide=2.0)
    space = room(grid, key)
    mid = _middle(wide)
    ranked = sorted(wide, key=lambda p: (-wide[p], _distance(mid, p), p))
    free = [p for p in ranked if taken.box_free(_placed(_centre(p), box))] or ranked
    best: tuple[tuple[bool, float, float], XY, XY] | None = None
    for cell in free[:CANDIDATES]:
        label = _centre(cell)
        beside = Taken([*taken.boxes, _placed(label, box)], taken.discs)
        unit = _roomiest(space, beside, UNIT) if with_unit else label
        clear = not with_unit or beside.disc_free((unit, UNIT))
        unit_room = space[_cell(unit)] if with_unit else ENOUGH
        fits = min(wide[cell], ENOUGH) + min(unit_room, ENOUGH)  # both wholly inside, first
        score = (clear, fits, wide[cell] + unit_room)
        if best is None or score > best[0]:
            best = (score, label, unit)
    assert best is not None
    return best[1], best[2]


def _roomiest(space: dict[Point, float], taken: Taken, r: float) -> XY:
    """The centre of the roomiest cell whose disc of radius ``r`` covers nothing placed (of the
    roomiest of all when none is clear)."""
    ranked = _ranked(space)
    return _centre(next((p for p in ranked if taken.disc_free((_centre(p), r))), ranked[0]))


def _waiting(space: dict[Point, float], taken: Taken, own: list[Disc]) -> XY:
    """Where a dislodged unit waits: clear of everything if there is room, else over the edge of
    its own province's unit (drawn on top, like a badge), never over a name or another's unit."""
    ranked = _ranked(space)
    others = Taken(taken.boxes, [d for d in taken.discs if d not in own])
    for free in (taken, others):
        spot = next((p for p in ranked if free.disc_free((_centre(p), WAITING))), None)
        if spot is not None:
            return _centre(spot)
    return _centre(ranked[0])


def _ranked(space: dict[Point, float]) -> list[Point]:
    """Roomiest first, then nearest the region's middle."""
    mid = _middle(space)
    return sorted(space, key=lambda p: (-space[p], _distance(mid, p), p))


def _nearest(space: dict[Point, float], near: Point, taken: Taken) -> XY:
    """The centre of the cell nearest ``near`` that covers nothing placed, inside if it can be."""
    clear = [p for p in space if taken.disc_free((_centre(p), UNIT))]
    pool = [p for p in clear if space[p] >= 2] or clear or list(space)
    return _centre(min(pool, key=lambda p: (_distance(near, p), p)))


def _placed(at: XY, box: Box) -> Box:
    return at[0] + box[0], at[1] + box[1], at[0] + box[2], at[1] + box[3]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _hits(disc: Disc, box: Box) -> bool:
    (x, y), r = disc
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return dx * dx + dy * dy < r * r


def _middle(cells: dict[Point, float]) -> XY:
    return sum(q[0] for q in cells) / len(cells), sum(q[1] for q in cells) / len(cells)


def _distance(a: XY | Point, b: XY | Point) -> float:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def _centre(p: Point) -> XY:
    return p[0] + 0.5, p[1] + 0.5


def _cell(p: XY) -> Point:
    return int(p[0]), int(p[1])
