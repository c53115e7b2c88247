"""The test Sheets server's data: spreadsheets, tabs and cells as stored, and the A1 ranges and value
conversions (RAW, USER_ENTERED, the render options) the endpoints share."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tests.servers.sheets_errors import ApiError

__all__ = [
    "Formatted",
    "Formula",
    "Logged",
    "Spreadsheet",
    "Tab",
    "a1",
    "cell_data",
    "parse_range",
    "render",
    "trim",
    "user_entered",
]

_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_CELL = re.compile(r"^([A-Z]*)(\d*)$")


@dataclass(frozen=True)
class Formula:
    """What USER_ENTERED makes of text starting with "="; RAW never produces one."""

    text: str


@dataclass(frozen=True)
class Formatted:
    """A value with a number format that shows it as ``text`` (formattedValue): a time, a date,
    1067 formatted 00000. A write replaces it (the fake forgets the format)."""

    value: float | int | str | bool
    text: str


@dataclass
class Tab:
    sheet_id: int
    title: str
    cells: dict[tuple[int, int], Any] = field(default_factory=dict)  # (row, column) from 0; absent: empty
    rows: int = 1000
    columns: int = 26
    widths: dict[int, int] = field(default_factory=dict)  # column from 0 → pixels (updateDimensionProperties)

    def values(self) -> list[list[Any]]:
        """The used rectangle from A1 as stored (``Formula``, ``Formatted``), trimmed as the API trims
        (trailing empty cells and rows)."""
        return trim(self.cells, 0, 0, None, None)


@dataclass
class Spreadsheet:
    key: str
    time_zone: str = "UTC"
    tabs: list[Tab] = field(default_factory=list)
    forbidden: bool = False  # not shared with the service account: 403
    uploaded_xlsx: bool = False  # an uploaded Excel file, not converted: 400 FAILED_PRECONDITION

    def tab(self, title: str) -> Tab:
        for tab in self.tabs:
            if tab.title == title:
                return tab
        raise ApiError(400, "INVALID_ARGUMENT", f"Unable to parse range: {title}")


@dataclass(frozen=True)
class Logged:
    method: str
    path: str  # percent-decoded, e.g. /v4/spreadsheets/KEY/values/'Config'!A1:C3
    query: dict[str, list[str]]
    body: Any


# --- cells and ranges ------------------------------------------------------------------------------


def user_entered(value: Any) -> Any:
    """What a person typing ``value`` gets: formulas, numbers and booleans parsed."""
    if not isinstance(value, str):
        return value
    if value.startswith("'"):
        return value[1:]
    if value.startswith("="):
        return Formula(value)
    if _NUMBER.match(value.strip()):
        number = float(value)
        return int(number) if number.is_integer() else number
    if value.upper() in ("TRUE", "FALSE"):
        return value.upper() == "TRUE"
    return value


def render(value: Any, option: str) -> Any:
    if isinstance(value, Formula):
        return value.text  # the fake computes nothing
    if isinstance(value, Formatted):
        return value.value if option == "UNFORMATTED_VALUE" else value.text
    if option == "UNFORMATTED_VALUE" or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def cell_data(value: Any) -> dict[str, Any]:
    """A CellData: what the cell holds, what it evaluates to, and how it shows; {} when empty."""
    if value == "":
        return {}
    underlying = value.value if isinstance(value, Formatted) else value
    entered = {"formulaValue": value.text} if isinstance(value, Formula) else _extended(underlying)
    effective = {"stringValue": value.text} if isinstance(value, Formula) else _extended(underlying)
    shown = render(value, "FORMATTED_VALUE")
    return {"userEnteredValue": entered, "effectiveValue": effective, "formattedValue": shown}


def _extended(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int | float):
        return {"numberValue": value}
    return {"stringValue": str(value)}


def trim(
    cells: Mapping[tuple[int, int], Any], r0: int, c0: int, r1: int | None, c1: int | None
) -> list[list[Any]]:
    inside = {
        (r - r0, c - c0): v
        for (r, c), v in cells.items()
        if r >= r0 and c >= c0 and (r1 is None or r <= r1) and (c1 is None or c <= c1)
    }
    if not inside:
        return []
    rows: list[list[Any]] = [[] for _ in range(max(r for r, _ in inside) + 1)]
    for r, row in enumerate(rows):
        width = max((c + 1 for rr, c in inside if rr == r), default=0)
        row.extend(inside.get((r, c), "") for c in range(width))
    return rows


def parse_range(text: str) -> tuple[str, tuple[int, int, int | None, int | None]]:
    """ "'My tab'!B2:C" -> ("My tab", (1, 1, None, 2)); a bare title is the whole tab."""
    if text.startswith("'"):
        end = re.match(r"'((?:[^']|'')*)'", text)
        if not end:
            raise ApiError(400, "INVALID_ARGUMENT", f"Unable to parse range: {text}")
        title, rest = end.group(1).replace("''", "'"), text[end.end() :]
    else:
        title, _, cells = text.partition("!")
        rest = "!" + cells if cells else ""
    if not rest:
        return title, (0, 0, None, None)
    first, _, last = rest.removeprefix("!").partition(":")
    r0, c0 = _cell(first, 0)
    r1, c1 = _cell(last, None) if last else _cell(first, None)
    return title, (r0 or 0, c0 or 0, r1, c1)


def _cell(text: str, default: int | None) -> tuple[int | None, int | None]:
    match = _CELL.match(text.upper())
    if not match:
        raise ApiError(400, "INVALID_ARGUMENT", f"Unable to parse range: {text}")
    letters, digits = match.groups()
    column = functools.reduce(lambda n, ch: n * 26 + ord(ch) - 64, letters, 0) - 1 if letters else default
    return (int(digits) - 1 if digits else default), column


def a1(title: str, r0: int, c0: int, r1: int | None = None, c1: int | None = None) -> str:
    def name(column: int) -> str:
        return name(column // 26 - 1) + chr(65 + column % 26) if column >= 26 else chr(65 + column)

    start = f"{name(c0)}{r0 + 1}"
    end = f":{name(c1)}{r1 + 1}" if r1 is not None and c1 is not None else ""
    return "'{}'!{}{}".format(title.replace("'", "''"), start, end)
