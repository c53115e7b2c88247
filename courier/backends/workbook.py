"""The embedded workbook: a local .xlsx laid out like the game's Google Sheet (Config, Players, the
linked form's responses, and the public Ledger and History), so moving a game to Google changes the
backend and nothing else. Tabs and columns are found by their titles, never by position, in any of the
languages Google Forms names them in."""

from __future__ import annotations

import math
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import openpyxl
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.utils import get_column_letter
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.workbook.workbook import Workbook as Book
from openpyxl.worksheet.worksheet import Worksheet

from courier.backends.base import SheetSnapshot, WorkbookError
from courier.backends.files import atomic_writer
from courier.backends.sheet_tables import (
    CONFIG_HEADERS,
    CONFIG_TAB,
    HISTORY_TAB,
    LEDGER_TAB,
    PLAYER_HEADERS,
    PLAYERS_TAB,
    RESPONSES_TAB,
    Cell,
    Row,
    Table,
    example_tabs,
    find_title,
    is_responses_tab,
    parse_snapshot,
    player_cells,
    starter_tabs,
)
from courier.backends.xlsx_tabs import read_without, replace_cells

__all__ = ["XlsxWorkbook", "write_config"]

CellValue = bool | int | float | Decimal | str | datetime | date | time | None


class XlsxWorkbook:
    """A ``Workbook`` over a local .xlsx file. ``timezone`` is the zone of naive times in the file
    (the role a Google spreadsheet's own time zone plays)."""

    def __init__(self, path: Path, *, timezone: str = "UTC") -> None:
        self.path = Path(path)
        try:
            self.zone = ZoneInfo(timezone)
        except (ZoneInfoNotFoundError, ValueError) as e:
            raise WorkbookError(f"unknown time zone {timezone!r} for {self.path.name}") from e

    def read(self) -> SheetSnapshot:
        book = self._load(read_only=True, without=HISTORY_TAB)
        try:
            return parse_snapshot(
                config=_table(self._tab(book, CONFIG_TAB)),
                players=_table(self._tab(book, PLAYERS_TAB)),
                responses=[_table(sheet) for sheet in book.worksheets if is_responses_tab(sheet.title)],
                zone=self.zone,
                ledger=_table(ledger) if (ledger := _find_tab(book, LEDGER_TAB)) else None,
            )
        finally:
            book.close()

    def write_public(
        self,
        *,
        ledger: Sequence[Row],
        history: Sequence[Row],
        players: Mapping[str, Mapping[str, str]] | None = None,
    ) -> None:
        if not players and self._replace_cells({LEDGER_TAB: ledger, HISTORY_TAB: history}):
            return
        book = self._load(read_only=False)
        for title, rows in ((LEDGER_TAB, ledger), (HISTORY_TAB, history)):
            sheet = _find_tab(book, title) or book.create_sheet(title)
            sheet.delete_rows(1, sheet.max_row)
            _fill(sheet, rows, self.zone)
        if players:
            self._set_players(book, players)
        self._save(book)

    def update_players(self, changes: Mapping[str, Mapping[str, str]]) -> None:
        book = self._load(read_only=False)
        if self._set_players(book, changes):
            self._save(book)

    def _set_players(self, book: Book, changes: Mapping[str, Mapping[str, str]]) -> bool:
        """Set the Players cells ``changes`` names that differ; False when none does."""
        sheet = self._tab(book, PLAYERS_TAB)
        cells = player_cells(_table(sheet), changes)
        for (row, column), value in cells.items():
            _fill_cell(sheet.cell(row=row + 1, column=column + 1), value)
        return bool(cells)

    def init(self, *, game: str) -> None:
        exists = self.path.exists()
        book = self._load(read_only=False) if exists else _empty_book()
        changed = not exists
        for title, rows in example_tabs(game):
            if title == RESPONSES_TAB and any(is_responses_tab(s.title) for s in book.worksheets):
                continue
            sheet = _find_tab(book, title)
            if sheet is None:
                sheet = book.create_sheet(title)
            elif not _is_blank(sheet):
                continue
            _fill(sheet, rows, self.zone)
            _fit_columns(sheet)
            changed = True
        if changed:
            self._save(book)

    def _load(self, *, read_only: bool, without: str | None = None) -> Book:
        if not self.path.exists():
            raise WorkbookError(f"{self.path} does not exist; run `courier init`")
        try:
            if without is not None:  # read-only, the tab left out (a read never needs History)
                return read_without(self.path, without)
            # data_only: read what a person sees (a formula's last computed value), as Sheets does.
            return openpyxl.load_workbook(self.path, read_only=read_only, data_only=read_only)
        except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError) as e:
            raise WorkbookError(f"cannot open {self.path} as an .xlsx workbook: {e}") from e

    def _replace_cells(self, tabs: Mapping[str, Sequence[Row]]) -> bool:
        """The quick way: only these tabs' parts of the file are rewritten (xlsx_tabs.py)."""
        if not self.path.exists():
            raise WorkbookError(f"{self.path} does not exist; run `courier init`")
        try:
            return replace_cells(self.path, tabs)
        except (zipfile.BadZipFile, OSError) as e:
            raise WorkbookError(f"cannot rewrite {self.path}: {e}") from e

    def _tab(self, book: Book, title: str) -> Worksheet:
        sheet = _find_tab(book, title)
        if sheet is None:
            raise WorkbookError(f"{self.path.name} has no {title} tab; run `courier init`")
        return sheet

    def _save(self, book: Book) -> None:
        try:
            with atomic_writer(self.path) as file:
                book.save(file)
        except OSError as e:
            raise WorkbookError(f"cannot save {self.path}: {e}") from e


def write_config(path: Path, config: Mapping[str, str], players: Sequence[Mapping[str, str]]) -> None:
    """Create (or replace) the workbook at ``path`` with these settings and players and empty
    response, Ledger and History tabs. For ``courier demo`` and tests."""
    player_rows = [[player.get(header.lower(), "") for header in PLAYER_HEADERS] for player in players]
    tabs = starter_tabs(config=[CONFIG_HEADERS[:2], *config.items()], players=[PLAYER_HEADERS, *player_rows])
    book = _empty_book()
    for title, rows in tabs:
        _fill(book.create_sheet(title), rows, ZoneInfo("UTC"))
    with atomic_writer(Path(path)) as file:
        book.save(file)


# --- tabs ----------------------------------------------------------------------------------------


def _empty_book() -> Book:
    book = openpyxl.Workbook()
    book.remove(book.worksheets[0])
    return book


def _find_tab(book: Book, title: str) -> Worksheet | None:
    found = find_title(book.sheetnames, title)
    return None if found is None else book[found]


def _is_blank(sheet: Worksheet) -> bool:
    return all(cell.value in (None, "") for row in sheet.iter_rows() for cell in row)


def _fit_columns(sheet: Worksheet) -> None:
    for index, column in enumerate(sheet.columns, start=1):
        width = max(len(str(cell.value or "")) for cell in column)
        sheet.column_dimensions[get_column_letter(index)].width = min(max(width + 2, 10), 80)


# --- reading -------------------------------------------------------------------------------------


def _table(sheet: Worksheet) -> Table:
    """Every row as (value, number format) pairs; read-only sheets yield lighter cell objects."""
    rows: list[list[Cell]] = [
        [(cell.value, getattr(cell, "number_format", "General")) for cell in row] for row in sheet.iter_rows()
    ]
    return Table(sheet.title, rows)


# --- writing -------------------------------------------------------------------------------------


def _fill_cell(cell: Any, value: str) -> None:
    cell.value = value
    cell.data_type = "s"  # a typed text stays text, "=…" included


def _fill(sheet: Worksheet, rows: Iterable[Row], zone: ZoneInfo) -> None:
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row, start=1):
            literal = _literal(value, zone)
            cell = sheet.cell(row=r, column=c)
            cell.value = literal
            if isinstance(literal, str):
                # openpyxl turns "=..." into a formula and "#N/A" into an error; a player's text stays text.
                cell.data_type = "s"


def _literal(value: object, zone: ZoneInfo) -> CellValue:
    """``value`` as openpyxl can store it, changing nothing a reader would see as data."""
    if value is None or isinstance(value, bool | int | Decimal):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, datetime):  # Excel has no time zones: show the workbook's local time
        return value.astimezone(zone).replace(tzinfo=None) if value.tzinfo else value
    if isinstance(value, date | time):
        return value
    # Control characters make openpyxl refuse the whole save; one odd name must not block publishing.
    return ILLEGAL_CHARACTERS_RE.sub("\ufffd", str(value))
