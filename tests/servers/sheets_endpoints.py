"""The test Sheets server's endpoints: what each Sheets API method does to a spreadsheet (already
checked against the discovery document by tests/servers/sheets_rules.py) and what it answers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tests.servers.sheets_errors import ApiError, bad_request
from tests.servers.sheets_model import (
    Formula,
    Spreadsheet,
    Tab,
    a1,
    cell_data,
    parse_range,
    render,
    trim,
    user_entered,
)

__all__ = ["MAX_CELLS", "MAX_CELL_CHARS", "MAX_COLUMNS", "check_size", "dispatch", "select"]

# Google's documented limits, and what it says when a write would pass them.
MAX_CELL_CHARS = 50_000
MAX_CELLS = 10_000_000
MAX_COLUMNS = 18_278
TOO_LONG = f"Your input contains more than the maximum of {MAX_CELL_CHARS} characters in a single cell."


def dispatch(
    sheet: Spreadsheet, method_id: str, path: Mapping[str, str], query: Mapping[str, list[str]], body: Any
) -> Any:
    """Perform the method ``method_id`` (its discovery id) on ``sheet``; ``path`` holds the decoded
    path parameters. The caller keeps the changes only when this returns."""
    name = method_id.removeprefix("sheets.spreadsheets.")
    option = query.get("valueInputOption", [""])[0]
    rendering = query.get("valueRenderOption", ["FORMATTED_VALUE"])[0]
    dimension = query.get("majorDimension", ["ROWS"])[0]
    if name == "get":
        return _spreadsheet(sheet, query)
    if name == "batchUpdate":
        replies = [_structure(sheet, request, i) for i, request in enumerate(body.get("requests", []))]
        return {"spreadsheetId": sheet.key, "replies": replies}
    if name == "values.get":
        return _get(sheet, path["range"], rendering, dimension)
    if name == "values.batchGet":
        ranges = [_get(sheet, text, rendering, dimension) for text in query.get("ranges", [])]
        return {"spreadsheetId": sheet.key, "valueRanges": ranges}
    if name == "values.update":
        return _update(sheet, path["range"], _rows(body), _required_option(option))
    if name == "values.append":
        return _append(sheet, path["range"], _rows(body), _required_option(option))
    if name == "values.batchUpdate":
        option = _batch_option(body.get("valueInputOption", ""))
        answers = [
            _update(sheet, item.get("range", ""), _rows(item, f"data[{i}]."), option)
            for i, item in enumerate(body.get("data", []))
        ]
        total = sum(a["updatedCells"] for a in answers)
        return {"spreadsheetId": sheet.key, "totalUpdatedCells": total, "responses": answers}
    if name == "values.clear":
        return _clear(sheet, path["range"])
    if name == "values.batchClear":
        cleared = [_clear(sheet, text)["clearedRange"] for text in body.get("ranges", [])]
        return {"spreadsheetId": sheet.key, "clearedRanges": cleared}
    raise ApiError(501, "NOT_IMPLEMENTED", f"the test server does not implement {method_id}")


def _required_option(option: str) -> str:
    if not option:
        raise bad_request("'valueInputOption' is required but not specified")
    return _batch_option(option)


def _batch_option(option: str) -> str:
    if option not in ("RAW", "USER_ENTERED"):
        raise bad_request(f"Invalid valueInputOption: {option or 'INPUT_VALUE_OPTION_UNSPECIFIED'}")
    return option


def _rows(value_range: Mapping[str, Any], at: str = "") -> list[list[Any]]:
    """A ValueRange's values as rows (COLUMNS transposed); a cell must be a scalar."""
    values = value_range.get("values", [])
    for r, row in enumerate(values):
        for c, value in enumerate(row):
            if isinstance(value, list | dict):
                kind = "list_value" if isinstance(value, list) else "struct_value"
                raise bad_request(f"Invalid {at}values[{r}][{c}]: {kind}")
            if isinstance(value, str) and len(value) > MAX_CELL_CHARS:
                raise bad_request(TOO_LONG)
    if value_range.get("majorDimension") == "COLUMNS":
        width = max((len(column) for column in values), default=0)
        return [[column[r] if r < len(column) else None for column in values] for r in range(width)]
    return [list(row) for row in values]


# --- endpoints -------------------------------------------------------------------------------------


def _spreadsheet(sheet: Spreadsheet, query: Mapping[str, list[str]]) -> dict[str, Any]:
    """spreadsheets.get: with a field mask, grid data comes back when the mask asks for it (the caller
    applies the mask); else when ``includeGridData``."""
    if query.get("ranges"):
        raise ApiError(501, "NOT_IMPLEMENTED", "the test server serves spreadsheets.get without ranges only")
    with_data = bool(query.get("fields")) or query.get("includeGridData", ["false"])[0] == "true"
    return {
        "spreadsheetId": sheet.key,
        "properties": {"title": sheet.key, "locale": "en_US", "timeZone": sheet.time_zone},
        "sheets": [_sheet(tab, index, with_data) for index, tab in enumerate(sheet.tabs)],
    }


def _sheet(tab: Tab, index: int, with_data: bool) -> dict[str, Any]:
    answer: dict[str, Any] = {"properties": _properties(tab, index)}
    if with_data:  # one GridData from A1 (startRow/startColumn 0 are omitted, as in proto3 JSON)
        rows = trim(tab.cells, 0, 0, None, None)
        answer["data"] = [
            {"rowData": [{"values": [cell_data(v) for v in row]} if row else {} for row in rows]}
        ]
    return answer


def _properties(tab: Tab, index: int) -> dict[str, Any]:
    grid = {"rowCount": tab.rows, "columnCount": tab.columns}
    return {
        "sheetId": tab.sheet_id,
        "title": tab.title,
        "index": index,
        "sheetType": "GRID",
        "gridProperties": grid,
    }


def _structure(sheet: Spreadsheet, request: Mapping[str, Any], index: int) -> dict[str, Any]:
    """One Request of a batchUpdate (already checked to hold exactly one kind)."""
    [(kind, inner)] = request.items()
    where = f"Invalid requests[{index}].{kind}: "
    if kind == "addSheet":
        answer = _add_sheet(sheet, inner.get("properties", {}), where)
    elif kind == "appendDimension":
        tab = _grid_by_id(sheet, inner.get("sheetId", 0), where)
        length = inner.get("length", 0)
        if length < 1:
            raise bad_request(f"{where}length must be greater than 0")
        if inner.get("dimension", "") not in ("ROWS", "COLUMNS"):
            raise bad_request(f"{where}dimension must be ROWS or COLUMNS")
        if inner["dimension"] == "ROWS":
            tab.rows += length
        else:
            tab.columns += length
        answer = {}
    elif kind == "updateCells":
        _update_cells(sheet, inner, where)
        answer = {}
    elif kind == "updateDimensionProperties":
        _dimension_properties(sheet, inner, where)
        answer = {}
    else:
        raise ApiError(501, "NOT_IMPLEMENTED", f"the test server does not implement the request {kind}")
    check_size(sheet, where)
    return answer


def _add_sheet(sheet: Spreadsheet, properties: Mapping[str, Any], where: str) -> dict[str, Any]:
    title = properties.get("title", f"Sheet{len(sheet.tabs) + 1}")
    if any(tab.title.casefold() == title.casefold() for tab in sheet.tabs):
        raise bad_request(
            f'{where}A sheet with the name "{title}" already exists. Please enter another name.'
        )
    sheet_id = properties.get("sheetId", max((t.sheet_id for t in sheet.tabs), default=0) + 1)
    if sheet_id < 0:
        raise bad_request(f"{where}sheetId must be non-negative: {sheet_id}")
    if any(tab.sheet_id == sheet_id for tab in sheet.tabs):
        raise bad_request(f"{where}A sheet with id {sheet_id} already exists.")
    grid = properties.get("gridProperties", {})
    tab = Tab(sheet_id, title, rows=grid.get("rowCount", 1000), columns=grid.get("columnCount", 26))
    if tab.rows < 1 or tab.columns < 1:
        raise bad_request(f"{where}a sheet needs at least one row and one column")
    sheet.tabs.append(tab)
    return {"addSheet": {"properties": _properties(tab, len(sheet.tabs) - 1)}}


def _dimension_properties(sheet: Spreadsheet, inner: Mapping[str, Any], where: str) -> None:
    """updateDimensionProperties of columns, ``fields`` "pixelSize" (what Courier sets: the width
    of a public tab's columns); the widths are kept per column."""
    span = inner.get("range", {})
    tab = _grid_by_id(sheet, span.get("sheetId", 0), where)
    if span.get("dimension") != "COLUMNS" or inner.get("fields") != "pixelSize":
        raise ApiError(501, "NOT_IMPLEMENTED", f"{where}the test server sets only the columns' pixelSize")
    start, end = span.get("startIndex", 0), span.get("endIndex", tab.columns)
    if not 0 <= start < end <= tab.columns:
        raise bad_request(f"{where}Invalid dimension range: {start} to {end} of {tab.columns} columns")
    pixels = inner.get("properties", {}).get("pixelSize", 0)
    if pixels < 0:
        raise bad_request(f"{where}pixelSize must be non-negative")
    tab.widths.update((column, pixels) for column in range(start, end))


def _grid_by_id(sheet: Spreadsheet, sheet_id: int, where: str) -> Tab:
    for tab in sheet.tabs:
        if tab.sheet_id == sheet_id:
            return tab
    raise bad_request(f"{where}No grid with id: {sheet_id}")


def check_size(sheet: Spreadsheet, where: str = "") -> None:
    """Google's limits on a spreadsheet's grids: 18,278 columns a tab, 10 million cells in all."""
    for tab in sheet.tabs:
        if tab.columns > MAX_COLUMNS:
            raise bad_request(
                f'{where}This action would increase the number of columns in sheet "{tab.title}" '
                f"above the limit of {MAX_COLUMNS}."
            )
    if sum(tab.rows * tab.columns for tab in sheet.tabs) > MAX_CELLS:
        raise bad_request(
            f"{where}This action would increase the number of cells in the workbook above the limit "
            f"of {MAX_CELLS} cells."
        )


def _update_cells(sheet: Spreadsheet, request: Mapping[str, Any], where: str) -> None:
    """updateCells from ``start`` with ``fields`` "userEnteredValue": a CellData without one clears
    the cell; stringValue is stored as typed (never a formula: that is formulaValue)."""
    if "range" in request:
        raise ApiError(501, "NOT_IMPLEMENTED", "the test server updates cells from a start only")
    if request.get("fields") != "userEnteredValue":
        raise ApiError(
            501, "NOT_IMPLEMENTED", "the test server updates cells with fields=userEnteredValue only"
        )
    start = request.get("start", {})
    tab = _grid_by_id(sheet, start.get("sheetId", 0), where)
    r0, c0 = start.get("rowIndex", 0), start.get("columnIndex", 0)
    rows = request.get("rows", [])
    height, width = len(rows), max((len(row.get("values", [])) for row in rows), default=0)
    if r0 + height > tab.rows:
        raise bad_request(
            f"{where}Attempting to write row: {r0 + height - 1}, beyond the last requested row of: "
            f"{tab.rows - 1}"
        )
    if c0 + width > tab.columns:
        raise bad_request(
            f"{where}Attempting to write column: {c0 + width - 1}, beyond the last requested column of: "
            f"{tab.columns - 1}"
        )
    for r, row in enumerate(rows):
        for c, data in enumerate(row.get("values", [])):
            entered = data.get("userEnteredValue", {})
            if any(isinstance(v, str) and len(v) > MAX_CELL_CHARS for v in entered.values()):
                raise bad_request(where + TOO_LONG)
            if "formulaValue" in entered:
                tab.cells[(r0 + r, c0 + c)] = Formula(entered["formulaValue"])
                continue
            value = next(
                (entered[k] for k in ("stringValue", "numberValue", "boolValue") if k in entered), ""
            )
            if value == "":
                tab.cells.pop((r0 + r, c0 + c), None)
            else:
                tab.cells[(r0 + r, c0 + c)] = value


def _get(sheet: Spreadsheet, text: str, rendering: str, dimension: str) -> dict[str, Any]:
    title, (r0, c0, r1, c1) = parse_range(text)
    tab = sheet.tab(title)
    values = [[render(v, rendering) for v in row] for row in trim(tab.cells, r0, c0, r1, c1)]
    if dimension == "COLUMNS":
        width = max((len(row) for row in values), default=0)
        values = [[row[c] if c < len(row) else "" for row in values] for c in range(width)]
        values = [
            column[: max((i + 1 for i, v in enumerate(column) if v != ""), default=0)] for column in values
        ]
    answer: dict[str, Any] = {"range": a1(title, r0, c0, r1 or tab.rows - 1, c1 or tab.columns - 1)}
    answer["majorDimension"] = dimension
    if values:
        answer["values"] = values
    return answer


def _update(sheet: Spreadsheet, text: str, values: list[list[Any]], option: str) -> dict[str, Any]:
    title, (r0, c0, r1, c1) = parse_range(text)
    tab = sheet.tab(title)
    height, width = len(values), max((len(row) for row in values), default=0)
    if ":" not in text.rpartition("!")[2]:  # one cell: only where to start
        r1 = c1 = None
    if (r1 is not None and r0 + height - 1 > r1) or (c1 is not None and c0 + width - 1 > c1):
        raise ApiError(
            400, "INVALID_ARGUMENT", f"Requested writing within range [{text}], but tried writing more"
        )
    if r0 + height > tab.rows or c0 + width > tab.columns:
        limits = f"Max rows: {tab.rows}, max columns: {tab.columns}"
        raise ApiError(400, "INVALID_ARGUMENT", f"Range ({text}) exceeds grid limits. {limits}")
    for r, row in enumerate(values):
        for c, value in enumerate(row):
            if value is None:
                continue  # the API skips nulls; "" empties a cell
            stored = value if option == "RAW" else user_entered(value)
            if stored == "":
                tab.cells.pop((r0 + r, c0 + c), None)
            else:
                tab.cells[(r0 + r, c0 + c)] = stored
    written = a1(title, r0, c0, r0 + max(height - 1, 0), c0 + max(width - 1, 0))
    return {
        "spreadsheetId": sheet.key,
        "updatedRange": written,
        "updatedRows": height,
        "updatedColumns": width,
        "updatedCells": sum(len(row) for row in values),
    }


def _append(sheet: Spreadsheet, text: str, values: list[list[Any]], option: str) -> dict[str, Any]:
    title, (_, c0, _, _) = parse_range(text)
    tab = sheet.tab(title)
    below = max((r for r, _ in tab.cells), default=-1) + 1
    tab.rows = max(tab.rows, below + len(values))  # append inserts rows as needed
    check_size(sheet)
    return {"spreadsheetId": sheet.key, "updates": _update(sheet, a1(title, below, c0), values, option)}


def _clear(sheet: Spreadsheet, text: str) -> dict[str, Any]:
    title, (r0, c0, r1, c1) = parse_range(text)
    tab = sheet.tab(title)
    for r, c in list(tab.cells):
        if r0 <= r <= (r1 if r1 is not None else r) and c0 <= c <= (c1 if c1 is not None else c):
            del tab.cells[(r, c)]
    return {"spreadsheetId": sheet.key, "clearedRange": text}


def select(value: Any, mask: Mapping[str, Any]) -> Any:
    if not mask or "*" in mask:
        return value
    if isinstance(value, list):
        return [select(item, mask) for item in value]
    if isinstance(value, dict):
        return {name: select(value[name], inner) for name, inner in mask.items() if name in value}
    return value
