"""The embedded workbook: a local .xlsx laid out like the game's Google Sheet (Config, Players, the
linked form's responses, and the public Ledger and History), so moving a game to Google changes the
backend and nothing else. Tabs and columns are found by their titles, never by position, in any of the
languages Google Forms names them in."""

from __future__ import annotations

import logging
import math
import os
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import openpyxl
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.utils import get_column_letter
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.workbook.workbook import Workbook as Book
from openpyxl.worksheet.worksheet import Worksheet

from courier.backends.base import SheetSnapshot, WorkbookError
from courier.backends.files import ChangedMeanwhile, FileStamp, atomic_writer, changed_since
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
    column_widths,
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

log = logging.getLogger(__name__)

_UNREADABLE = (InvalidFileException, zipfile.BadZipFile, KeyError)  # what openpyxl raises on a bad file
_Loaded = TypeVar("_Loaded")
_ATTEMPTS = 3  # reads and writes of a file someone keeps saving, before the next tick tries again


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
        book = self._load()
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
        self._unless_saved_meanwhile(lambda: self._write_public(ledger, history, players))

    def _write_public(
        self, ledger: Sequence[Row], history: Sequence[Row], players: Mapping[str, Mapping[str, str]] | None
    ) -> None:
        if not players and self._replace_cells({LEDGER_TAB: ledger, HISTORY_TAB: history}):
            return
        book, read = self._load_to_write()
        for title, rows in ((LEDGER_TAB, ledger), (HISTORY_TAB, history)):
            sheet = _find_tab(book, title) or book.create_sheet(title)
            sheet.delete_rows(1, sheet.max_row)
            _fill(sheet, rows, self.zone)
            _fit_columns(sheet)
        if players:
            self._set_players(book, players)
        self._save(book, read)

    def update_players(self, changes: Mapping[str, Mapping[str, str]]) -> None:
        self._unless_saved_meanwhile(lambda: self._update_players(changes))

    def _update_players(self, changes: Mapping[str, Mapping[str, str]]) -> None:
        book, read = self._load_to_write()
        if self._set_players(book, changes):
            self._save(book, read)

    def _unless_saved_meanwhile(self, write: Callable[[], None]) -> None:
        """Run ``write`` (a read of the file, then its replacement) again when someone saved the file
        in between (an organiser editing Config while Courier writes the Ledger): their save stands,
        and Courier's change is made again on top of it. A file that keeps changing is left as they
        saved it; the next tick writes it."""
        for _ in range(_ATTEMPTS):
            try:
                write()
                return
            except ChangedMeanwhile as e:
                log.info("%s; reading it again", e)
        raise WorkbookError(
            f"{self.path} was saved by someone else each of the {_ATTEMPTS} times Courier wrote it;"
            " their saves stand, and the next tick writes the Ledger"
        )

    def _set_players(self, book: Book, changes: Mapping[str, Mapping[str, str]]) -> bool:
        """Set the Players cells ``changes`` names that differ; False when none does."""
        sheet = self._tab(book, PLAYERS_TAB)
        cells = player_cells(_table(sheet), changes)
        for (row, column), value in cells.items():
            _fill_cell(sheet.cell(row=row + 1, column=column + 1), value)
        return bool(cells)

    def init(self, *, game: str) -> None:
        self._unless_saved_meanwhile(lambda: self._init(game))

    def _init(self, game: str) -> None:
        exists = self.path.exists()
        book, read = self._load_to_write() if exists else (_empty_book(), None)
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
            self._save(book, read)

    def _load(self) -> Book:
        """Every tab but History (a read never needs it), as a person sees it: a formula's last
        computed value, as Sheets gives it."""
        return self._opened(lambda: read_without(self.path, HISTORY_TAB))

    def _load_to_write(self) -> tuple[Book, FileStamp]:
        """The whole workbook, and the stamp of the file it was read from (for ``_save``)."""
        return self._opened(self._read_whole)

    def _read_whole(self) -> tuple[Book, FileStamp]:
        with self.path.open("rb") as handle:
            read = FileStamp.of(os.fstat(handle.fileno()))
            try:
                return openpyxl.load_workbook(handle), read
            except _UNREADABLE as e:
                if changed_since(self.path, read):  # torn by a save in place while it was read
                    raise ChangedMeanwhile(f"{self.path} was saved by someone else while read") from e
                raise

    def _opened(self, load: Callable[[], _Loaded]) -> _Loaded:
        if not self.path.exists():
            raise WorkbookError(f"{self.path} does not exist; run `courier init`")
        try:
            return load()
        except (*_UNREADABLE, OSError) as e:
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

    def _save(self, book: Book, read: FileStamp | None) -> None:
        """Replace the file with ``book``, unless it changed since it was read (``read``)."""
        try:
            with atomic_writer(self.path, unless_changed_since=read) as file:
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
    """Each column as wide as its longest text (``column_widths``, as xlsx_tabs.py writes them)."""
    rows = [[cell.value for cell in row] for row in sheet.iter_rows()]
    for index, width in enumerate(column_widths(rows), start=1):
        sheet.column_dimensions[get_column_letter(index)].width = width


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
