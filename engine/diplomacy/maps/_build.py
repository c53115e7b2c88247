"""The text of ``standard_regions.py``: the outlines traced from the cell map (``maps._trace``) and
the places inside them (``maps._places``), as literals, so that drawing a map does no tracing.
``tests/engine/diplomacy/test_map_cells.py`` checks the file is up to date and, with
``COURIER_UPDATE_GOLDEN=1``, rewrites it."""

from __future__ import annotations

from engine.diplomacy._variant import STANDARD
from engine.diplomacy.maps._places import XY, places
from engine.diplomacy.maps._trace import outlines, read_cells
from engine.diplomacy.maps.standard_layout import CELL, COASTS, IMPASSABLE, OFF_BOARD

HEAD = [
    '"""The standard board\'s regions, traced from ``standard_cells.txt`` (``maps._build``). Generated:',
    "do not edit; ``COURIER_UPDATE_GOLDEN=1 python -m pytest tests/engine/diplomacy/test_map_cells.py``",
    'rewrites it after the cells change."""',
    "",
    "# fmt: off",
]


def module_source(cells_text: str) -> str:
    grid = read_cells(cells_text)
    centres = {k for k, p in STANDARD.map.provinces.items() if p.supply_center}
    found = places(grid, coasts=COASTS, dotted=centres, unnamed={OFF_BOARD}, unitless=IMPASSABLE)
    lines = [*HEAD, "PATHS: dict[str, str] = {"]
    for key, path in outlines(grid, CELL).items():
        lines += [f'    "{key}": (', *(f'        "{chunk}"' for chunk in _chunks(path, 96)), "    ),"]
    lines.append("}")
    tables = {"LABELS": found.labels, "UNITS": found.units, "DISLODGED": found.dislodged}
    for name, table in tables.items():
        lines += [f"{name}: dict[str, tuple[float, float]] = {{", *_points(table), "}"]
    lines.append("# fmt: on")
    return "\n".join(lines) + "\n"


def _points(table: dict[str, XY]) -> list[str]:
    return [f'    "{key}": ({x * CELL:.1f}, {y * CELL:.1f}),' for key, (x, y) in sorted(table.items())]


def _chunks(text: str, width: int) -> list[str]:
    """Pieces of about ``width`` characters, each cut after a space (rejoined they are the text)."""
    pieces, start = [], 0
    while start < len(text):
        end = len(text) if len(text) - start <= width else text.rfind(" ", start, start + width) + 1
        if end <= start:
            end = start + width
        pieces.append(text[start:end])
        start = end
    return pieces
