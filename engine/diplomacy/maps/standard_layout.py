"""How the standard board is drawn, beside its cells (``standard_cells.txt``): the size of the map and
of a cell, what the cells that are not provinces stand for, and near which cell each coast of a
split-coast province has its fleets. Facts only; the tracing is ``maps._trace``, the drawing
``engine.diplomacy._svg``."""

WIDTH, HEIGHT = 1000, 800
CELL = 10  # a cell of the cell map is 10 x 10 on the drawn map

IMPASSABLE = {"swi": "Switzerland"}  # named on the board, never entered
OFF_BOARD = "xxx"  # land the game does not use (Ireland, islands, Africa east of Tunis)

# (column, row) of a cell by each coast: its fleet stands at the province's cell nearest it
COASTS: dict[str, tuple[int, int]] = {
    "spa/nc": (15, 53), "spa/sc": (19, 66),
    "stp/nc": (78, 4), "stp/sc": (67, 15),
    "bul/ec": (74, 53), "bul/sc": (69, 58),
}  # fmt: skip
