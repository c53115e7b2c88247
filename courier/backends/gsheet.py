"""The game's Google Sheet, laid out like the local workbook (Config, Players, the linked form's
responses, Ledger, History) and read by the same rules (courier/backends/sheet_tables.py).

Quota (60 reads and 60 writes per minute per user) is spent sparingly:

- ``read`` is ONE ``spreadsheets.get`` whose field mask asks for the time zone, every tab's title and
  grid size, and every cell's formattedValue and effectiveValue (the mask makes the API include grid
  data; no ``ranges``, since naming a missing tab would fail the whole request). Ledger and History
  are read too, only for their extent, so that publishing can blank what a shorter ledger no longer
  covers;
- ``write_public`` is one ``values:batchUpdate`` (RAW) of both tabs, each padded with empty strings
  to the extent it had, so no stale row survives. When a tab is missing or its grid too small for
  the new rows, the same write is instead one ``spreadsheets.batchUpdate`` that adds or grows the
  tab and then sets the cells (``updateCells``): still one request. Called without a ``read`` it
  reads first.

Cells are read as the organiser sees them (formattedValue): a Config cell typed 20:00 that Sheets made
a time reads "20:00", a number formatted 00000 reads "01067". Form timestamps are read from the number
beneath (effectiveValue, a serial date) and converted in the spreadsheet's time zone, since their
display follows the spreadsheet's locale.

Every request goes through the tick's ``SheetsQuota`` (courier/backends/sheets_quota.py), one for
all games: it paces requests to the quota, waits after rate limits (429), timeouts (408), server
errors and lost answers with jittered, doubling backoff, and bounds the tick's waiting; a game it
does not reach, or whose request keeps failing, raises ``TransientError`` and nothing is lost (the
journal is the source of truth). Writes are safe to retry: values are written RAW to fixed ranges
(the same result twice), and when the answer to a ``spreadsheets.batchUpdate`` that adds a tab was
lost and its retry is refused because the tab "already exists", the sheet is read again: the tab
with the id this write chose means the write was done (Google applies a batchUpdate whole or not
at all). Every refusal becomes one line saying what to do (``_refusal``).
"""

from __future__ import annotations

import functools
import logging
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from datetime import time as clock_time
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import gspread
import requests
from google.auth.exceptions import RefreshError, TransportError
from google.auth.transport.requests import AuthorizedSession
from google.oauth2 import service_account
from gspread.utils import absolute_range_name

from courier.backends.base import SheetSnapshot, TransientError, WorkbookError
from courier.backends.gsheet_words import api_message, cause, error_reason, grant_error, status_line
from courier.backends.kinds import SHEETS, find_kind
from courier.backends.sheet_tables import (
    CONFIG_TAB,
    HISTORY_TAB,
    LEDGER_TAB,
    NARROWEST,
    PLAYERS_TAB,
    RESPONSES_TAB,
    Cell,
    Row,
    Shown,
    Table,
    column_letter,
    column_widths,
    example_tabs,
    find_title,
    is_responses_tab,
    parse_snapshot,
    player_cells,
    text,
)
from courier.backends.sheets_quota import Kind, SheetsQuota

__all__ = ["GOOGLE_API", "GoogleSheet"]

log = logging.getLogger(__name__)

GOOGLE_API = "https://sheets.googleapis.com"
SCOPES = ("https://www.googleapis.com/auth/spreadsheets",)
CREDENTIAL_ENV = ("COURIER_SHEETS_CREDENTIALS", "GOOGLE_APPLICATION_CREDENTIALS")
# Everything a tick needs in one spreadsheets.get (a mask naming sheets.data brings grid data).
READ_FIELDS = (
    "properties.timeZone,sheets(properties(sheetId,title,gridProperties(rowCount,columnCount)),"
    "data(startRow,startColumn,rowData(values(formattedValue,effectiveValue))))"
)
NEW_TAB_GRID = (1000, 26)  # rows, columns: what Google gives a tab made in the browser
RETRIED = frozenset({408, 429})  # with every 5xx: the request may go again (lost answers too)
TOKEN_URI = "https://oauth2.googleapis.com/token"

T = TypeVar("T")
_N = TypeVar("_N", int, float)
Extent = tuple[int, int]  # rows, columns
_BLANK: Cell = (None, "General")


@dataclass
class _Tab:
    sheet_id: int
    title: str
    grid: Extent


@dataclass
class _Metadata:
    zone: ZoneInfo
    tabs: dict[str, _Tab]  # by title as the sheet spells it

    def title(self, wanted: str) -> str | None:
        return find_title(self.tabs, wanted)


class GoogleSheet:
    """A ``Workbook`` over the Google Sheet ``key``, with the deployment's ``[sheets]`` settings:
    ``credentials_file`` (else the environment variables in ``CREDENTIAL_ENV``), ``api_base``
    (another server standing in for https://sheets.googleapis.com), ``timeout``, and the quota's
    (``SheetsQuota``). ``quota``: the tick's, shared by its games; else one of its own (``sleep``
    stands in for ``time.sleep`` in it)."""

    def __init__(
        self,
        key: str,
        settings: Mapping[str, Any],
        *,
        quota: SheetsQuota | None = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        self.key = key
        self._quota = SheetsQuota(settings, sleep=sleep) if quota is None else quota
        self._timeout = _number(settings, "timeout", float)
        self._key_file = _credentials_path(settings)
        credentials = _load_credentials(self._key_file)
        self._account = str(credentials.service_account_email)
        self._token_uri = str(getattr(credentials, "_token_uri", None) or TOKEN_URI)
        self._api_base = str(settings.get("api_base") or GOOGLE_API)
        session = _Session(credentials, api_base=settings.get("api_base"))
        self._api = gspread.Client(auth=credentials, session=session).http_client
        self._api.set_timeout(self._timeout)
        self._meta: _Metadata | None = None
        self._extents: dict[str, Extent] = {}  # Ledger and History as last read or written
        self._tables: dict[str, Table] | None = None  # every tab as last read
        self._widths: dict[str, list[int]] = {}  # public tabs' column widths as this set them

    # --- the Workbook protocol -------------------------------------------------------------------

    def read(self) -> SheetSnapshot:
        meta, tables = self._load()
        config, players = self._required(meta, CONFIG_TAB), self._required(meta, PLAYERS_TAB)
        return parse_snapshot(
            config=tables[config],
            players=tables[players],
            responses=[table for title, table in tables.items() if is_responses_tab(title)],
            zone=meta.zone,
            ledger=tables.get(meta.title(LEDGER_TAB) or LEDGER_TAB),
        )

    def write_public(
        self,
        *,
        ledger: Sequence[Row],
        history: Sequence[Row],
        players: Mapping[str, Mapping[str, str]] | None = None,
    ) -> None:
        meta = self._meta or self._load()[0]
        titles = [meta.title(LEDGER_TAB) or LEDGER_TAB, meta.title(HISTORY_TAB) or HISTORY_TAB]
        grids = {title: _grid(rows, meta.zone) for title, rows in zip(titles, (ledger, history), strict=True)}
        padded = {title: _pad(rows, self._extents.get(title, (0, 0))) for title, rows in grids.items()}
        cells = self._player_cells(players or {})
        widths = self._wider(grids)
        self._write(meta, padded, cells, widths=widths)
        self._remember(cells)
        self._extents.update((title, _extent(rows)) for title, rows in grids.items())
        self._widths.update(widths)

    def _wider(self, grids: Mapping[str, list[list[object]]]) -> dict[str, list[int]]:
        """The public tabs whose text now needs wider columns than what they held (a game's first
        Ledger, a substitute's longer name): each column's width (``column_widths``), set in the
        same write. A tab whose text fits what it held keeps its widths, and the write stays a
        plain values update."""
        wider: dict[str, list[int]] = {}
        for title, grid in grids.items():
            held = self._widths.get(title)
            if held is None:
                table = (self._tables or {}).get(title)
                held = column_widths([[text(v, f) for v, f in row] for row in table.rows]) if table else []
            need = column_widths(grid)
            if any(w > (held[i] if i < len(held) else NARROWEST) for i, w in enumerate(need)):
                wider[title] = need
        return wider

    def update_players(self, changes: Mapping[str, Mapping[str, str]]) -> None:
        cells = self._player_cells(changes)
        if cells:
            self._put({}, cells)
            self._remember(cells)

    def _remember(self, cells: Mapping[str, Mapping[tuple[int, int], str]]) -> None:
        """Cells just written, into the tabs as last read: a later change this tick compares with them."""
        for title, placed in cells.items():
            rows = (self._tables or {})[title].rows
            for (r, c), value in placed.items():
                rows.extend([] for _ in range(r + 1 - len(rows)))
                rows[r].extend([_BLANK] * (c + 1 - len(rows[r])))
                rows[r][c] = (value, "General") if value else _BLANK

    def _player_cells(
        self, changes: Mapping[str, Mapping[str, str]]
    ) -> dict[str, dict[tuple[int, int], str]]:
        """The Players cells to set, found in the tab as this tick read it (read now if it has not)."""
        if not changes:
            return {}
        meta, tables = (self._meta, self._tables) if self._meta and self._tables else self._load()
        title = self._required(meta, PLAYERS_TAB)
        cells = player_cells(tables[title], changes)
        return {title: cells} if cells else {}

    def init(self, *, game: str) -> None:
        meta, tables = self._load()
        has_form = any(is_responses_tab(title) for title in meta.tabs)
        wanted = [
            (title, rows) for title, rows in example_tabs(game) if not (title == RESPONSES_TAB and has_form)
        ]
        grids: dict[str, list[list[object]]] = {}
        for title, rows in wanted:
            found = meta.title(title)
            if found is None or not tables[found].rows:  # missing or blank: never overwrite data
                grids[found or title] = _grid(rows, meta.zone)
        if not grids:
            return
        self._write(meta, grids)
        log.info("%s: wrote the starter rows of %s", self.key, ", ".join(grids))

    # --- requests ----------------------------------------------------------------------------------

    def _load(self) -> tuple[_Metadata, dict[str, Table]]:
        """The whole spreadsheet in one ``spreadsheets.get``: tabs, time zone and every cell, with
        what each tab extends to (for ``write_public``)."""
        params: dict[str, Any] = {"includeGridData": "true", "fields": READ_FIELDS}
        raw = self._call("read", lambda: self._api.fetch_sheet_metadata(self.key, params=params))
        self._meta = _parse_metadata(self.key, raw)
        tables = {str(sheet["properties"]["title"]): _parse_table(sheet) for sheet in raw.get("sheets", [])}
        self._extents = {title: _extent(table.rows) for title, table in tables.items()}
        self._tables = tables
        return self._meta, tables

    def _required(self, meta: _Metadata, wanted: str) -> str:
        title = meta.title(wanted)
        if title is None:
            raise WorkbookError(f"the sheet {self.key} has no {wanted} tab; run `courier init`")
        return title

    def _write(
        self,
        meta: _Metadata,
        grids: Mapping[str, list[list[object]]],
        cells: Mapping[str, Mapping[tuple[int, int], object]] | None = None,
        *,
        widths: Mapping[str, list[int]] | None = None,
    ) -> None:
        """Every grid from A1 in ONE request: a RAW ``values:batchUpdate`` when the tabs exist and
        are big enough; else one ``spreadsheets.batchUpdate`` that adds or grows them (or sets
        columns' ``widths``, in characters) and then writes the cells (its requests apply in order,
        all or none), so even the first publication costs one write."""
        cells, widths = cells or {}, widths or {}
        new_tabs, changes = self._room(meta, {title: _extent(grid) for title, grid in grids.items()})
        if not changes and not widths:
            self._put(grids, cells)
            return
        tabs = {**meta.tabs, **new_tabs}
        changes += [
            _column_width(tabs[title].sheet_id, column, width)
            for title, need in widths.items()
            for column, width in enumerate(need)
        ]
        writes = [_update_cells(tabs[title].sheet_id, grid) for title, grid in grids.items() if grid]
        writes += [
            _update_cells(tabs[title].sheet_id, [[value]], at=at)
            for title, placed in cells.items()
            for at, value in sorted(placed.items())
        ]
        try:
            self._call("write", lambda: self._api.batch_update(self.key, {"requests": changes + writes}))
        except _LostAnswer as e:
            self._landed(new_tabs, e)
            return
        for tab in new_tabs.values():
            self._extents[tab.title] = (0, 0)
        meta.tabs.update(new_tabs)
        for title, grid in grids.items():
            rows, columns = _extent(grid)
            tab = meta.tabs[title]
            tab.grid = (max(tab.grid[0], rows), max(tab.grid[1], columns))

    def _room(
        self, meta: _Metadata, needs: Mapping[str, Extent]
    ) -> tuple[dict[str, _Tab], list[dict[str, Any]]]:
        """The tabs to add (with ids chosen here, so cells can be written in the same request) and
        the requests that add missing tabs and grow grids too small for ``needs``."""
        new_tabs: dict[str, _Tab] = {}
        changes: list[dict[str, Any]] = []
        taken = {tab.sheet_id for tab in meta.tabs.values()}
        for title, (rows, columns) in needs.items():
            tab = meta.tabs.get(title)
            if tab is None:
                sheet_id = min(set(range(1, len(taken) + 2)) - taken)
                taken.add(sheet_id)
                size = (max(rows, NEW_TAB_GRID[0]), max(columns, NEW_TAB_GRID[1]))
                new_tabs[title] = _Tab(sheet_id, title, size)
                grid = {"rowCount": size[0], "columnCount": size[1]}
                properties = {"sheetId": sheet_id, "title": title, "gridProperties": grid}
                changes.append({"addSheet": {"properties": properties}})
                continue
            for dimension, have, need in (("ROWS", tab.grid[0], rows), ("COLUMNS", tab.grid[1], columns)):
                if need > have:
                    grow = {"sheetId": tab.sheet_id, "dimension": dimension, "length": need - have}
                    changes.append({"appendDimension": grow})
        return new_tabs, changes

    def _put(
        self,
        grids: Mapping[str, list[list[object]]],
        cells: Mapping[str, Mapping[tuple[int, int], object]] | None = None,
    ) -> None:
        """Every grid from A1, and single cells, in one RAW ``values:batchUpdate``: typed text
        stays text."""
        data = [
            {"range": absolute_range_name(title, f"A1:{column_letter(columns - 1)}{rows}"), "values": grid}
            for title, grid in grids.items()
            for rows, columns in [_extent(grid)]
            if rows
        ]
        data += [
            {"range": absolute_range_name(title, f"{column_letter(c)}{r + 1}"), "values": [[value]]}
            for title, placed in (cells or {}).items()
            for (r, c), value in sorted(placed.items())
        ]
        if data:
            body = {"valueInputOption": "RAW", "data": data}
            self._call("write", lambda: self._api.values_batch_update(self.key, body))

    def _landed(self, new_tabs: Mapping[str, _Tab], refusal: _LostAnswer) -> None:
        """The answer to this batchUpdate was lost and its retry refused (a tab "already exists"):
        read the sheet again. Every tab it adds there with the id it chose means the lost request
        was done, cells and all (Google applies a batchUpdate whole or not at all)."""
        meta, _ = self._load()
        found = [meta.tabs.get(title) for title in new_tabs]
        if new_tabs and all(tab and tab.sheet_id == new_tabs[tab.title].sheet_id for tab in found):
            log.info("%s: the write whose answer was lost had been done", self.key)
            return
        raise TransientError(
            f"Google Sheets {self.key}: a write whose answer was lost was refused when tried again"
            f" ({refusal}); the next tick writes it"
        )

    def _call(self, kind: Kind, request: Callable[[], T]) -> T:
        """``request()`` within the tick's quota, tried again after a rate limit, a timeout, a
        server error or a lost answer for as long as the quota allows."""
        attempts, lost = 0, False
        while True:
            self._quota.take(kind)
            attempts += 1
            try:
                answer = request()
            except gspread.exceptions.APIError as e:
                status = e.response.status_code
                if status not in RETRIED and status < 500:
                    refusal = self._refusal(status, e)
                    raise (_LostAnswer(str(refusal)) if lost else refusal) from e
                problem, lost = status_line(e), lost or status != 429  # a 5xx may have been done
            except RefreshError as e:
                if not e.retryable:
                    raise WorkbookError(self._key_refused(e)) from e
                problem = f"Google's token endpoint {self._token_uri} failed: {grant_error(e)}"
            except TransportError as e:  # google-auth's own: only its token requests raise it
                problem = f"cannot reach Google's token endpoint {self._token_uri}: {cause(e)}"
            except requests.Timeout:
                problem, lost = f"no answer from Google Sheets within {self._timeout:g} s", True
            except requests.ConnectionError as e:
                problem, lost = f"cannot reach Google Sheets {self._api_base}: {cause(e)}", True
            else:
                self._quota.succeeded()
                return answer
            log.info("%s: %s (attempt %d)", self.key, problem, attempts)
            if not self._quota.failed(problem):
                gave_up = f"Google Sheets {self.key}: {problem}; gave up after {attempts} attempts"
                raise TransientError(gave_up)

    def _refusal(self, status: int, error: gspread.exceptions.APIError) -> WorkbookError:
        """What the organiser can do about a refusal, in one line."""
        message, reason = api_message(error), error_reason(error)
        if status == 404:
            return WorkbookError(f"no spreadsheet {self.key}; check the sheet key in the config")
        if status == 403 and (reason == "ACCESS_TOKEN_SCOPE_INSUFFICIENT" or "scopes" in message):
            return WorkbookError(
                f"the credentials in {self._key_file} lack the spreadsheets scope ({SCOPES[0]}):"
                " Google refused them for the sheet; use a service-account key, or grant that scope"
            )
        disabled = reason == "SERVICE_DISABLED" or "has not been used" in message or "disabled" in message
        if status == 403 and disabled:
            return WorkbookError(f"enable the Google Sheets API for {self._account}'s project: {message}")
        if status == 403:
            return WorkbookError(
                f"the sheet {self.key} is not shared with the service account {self._account}; "
                "share it with that address as an editor"
            )
        if status == 400 and error.error.get("status") == "FAILED_PRECONDITION":
            return WorkbookError(
                f"the sheet {self.key} is an uploaded Excel file, which the Sheets API cannot use: convert it"
                " to a Google Sheet (File → Save as Google Sheets) and put the new sheet's key in the config"
            )
        if status == 401:
            return WorkbookError(f"Google rejected the credentials in {self._key_file}: {message}")
        return WorkbookError(f"Google Sheets {self.key} refused a request ({status_line(error)})")

    def _key_refused(self, error: RefreshError) -> str:
        words = grant_error(error)
        hint = ""
        if words.startswith("invalid_grant"):
            hint = "; the key may have been deleted or disabled, or this machine's clock is wrong"
        return f"Google refused the service-account key {self._key_file}: {words}{hint}"


class _LostAnswer(WorkbookError):
    """A request refused when tried again after its first answer was lost: it may have been done."""


class _Session(AuthorizedSession):
    """An authorised session that can send the Sheets API to another server (tests, proxies)."""

    def __init__(self, credentials: service_account.Credentials, *, api_base: str | None) -> None:
        super().__init__(credentials)  # type: ignore[no-untyped-call]
        self._api_base = api_base.rstrip("/") if api_base else None

    def request(self, method: str, url: str, *args: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        if self._api_base and url.startswith(GOOGLE_API):
            url = self._api_base + url[len(GOOGLE_API) :]
        response: requests.Response = super().request(method, url, *args, **kwargs)  # type: ignore[no-untyped-call]
        return response


# --- credentials and metadata ------------------------------------------------------------------------


def _number(settings: Mapping[str, Any], key: str, kind: Callable[[Any], _N]) -> _N:
    """``[sheets] key`` as a number (text of digits is taken too), its default from the kinds table."""
    value = settings.get(key, find_kind(SHEETS, "gsheet").default(key))
    try:
        return kind(value)
    except (TypeError, ValueError):
        raise WorkbookError(f"[sheets] {key} must be a number, not {value!r}") from None


def _credentials_path(settings: Mapping[str, Any]) -> Path:
    if settings.get("credentials_file"):
        return Path(settings["credentials_file"])
    for name in CREDENTIAL_ENV:
        if os.environ.get(name):
            return Path(os.environ[name])
    raise WorkbookError(
        "Google Sheets needs a service-account key: set [sheets] credentials_file "
        f"or the environment variable {CREDENTIAL_ENV[0]}"
    )


def _load_credentials(path: Path) -> service_account.Credentials:
    try:
        stamp = path.stat().st_mtime_ns
    except OSError as e:
        raise WorkbookError(f"cannot read the service-account key {path}: {e.strerror}") from e
    return _cached_credentials(str(path), stamp)


@functools.lru_cache(maxsize=8)
def _cached_credentials(path: str, stamp: int) -> service_account.Credentials:
    """One credential per key file (and version of it), so every game of a tick shares one token."""
    try:
        credentials: service_account.Credentials = service_account.Credentials.from_service_account_file(  # type: ignore[no-untyped-call]
            path, scopes=SCOPES
        )
        return credentials
    except (OSError, ValueError, TypeError, KeyError) as e:
        raise WorkbookError(f"{path} is not a usable service-account key: {e}") from e


def _parse_metadata(key: str, raw: Mapping[str, Any]) -> _Metadata:
    zone_name = raw.get("properties", {}).get("timeZone", "UTC")
    try:
        zone = ZoneInfo(zone_name)
    except (ZoneInfoNotFoundError, ValueError) as e:
        raise WorkbookError(f"the sheet {key} has the time zone {zone_name!r}, which is unknown here") from e
    tabs = [_parse_tab(sheet["properties"]) for sheet in raw.get("sheets", [])]
    return _Metadata(zone, {tab.title: tab for tab in tabs})


def _parse_tab(properties: Mapping[str, Any]) -> _Tab:
    grid = properties.get("gridProperties", {})
    size = (int(grid.get("rowCount", NEW_TAB_GRID[0])), int(grid.get("columnCount", NEW_TAB_GRID[1])))
    return _Tab(int(properties.get("sheetId", 0)), str(properties["title"]), size)


def _parse_table(sheet: Mapping[str, Any]) -> Table:
    """A tab's cells from its grid data, placed where each block starts, trailing blanks trimmed."""
    cells: dict[tuple[int, int], Cell] = {}
    for block in sheet.get("data", []):
        top, left = int(block.get("startRow", 0)), int(block.get("startColumn", 0))
        for r, row in enumerate(block.get("rowData", [])):
            for c, data in enumerate(row.get("values", [])):
                cell = _cell(data)
                if cell[0] is not None:
                    cells[(top + r, left + c)] = cell
    height = max((r + 1 for r, _ in cells), default=0)
    rows: list[list[Cell]] = [[] for _ in range(height)]
    for (r, c), cell in sorted(cells.items()):
        rows[r].extend([_BLANK] * (c - len(rows[r])))
        rows[r].append(cell)
    return Table(str(sheet["properties"]["title"]), rows)


def _cell(data: Mapping[str, Any]) -> Cell:
    """One CellData as the organiser sees it, with the value beneath; blank when it shows nothing."""
    effective = data.get("effectiveValue", {})
    value = next((effective[k] for k in ("numberValue", "stringValue", "boolValue") if k in effective), None)
    shown = data.get("formattedValue")
    if shown is None and value is not None:
        shown = text(value)
    return (Shown(str(shown), value), "General") if shown else _BLANK


# --- values --------------------------------------------------------------------------------------------


def _extent(rows: Sequence[Sequence[object]]) -> Extent:
    return len(rows), max((len(row) for row in rows), default=0)


def _grid(rows: Sequence[Row], zone: ZoneInfo) -> list[list[object]]:
    return [[_literal(value, zone) for value in row] for row in rows]


def _update_cells(sheet_id: int, grid: list[list[object]], *, at: tuple[int, int] = (0, 0)) -> dict[str, Any]:
    """An updateCells request writing ``grid`` from ``at`` (row, column; A1 by default) as RAW
    writes it: text stays text (a stringValue is never a formula), an empty string empties the cell."""
    rows = [{"values": [_cell_data(value) for value in row]} for row in grid]
    start = {"sheetId": sheet_id, "rowIndex": at[0], "columnIndex": at[1]}
    return {"updateCells": {"start": start, "rows": rows, "fields": "userEnteredValue"}}


def _column_width(sheet_id: int, column: int, width: int) -> dict[str, Any]:
    """An updateDimensionProperties request: one column ``width`` characters wide (Google's default
    column, 100 pixels, holds about 12)."""
    span = {"sheetId": sheet_id, "dimension": "COLUMNS", "startIndex": column, "endIndex": column + 1}
    pixels = max(100, 8 * width)
    return {
        "updateDimensionProperties": {
            "range": span,
            "properties": {"pixelSize": pixels},
            "fields": "pixelSize",
        }
    }


def _cell_data(value: object) -> dict[str, Any]:
    if value == "" or value is None:
        return {}
    if isinstance(value, bool):
        return {"userEnteredValue": {"boolValue": value}}
    if isinstance(value, int | float):
        return {"userEnteredValue": {"numberValue": value}}
    return {"userEnteredValue": {"stringValue": str(value)}}


def _pad(rows: list[list[object]], old: Extent) -> list[list[object]]:
    """A rectangle covering both the new rows and the old extent, blanks as empty strings."""
    height, width = _extent(rows)
    height, width = max(height, old[0]), max(width, old[1])
    padded = [row + [""] * (width - len(row)) for row in rows]
    return padded + [[""] * width for _ in range(height - len(rows))]


def _literal(value: object, zone: ZoneInfo) -> object:
    """A JSON value the API stores as it is (RAW): numbers, booleans, text; times as local text."""
    if value is None:
        return ""
    if isinstance(value, bool | int):
        return value
    if isinstance(value, float | Decimal):
        number = float(value)
        return number if math.isfinite(number) else str(value)
    if isinstance(value, datetime):
        return text(value.astimezone(zone).replace(tzinfo=None) if value.tzinfo else value)
    if isinstance(value, date | clock_time):
        return text(value)
    return str(value)
