"""The drawn standard board does not mislead: the regions traced from our cell map
(``engine/diplomacy/maps/standard_cells.txt``) touch exactly where the game's provinces are
adjacent, each province is one region, and names, units and coasts sit inside their own region
without covering each other. ``COURIER_UPDATE_GOLDEN=1`` regenerates ``standard_regions.py``."""

from __future__ import annotations

import os

import pytest

from engine.diplomacy import STANDARD
from engine.diplomacy.maps import standard_regions
from engine.diplomacy.maps._build import module_source
from engine.diplomacy.maps._places import UNIT, WAITING, Taken, name_box
from engine.diplomacy.maps._trace import Grid, Point, cells_of, read_cells, touching
from engine.diplomacy.maps.standard_layout import CELL, IMPASSABLE, OFF_BOARD
from tests.helpers.paths import ROOT

MAPS = ROOT / "engine" / "diplomacy" / "maps"
CELLS = MAPS / "standard_cells.txt"
REGIONS = MAPS / "standard_regions.py"
MAP = STANDARD.map

# Pairs the game makes adjacent that the board does not draw touching (straits, islands): none.
# A pair added here must be one a player can see is adjacent some other way (say, a strait drawn).
ADJACENT_NOT_TOUCHING: set[tuple[str, str]] = set()
PIECES = {"nap": 2}  # Naples keeps Sicily


@pytest.fixture(scope="module")
def grid() -> Grid:
    return read_cells(CELLS.read_text(encoding="utf-8"))


def game_pairs() -> set[tuple[str, str]]:
    pairs = set()
    for a, b in MAP.army_edges | MAP.fleet_edges:
        a, b = a.split("/")[0], b.split("/")[0]
        if a != b:
            pairs.add((min(a, b), max(a, b)))
    return pairs


def test_the_generated_regions_are_traced_from_the_cell_map() -> None:
    text = module_source(CELLS.read_text(encoding="utf-8"))
    if os.environ.get("COURIER_UPDATE_GOLDEN"):
        REGIONS.write_text(text, encoding="utf-8")
    assert REGIONS.read_text(encoding="utf-8") == text, (
        "run with COURIER_UPDATE_GOLDEN=1 after editing the cells"
    )


def test_provinces_touch_on_the_board_exactly_where_the_game_makes_them_adjacent(grid: Grid) -> None:
    drawn = {p for p in touching(grid) if not set(p) & {OFF_BOARD, *IMPASSABLE}}
    assert sorted(game_pairs() - ADJACENT_NOT_TOUCHING - drawn) == []  # adjacent, drawn apart
    assert sorted(drawn - game_pairs()) == []  # drawn touching, not adjacent


def test_the_board_has_every_province_and_switzerland_between_its_neighbours(grid: Grid) -> None:
    drawn = {key for row in grid for key in row}
    assert drawn - {OFF_BOARD, *IMPASSABLE} == set(MAP.provinces)
    swiss = {b if a == "swi" else a for a, b in touching(grid) if "swi" in (a, b)}
    assert swiss == {"bur", "mar", "mun", "pie", "tyr"}


@pytest.mark.parametrize("key", sorted(MAP.provinces))
def test_each_province_is_one_region(grid: Grid, key: str) -> None:
    assert len(_pieces(set(cells_of(grid, key)))) == PIECES.get(key, 1)


def _pieces(cells: set[Point]) -> list[set[Point]]:
    pieces = []
    while cells:
        piece, todo = set(), [cells.pop()]
        while todo:
            c, r = todo.pop()
            piece.add((c, r))
            for near in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
                if near in cells:
                    cells.remove(near)
                    todo.append(near)
        pieces.append(piece)
    return pieces


@pytest.mark.parametrize("key", sorted(MAP.provinces))
def test_the_name_and_the_units_stand_inside_their_region(grid: Grid, key: str) -> None:
    own = set(cells_of(grid, key))
    places = [p for k, p in standard_regions.UNITS.items() if k.split("/")[0] == key]
    places += [standard_regions.LABELS[key], standard_regions.DISLODGED[key]]
    assert {_cell(p) for p in places} <= own


def test_no_unit_covers_a_name_and_no_name_another() -> None:
    """Over the whole board: a unit (or a dislodged unit) drawn anywhere covers no province's name,
    and no two names overlap; so a name is never hidden under a unit, whoever stands where."""
    taken = Taken()
    for key, (x, y) in sorted(standard_regions.LABELS.items()):
        box = name_box(key, dotted=key in MAP.provinces and MAP.provinces[key].supply_center)
        placed = (x / CELL + box[0], y / CELL + box[1], x / CELL + box[2], y / CELL + box[3])
        assert taken.box_free(placed), key
        taken.boxes.append(placed)
    discs = [((x / CELL, y / CELL), UNIT, k) for k, (x, y) in standard_regions.UNITS.items()]
    discs += [
        ((x / CELL, y / CELL), WAITING, "dislodged " + k) for k, (x, y) in standard_regions.DISLODGED.items()
    ]
    units = Taken(taken.boxes, [])
    for centre, radius, name in discs:  # a dislodged unit may sit over the edge of its own province's unit
        own = [d for d, k in zip(units.discs, discs, strict=False) if k[2].split("/")[0] == name.split()[-1]]
        assert Taken(units.boxes, [d for d in units.discs if d not in own]).disc_free((centre, radius)), name
        units.discs.append((centre, radius))
    assert not {"swi"} & set(standard_regions.UNITS)  # nobody stands in Switzerland


@pytest.mark.parametrize("coast", sorted(k for k in standard_regions.UNITS if "/" in k))
def test_a_split_coasts_fleet_stands_by_a_sea_it_reaches(grid: Grid, coast: str) -> None:
    """The nearest sea to where spa/nc's fleet is drawn is one that spa/nc's fleet can enter."""
    c, r = _cell(standard_regions.UNITS[coast])
    seas = {
        (abs(x - c) + abs(y - r), key)
        for y, row in enumerate(grid)
        for x, key in enumerate(row)
        if key in MAP.provinces and MAP.provinces[key].kind == "sea"
    }
    nearest = min(seas)[1]
    reach = {b for a, b in MAP.fleet_edges if a == coast} | {a for a, b in MAP.fleet_edges if b == coast}
    assert nearest in reach


def _cell(point: tuple[float, float]) -> Point:
    return int(point[0] // CELL), int(point[1] // CELL)
