"""A stand-in for the Google Sheets API v4 on 127.0.0.1 (stdlib HTTP server in a thread), speaking
the subset gspread uses, so the real gspread + google-auth code runs over the wire.

It keeps spreadsheets in memory, logs every request (``FakeSheets.requests``), issues OAuth tokens at
``POST /token`` to a service-account credential whose ``token_uri`` points here and refuses API calls
without one, honours ``valueInputOption`` (USER_ENTERED turns "=1+1" into a ``Formula`` and "01067"
into 1067; RAW stores what it got), enforces grid limits like Google, and can answer the next API
requests with a fault (below). Cells are stored unformatted: seed a timestamp as its serial
number, and a cell whose display differs from its value as ``Formatted(value, text)`` (a time 20:00 is
``Formatted(0.8333333333333334, "20:00")``). ``spreadsheets.get`` serves grid data (formattedValue,
effectiveValue, userEnteredValue per cell) when ``includeGridData=true`` or a ``fields`` mask asks for
it, and applies the mask (unknown field names are refused like Google refuses them).
``spreadsheets.batchUpdate`` knows addSheet (with a chosen ``sheetId`` or not), appendDimension and
updateCells (``fields=userEnteredValue``), applied in order, all or none.
Fixtures: ``sheets_server``, ``sheets_credentials`` (a key file), ``sheets_settings``; outside
pytest, ``serve_sheets()`` and ``write_credentials()``.

Fault injection (for the client's retry tests; ``kind`` picks requests: None any, "read", "write",
"metadata", ":batchUpdate", "values:batchUpdate", "values:batchGet"...; /token is never hit):

- ``fail_next(count, status=500, kind=None)``: Google's JSON error (500 INTERNAL, 503 UNAVAILABLE,
  429 the quota message...), nothing performed;
- ``lose_answers(count, kind=None, delay=0.0)``: performed and kept, then the connection closes
  without an answer (after ``delay`` s: past the client's timeout it sees a timeout instead);
- ``storm(count=None, seconds=None)``: 429 RESOURCE_EXHAUSTED for the next ``count`` requests or for
  ``seconds`` of the server's clock (``set_clock``), nothing performed;
- ``html_error_next(status=502, count=1, kind=None)``: Google's front-end HTML page (502, 413, 408,
  504), nothing performed;
- ``as_uploaded_xlsx(key)``: 400 FAILED_PRECONDITION "This operation is not supported for this
  document" for every call on that spreadsheet;
- ``missing_scope(keep=())``: every token holds only ``keep``; a call needing more answers 403
  PERMISSION_DENIED "Request had insufficient authentication scopes."."""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from google.oauth2 import service_account

from tests.servers.sheets_errors import ApiError, Reply, scope_insufficient
from tests.servers.sheets_faults import Faults, matches

__all__ = [
    "FakeSheets",
    "Formatted",
    "Formula",
    "Logged",
    "Spreadsheet",
    "Tab",
    "serve_sheets",
    "service_account_info",
    "sheets_credentials",
    "sheets_server",
    "sheets_settings",
    "write_credentials",
]

SERVICE_ACCOUNT = "courier@courier-test.iam.gserviceaccount.com"
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_CELL = re.compile(r"^([A-Z]*)(\d*)$")
_AUTH = "https://www.googleapis.com/auth/"
_WRITE_SCOPES = frozenset(_AUTH + s for s in ("spreadsheets", "drive", "drive.file"))
_READ_SCOPES = _WRITE_SCOPES | {_AUTH + "spreadsheets.readonly", _AUTH + "drive.readonly"}


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

    def values(self) -> list[list[Any]]:
        """The used rectangle from A1 as stored (``Formula``, ``Formatted``), trimmed as the API trims
        (trailing empty cells and rows)."""
        return _trim(self.cells, 0, 0, None, None)


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


@dataclass
class FakeSheets:
    spreadsheets: dict[str, Spreadsheet] = field(default_factory=dict)
    requests: list[Logged] = field(default_factory=list)
    token_lifetime: int = 3600
    tokens: list[str] = field(default_factory=list)
    url: str = ""
    faults: Faults = field(default_factory=Faults)
    clock: Callable[[], float] = time.time  # the server's clock: token expiry, quota minutes, storms
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.faults.clock = self.now

    def now(self) -> float:
        return self.clock()

    def set_clock(self, clock: Callable[[], float]) -> None:
        """Run the server on ``clock`` (seconds, like ``time.time``), so a test can advance it."""
        self.clock = clock

    # --- for tests ---------------------------------------------------------------------------------

    def create(
        self, key: str, tabs: Mapping[str, Sequence[Sequence[Any]]], *, time_zone: str = "UTC"
    ) -> Spreadsheet:
        """A spreadsheet holding these tabs (values as the API returns them unformatted)."""
        sheet = Spreadsheet(key, time_zone)
        for index, (title, rows) in enumerate(tabs.items()):
            tab = Tab(index * 1000 + 7, title)
            for r, row in enumerate(rows):
                tab.cells.update({(r, c): value for c, value in enumerate(row) if value not in (None, "")})
            tab.rows = max(tab.rows, len(rows))
            sheet.tabs.append(tab)
        self.spreadsheets[key] = sheet
        return sheet

    def values(self, key: str, title: str) -> list[list[Any]]:
        return self.spreadsheets[key].tab(title).values()

    def titles(self, key: str) -> list[str]:
        return [tab.title for tab in self.spreadsheets[key].tabs]

    # --- fault injection (kinds: see tests/servers/sheets_faults.py) ---------------------------------

    def fail_next(self, count: int, status: int = 500, *, kind: str | None = None) -> None:
        """Answer the next ``count`` API requests (of ``kind``; never /token) with ``status`` in
        Google's JSON error shape (500 INTERNAL, 503 UNAVAILABLE, 429 the quota message...), without
        performing them."""
        self.faults.fail(count, status, kind)

    def lose_answers(self, count: int, *, kind: str | None = None, delay: float = 0.0) -> None:
        """Perform the next ``count`` API requests of ``kind`` as usual (their changes are kept), then
        close the connection without an answer, after ``delay`` seconds (past a client's timeout, the
        client gives up first): the client sees a connection error or a timeout."""
        self.faults.lose(count, kind, delay)

    def storm(self, count: int | None = None, *, seconds: float | None = None) -> None:
        """A 429 storm: the next ``count`` API requests, or every one for ``seconds`` by the server's
        clock (or until both run out), answer 429 RESOURCE_EXHAUSTED with Google's quota message."""
        self.faults.storm(count, seconds)

    def html_error_next(self, status: int = 502, count: int = 1, *, kind: str | None = None) -> None:
        """Answer the next ``count`` API requests of ``kind`` with Google's front-end HTML error page
        (502, 413, 408, 504...; text/html, ~1.7 KB), without performing them."""
        self.faults.html(count, status, kind)

    def as_uploaded_xlsx(self, key: str) -> None:
        """The spreadsheet ``key`` is an uploaded .xlsx file: every Sheets API call on it answers 400
        FAILED_PRECONDITION "This operation is not supported for this document"."""
        self.spreadsheets[key].uploaded_xlsx = True

    def missing_scope(self, keep: Sequence[str] = ()) -> None:
        """Every access token (issued or to come) holds only the scopes ``keep``: an API call that
        needs another answers 403 PERMISSION_DENIED "Request had insufficient authentication
        scopes." (keep ``.../auth/spreadsheets.readonly`` and reads still work)."""
        self.faults.scopes_left = frozenset(keep)

    def api_calls(self, kind: str | None = None) -> list[Logged]:
        """Logged API requests, e.g. kind "values:batchGet", "values:batchUpdate", ":batchUpdate",
        "metadata" (spreadsheets.get), "read", "write"."""
        calls = [r for r in self.requests if r.path.startswith("/v4/")]
        return [r for r in calls if matches(kind, r.method, r.path)]

    # --- serving -----------------------------------------------------------------------------------

    def handle(self, method: str, target: str, body: bytes, headers: Mapping[str, str]) -> Reply:
        """One request; ``headers`` with lower-case names."""
        parts = urlsplit(target)
        query = parse_qs(parts.query, keep_blank_values=True)
        text = body.decode() if body else ""
        parsed = (
            json.loads(text)
            if text and headers.get("content-type", "").startswith("application/json")
            else text
        )
        with self._lock:
            path = unquote(parts.path)
            self.requests.append(Logged(method, path, query, parsed))
            try:
                if parts.path == "/token":
                    return Reply(200, self._token(parse_qs(text)))
                injected = self.faults.before(method, path)
                if injected is not None:
                    return injected
                self._authorise(headers.get("authorization", ""), method)
                reply = Reply(200, self._route(method, parts.path, query, parsed))
            except ApiError as e:
                reply = Reply(e.code, e.body())
            return reply if parts.path == "/token" else self.faults.after(method, path, reply)

    def _token(self, form: Mapping[str, list[str]]) -> dict[str, Any]:
        if (
            form.get("grant_type") != ["urn:ietf:params:oauth:grant-type:jwt-bearer"]
            or "assertion" not in form
        ):
            raise ApiError(400, "invalid_grant", "expected a signed JWT assertion")
        self.tokens.append(f"fake-token-{len(self.tokens) + 1}")
        return {"access_token": self.tokens[-1], "expires_in": self.token_lifetime, "token_type": "Bearer"}

    def _authorise(self, header: str, method: str) -> None:
        if header.removeprefix("Bearer ") not in self.tokens:
            raise ApiError(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.")
        held = self.faults.scopes_left
        if held is not None and not held & (_READ_SCOPES if method == "GET" else _WRITE_SCOPES):
            raise scope_insufficient("google.apps.sheets.v4.SpreadsheetsService")

    def _route(self, method: str, path: str, query: dict[str, list[str]], body: Any) -> Any:
        match = re.fullmatch(r"/v4/spreadsheets/([^/:]+)(:batchUpdate|/values:\w+|/values/([^/]+))?", path)
        if not match:
            raise ApiError(404, "NOT_FOUND", f"no such endpoint {path}")
        key, tail, raw_range = match.group(1), match.group(2) or "", match.group(3)
        if key not in self.spreadsheets:
            raise ApiError(404, "NOT_FOUND", "Requested entity was not found.")
        if self.spreadsheets[key].forbidden:
            raise ApiError(403, "PERMISSION_DENIED", "The caller does not have permission")
        if self.spreadsheets[key].uploaded_xlsx:
            raise ApiError(400, "FAILED_PRECONDITION", "This operation is not supported for this document")
        working = copy.deepcopy(self.spreadsheets[key])  # every request applies whole or not at all
        answer = _dispatch(working, method, tail, raw_range, query, body)
        self.spreadsheets[key] = working
        return answer


def _dispatch(
    sheet: Spreadsheet, method: str, tail: str, raw_range: str | None, query: dict[str, list[str]], body: Any
) -> Any:
    option = query.get("valueInputOption", [""])[0] or (body or {}).get("valueInputOption", "")
    render = query.get("valueRenderOption", ["FORMATTED_VALUE"])[0]
    if raw_range is not None:
        encoded, _, action = raw_range.partition(":")  # gspread encodes the range's own colons
        range_text = unquote(encoded)
        if method == "GET":
            return _get(sheet, range_text, render)
        if method == "PUT":
            return _update(sheet, range_text, body["values"], option)
        if action == "append":
            return _append(sheet, range_text, body["values"], option)
        if action == "clear":
            return _clear(sheet, range_text)
    if tail == "" and method == "GET":
        return _spreadsheet(sheet, query)
    if tail == ":batchUpdate":
        return {"spreadsheetId": sheet.key, "replies": [_structure(sheet, r) for r in body["requests"]]}
    if tail == "/values:batchGet":
        ranges = [_get(sheet, text, render) for text in query.get("ranges", [])]
        return {"spreadsheetId": sheet.key, "valueRanges": ranges}
    if tail == "/values:batchUpdate":
        answers = [_update(sheet, item["range"], item["values"], option) for item in body["data"]]
        total = sum(a["updatedCells"] for a in answers)
        return {"spreadsheetId": sheet.key, "totalUpdatedCells": total, "responses": answers}
    if tail == "/values:batchClear":
        return {
            "spreadsheetId": sheet.key,
            "clearedRanges": [_clear(sheet, t)["clearedRange"] for t in body["ranges"]],
        }
    raise ApiError(404, "NOT_FOUND", f"{method} {tail} is not implemented by the fake")


# --- endpoints -------------------------------------------------------------------------------------


def _spreadsheet(sheet: Spreadsheet, query: Mapping[str, list[str]]) -> dict[str, Any]:
    """spreadsheets.get: a field mask, when given, decides what comes back (grid data included);
    else ``includeGridData``."""
    if query.get("ranges"):
        raise ApiError(400, "INVALID_ARGUMENT", "the fake serves spreadsheets.get without ranges only")
    mask = _mask(query["fields"][0]) if query.get("fields") else None
    with_data = mask is not None or query.get("includeGridData", ["false"])[0] == "true"
    answer = {
        "spreadsheetId": sheet.key,
        "properties": {"title": sheet.key, "locale": "en_US", "timeZone": sheet.time_zone},
        "sheets": [_sheet(tab, index, with_data) for index, tab in enumerate(sheet.tabs)],
    }
    return answer if mask is None else _select(answer, mask)


def _sheet(tab: Tab, index: int, with_data: bool) -> dict[str, Any]:
    answer: dict[str, Any] = {"properties": _properties(tab, index)}
    if with_data:  # one GridData from A1 (startRow/startColumn 0 are omitted, as in proto3 JSON)
        rows = _trim(tab.cells, 0, 0, None, None)
        answer["data"] = [
            {"rowData": [{"values": [_cell_data(v) for v in row]} if row else {} for row in rows]}
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


def _structure(sheet: Spreadsheet, request: Mapping[str, Any]) -> dict[str, Any]:
    if "addSheet" in request:
        properties = request["addSheet"].get("properties", {})
        title = properties.get("title", f"Sheet{len(sheet.tabs) + 1}")
        if any(tab.title == title for tab in sheet.tabs):
            raise ApiError(400, "INVALID_ARGUMENT", f'A sheet with the name "{title}" already exists.')
        grid = properties.get("gridProperties", {})
        sheet_id = properties.get("sheetId", max((t.sheet_id for t in sheet.tabs), default=0) + 1)
        if any(tab.sheet_id == sheet_id for tab in sheet.tabs):
            raise ApiError(400, "INVALID_ARGUMENT", f"A sheet with the ID {sheet_id} already exists.")
        tab = Tab(sheet_id, title)
        tab.rows, tab.columns = grid.get("rowCount", 1000), grid.get("columnCount", 26)
        sheet.tabs.append(tab)
        return {"addSheet": {"properties": _properties(tab, len(sheet.tabs) - 1)}}
    if "appendDimension" in request:
        grow = request["appendDimension"]
        [tab] = [t for t in sheet.tabs if t.sheet_id == grow["sheetId"]]
        if grow["dimension"] == "ROWS":
            tab.rows += grow["length"]
        else:
            tab.columns += grow["length"]
        return {}
    if "updateCells" in request:
        _update_cells(sheet, request["updateCells"])
        return {}
    raise ApiError(400, "INVALID_ARGUMENT", f"the fake does not know {sorted(request)}")


def _update_cells(sheet: Spreadsheet, request: Mapping[str, Any]) -> None:
    """updateCells from ``start`` with ``fields`` "userEnteredValue": a CellData without one clears
    the cell; stringValue is stored as typed (never a formula: that is formulaValue)."""
    if request.get("fields") != "userEnteredValue":
        raise ApiError(400, "INVALID_ARGUMENT", "the fake updates cells with fields=userEnteredValue only")
    start = request["start"]
    found = [t for t in sheet.tabs if t.sheet_id == start.get("sheetId", 0)]
    if not found:
        raise ApiError(400, "INVALID_ARGUMENT", f"No grid with id: {start.get('sheetId', 0)}")
    tab, r0, c0 = found[0], start.get("rowIndex", 0), start.get("columnIndex", 0)
    rows = request.get("rows", [])
    height, width = len(rows), max((len(row.get("values", [])) for row in rows), default=0)
    if r0 + height > tab.rows or c0 + width > tab.columns:
        raise ApiError(400, "INVALID_ARGUMENT", f"Invalid updateCells: beyond the grid of {tab.title}")
    for r, row in enumerate(rows):
        for c, data in enumerate(row.get("values", [])):
            entered = data.get("userEnteredValue", {})
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


def _get(sheet: Spreadsheet, text: str, render: str) -> dict[str, Any]:
    title, (r0, c0, r1, c1) = _parse_range(text)
    tab = sheet.tab(title)
    values = [[_render(v, render) for v in row] for row in _trim(tab.cells, r0, c0, r1, c1)]
    answer: dict[str, Any] = {"range": _a1(title, r0, c0, r1 or tab.rows - 1, c1 or tab.columns - 1)}
    answer["majorDimension"] = "ROWS"
    if values:
        answer["values"] = values
    return answer


def _update(sheet: Spreadsheet, text: str, values: list[list[Any]], option: str) -> dict[str, Any]:
    if option not in ("RAW", "USER_ENTERED"):
        raise ApiError(400, "INVALID_ARGUMENT", "Invalid valueInputOption: INPUT_VALUE_OPTION_UNSPECIFIED")
    title, (r0, c0, r1, c1) = _parse_range(text)
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
            stored = value if option == "RAW" else _user_entered(value)
            if stored == "":
                tab.cells.pop((r0 + r, c0 + c), None)
            else:
                tab.cells[(r0 + r, c0 + c)] = stored
    written = _a1(title, r0, c0, r0 + max(height - 1, 0), c0 + max(width - 1, 0))
    return {
        "spreadsheetId": sheet.key,
        "updatedRange": written,
        "updatedRows": height,
        "updatedColumns": width,
        "updatedCells": sum(len(row) for row in values),
    }


def _append(sheet: Spreadsheet, text: str, values: list[list[Any]], option: str) -> dict[str, Any]:
    title, (_, c0, _, _) = _parse_range(text)
    tab = sheet.tab(title)
    below = max((r for r, _ in tab.cells), default=-1) + 1
    tab.rows = max(tab.rows, below + len(values))  # append inserts rows as needed
    return {"spreadsheetId": sheet.key, "updates": _update(sheet, _a1(title, below, c0), values, option)}


def _clear(sheet: Spreadsheet, text: str) -> dict[str, Any]:
    title, (r0, c0, r1, c1) = _parse_range(text)
    tab = sheet.tab(title)
    for r, c in list(tab.cells):
        if r0 <= r <= (r1 if r1 is not None else r) and c0 <= c <= (c1 if c1 is not None else c):
            del tab.cells[(r, c)]
    return {"spreadsheetId": sheet.key, "clearedRange": text}


# --- cells and ranges ------------------------------------------------------------------------------


def _user_entered(value: Any) -> Any:
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


def _render(value: Any, option: str) -> Any:
    if isinstance(value, Formula):
        return value.text  # the fake computes nothing
    if isinstance(value, Formatted):
        return value.value if option == "UNFORMATTED_VALUE" else value.text
    if option == "UNFORMATTED_VALUE" or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _cell_data(value: Any) -> dict[str, Any]:
    """A CellData: what the cell holds, what it evaluates to, and how it shows; {} when empty."""
    if value == "":
        return {}
    underlying = value.value if isinstance(value, Formatted) else value
    entered = {"formulaValue": value.text} if isinstance(value, Formula) else _extended(underlying)
    effective = {"stringValue": value.text} if isinstance(value, Formula) else _extended(underlying)
    shown = _render(value, "FORMATTED_VALUE")
    return {"userEnteredValue": entered, "effectiveValue": effective, "formattedValue": shown}


def _extended(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int | float):
        return {"numberValue": value}
    return {"stringValue": str(value)}


# --- field masks (the ``fields`` parameter) --------------------------------------------------------

_FIELD_PATH = re.compile(r"[A-Za-z*]\w*(?:\.[A-Za-z*]\w*)*")
# The field names of the Spreadsheet resource the fake knows; Google refuses unknown ones.
_FIELD_NAMES = """
    spreadsheetId spreadsheetUrl properties sheets namedRanges developerMetadata dataSources title
    locale timeZone autoRecalc defaultFormat sheetId index sheetType gridProperties rowCount
    columnCount frozenRowCount frozenColumnCount hideGridlines hidden tabColor rightToLeft data
    startRow startColumn rowData values rowMetadata columnMetadata formattedValue effectiveValue
    userEnteredValue effectiveFormat userEnteredFormat numberFormat type pattern numberValue
    stringValue boolValue formulaValue errorValue note hyperlink textFormatRuns dataValidation
    pivotTable merges conditionalFormats filterViews protectedRanges basicFilter charts bandedRanges *
"""
_KNOWN_FIELDS = frozenset(_FIELD_NAMES.split())


def _mask(text: str) -> dict[str, Any]:
    """ "a.b,c(d,e(f))" -> {"a": {"b": {}}, "c": {"d": {}, "e": {"f": {}}}}; {} selects everything."""
    tree: dict[str, Any] = {}
    compact = "".join(text.split())
    if _parse_mask(compact, 0, tree) != len(compact):
        raise ApiError(400, "INVALID_ARGUMENT", f"Invalid field selection {text}")
    return tree


def _parse_mask(text: str, pos: int, tree: dict[str, Any]) -> int:
    while True:
        path = _FIELD_PATH.match(text, pos)
        if not path:
            raise ApiError(400, "INVALID_ARGUMENT", f"Invalid field selection {text}")
        node = tree
        for name in path.group().split("."):
            if name not in _KNOWN_FIELDS:
                raise ApiError(400, "INVALID_ARGUMENT", f"Invalid field selection {name}")
            node = node.setdefault(name, {})
        pos = path.end()
        if text.startswith("(", pos):
            pos = _parse_mask(text, pos + 1, node)
            if not text.startswith(")", pos):
                raise ApiError(400, "INVALID_ARGUMENT", f"Invalid field selection {text}")
            pos += 1
        if not text.startswith(",", pos):
            return pos
        pos += 1


def _select(value: Any, mask: Mapping[str, Any]) -> Any:
    if not mask or "*" in mask:
        return value
    if isinstance(value, list):
        return [_select(item, mask) for item in value]
    if isinstance(value, dict):
        return {name: _select(value[name], inner) for name, inner in mask.items() if name in value}
    return value


def _trim(
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


def _parse_range(text: str) -> tuple[str, tuple[int, int, int | None, int | None]]:
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


def _a1(title: str, r0: int, c0: int, r1: int | None = None, c1: int | None = None) -> str:
    def name(column: int) -> str:
        return name(column // 26 - 1) + chr(65 + column % 26) if column >= 26 else chr(65 + column)

    start = f"{name(c0)}{r0 + 1}"
    end = f":{name(c1)}{r1 + 1}" if r1 is not None and c1 is not None else ""
    return "'{}'!{}{}".format(title.replace("'", "''"), start, end)


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        reply = self.server.fake.handle(
            self.command, self.path, body, {k.lower(): v for k, v in self.headers.items()}
        )
        if reply.lose is not None:  # performed, but the client gets nothing: close the connection
            time.sleep(reply.lose)
            self.close_connection = True
            return
        if reply.html is not None:
            payload, kind = reply.html.encode(), "text/html; charset=UTF-8"
        else:
            payload, kind = json.dumps(reply.body).encode(), "application/json; charset=UTF-8"
        self.send_response(reply.status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(payload)))
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _serve

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeSheets


# --- fixtures --------------------------------------------------------------------------------------


@functools.cache
def _private_key_pem() -> str:
    """A throwaway RSA key (generated once per test run: it takes ~50 ms)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return pem.decode()


def service_account_info(token_uri: str) -> dict[str, str]:
    """A service-account key file's contents, shaped as Google's console writes it."""
    return {
        "type": "service_account",
        "project_id": "courier-test",
        "private_key_id": "0123456789abcdef",
        "private_key": _private_key_pem(),
        "client_email": SERVICE_ACCOUNT,
        "client_id": "100000000000000000001",
        "token_uri": token_uri,
    }


@contextlib.contextmanager
def serve_sheets() -> Iterator[FakeSheets]:
    """A fresh fake Sheets API in a thread while the block runs; ``.url`` is its base (``api_base``).
    The fixture uses it; so do benchmarks, outside pytest."""
    fake = FakeSheets()
    server = _Server(("127.0.0.1", 0), _Handler)
    server.fake = fake
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    # A short poll interval: shutdown() waits for the next poll (0.5 s by default).
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), name="fake-sheets", daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def write_credentials(path: Path, fake: FakeSheets) -> Path:
    """A service-account key file at ``path`` whose token_uri is the fake's /token. Callers also
    switch off google-auth's "regional access boundary" lookup (see ``sheets_credentials``)."""
    path.write_text(json.dumps(service_account_info(f"{fake.url}/token")), encoding="utf-8")
    return path


@pytest.fixture
def sheets_server() -> Iterator[FakeSheets]:
    """A fresh fake Sheets API; ``.url`` is its base (the ``api_base`` setting)."""
    with serve_sheets() as fake:
        yield fake


@pytest.fixture
def sheets_credentials(tmp_path: Path, sheets_server: FakeSheets, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A service-account key file whose token_uri is the fake's /token. google-auth would also look
    up the account's "regional access boundary" at iamcredentials.googleapis.com in the background:
    tests never touch the internet, so that lookup is switched off."""
    monkeypatch.setattr(
        service_account.Credentials, "_is_regional_access_boundary_lookup_required", lambda self: False
    )
    return write_credentials(tmp_path / "service-account.json", sheets_server)


@pytest.fixture
def sheets_settings(sheets_server: FakeSheets, sheets_credentials: Path) -> dict[str, Any]:
    """A deployment's ``[sheets]`` table pointing at the fake, with no waiting between retries."""
    return {"credentials_file": str(sheets_credentials), "api_base": sheets_server.url, "backoff": 0}
