"""The embedded workbook: a local .xlsx laid out like the game's Google Sheet (Config, Players, the
linked form's responses, and the public Ledger and History), so moving a game to Google changes the
backend and nothing else. Tabs and columns are found by their titles, never by position, in any of the
languages Google Forms names them in."""

from __future__ import annotations

import logging
import math
import re
import unicodedata
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime, time, timedelta
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

from courier.backends.base import FormResponse, SheetSnapshot, WorkbookError
from courier.backends.files import atomic_writer

__all__ = ["XlsxWorkbook", "write_config"]

log = logging.getLogger(__name__)

CONFIG_TAB, PLAYERS_TAB, RESPONSES_TAB = "Config", "Players", "Form Responses 1"
LEDGER_TAB, HISTORY_TAB = "Ledger", "History"
CONFIG_HEADERS = ("Key", "Value", "Note")
PLAYER_HEADERS = ("Name", "Email", "Nickname", "Role", "Secret")
RESPONSE_HEADERS = ("Timestamp", "Email Address", "Game", "Orders", "Secret")
# Placeholders until the first publish replaces both tabs with the game's own columns.
LEDGER_HEADERS = ("Round", "Player")
HISTORY_HEADERS = ("Round", "Phase", "Event")

# Titles Google gives the response tab of a linked form ("Form Responses 1", "Formularantworten 2"...),
# compared after _normalise (lower case, accents dropped).
RESPONSE_TAB_PREFIXES = (
    "form responses",
    "formularantworten",
    "reponses au formulaire",
    "respuestas de formulario",
)
# Column titles per field, best first; Google writes Timestamp/Email Address in the form's language,
# the questions are titled by the organiser.
RESPONSE_COLUMNS: dict[str, tuple[str, ...]] = {
    "timestamp": ("timestamp", "zeitstempel", "horodateur", "marca temporal"),
    "email": (
        "email address",
        "e-mail-adresse",
        "adresse e-mail",
        "direccion de correo electronico",
        "email",
        "e-mail",
    ),
    "game": ("game", "spiel", "partie", "jeu", "juego", "partida"),
    "orders": ("orders", "befehle", "ordres", "ordenes"),
    "secret": ("secret", "geheimnis", "secreto"),
}
PLAYER_COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("name", "player"),
    "email": ("email", "e-mail", "email address"),
    "nickname": ("nickname", "nick"),
    "role": ("role",),
    "secret": ("secret",),
}
CONFIG_COLUMNS: dict[str, tuple[str, ...]] = {"key": ("key",), "value": ("value",)}

EXAMPLE_CONFIG = (
    ("game", None, "Which game this workbook runs (e.g. truce)."),
    ("rounds", 10, "How many rounds the game lasts."),
    ("timezone", "UTC", "Time zone of the deadlines, e.g. Europe/Berlin or America/New_York."),
    ("deadlines", "20:00", "Time of day each round resolves (HH:MM in the time zone above)."),
    ("reminders", "12h, 1h", "Remind players who have not sent orders this long before a deadline."),
    ("early_resolution", "no", "yes: resolve a round as soon as every player has sent orders."),
)
EXAMPLE_PLAYERS = (
    ("Alice Example", "alice@example.org", "Alice", "", ""),
    ("Bob Example", "bob@example.org", "Bob", "", ""),
    ("Carol Example", "carol@example.org", "Carol", "", ""),
)

_SERIAL_EPOCH = datetime(1899, 12, 30)  # day 0 of spreadsheet serial dates (Lotus 1-2-3 leap-year bug)
_TEXT_TIMESTAMP_FORMATS = ("%d.%m.%Y %H:%M:%S", "%d.%m.%Y %H:%M")
_ZERO_PADDED = re.compile(r"^0+$")  # number formats like "00000" that display 1067 as 01067

Row = Sequence[Any]
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
        book = self._load(read_only=True)
        try:
            config = _read_config(_rows(self._tab(book, CONFIG_TAB)))
            players = _read_players(_rows(self._tab(book, PLAYERS_TAB)))
            responses = [
                response
                for sheet in book.worksheets
                if _is_responses_tab(sheet.title)
                for response in _read_responses(_rows(sheet), sheet.title, self.zone)
            ]
        finally:
            book.close()
        responses.sort(key=lambda r: r.timestamp)  # humans may sort the rows; time order is what counts
        return SheetSnapshot(config=config, players=players, responses=responses)

    def write_public(self, *, ledger: Sequence[Row], history: Sequence[Row]) -> None:
        book = self._load(read_only=False)
        for title, rows in ((LEDGER_TAB, ledger), (HISTORY_TAB, history)):
            sheet = _find_tab(book, title) or book.create_sheet(title)
            sheet.delete_rows(1, sheet.max_row)
            _fill(sheet, rows, self.zone)
        self._save(book)

    def init(self, *, game: str) -> None:
        exists = self.path.exists()
        book = self._load(read_only=False) if exists else _empty_book()
        changed = not exists
        examples = [(key, game if key == "game" else value, note) for key, value, note in EXAMPLE_CONFIG]
        for title, rows in _starter_tabs(
            config=[CONFIG_HEADERS, *examples], players=[PLAYER_HEADERS, *EXAMPLE_PLAYERS]
        ):
            if title == RESPONSES_TAB and any(_is_responses_tab(s.title) for s in book.worksheets):
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

    def _load(self, *, read_only: bool) -> Book:
        if not self.path.exists():
            raise WorkbookError(f"{self.path} does not exist; run `courier init`")
        try:
            # data_only: read what a person sees (a formula's last computed value), as Sheets does.
            return openpyxl.load_workbook(self.path, read_only=read_only, data_only=read_only)
        except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError) as e:
            raise WorkbookError(f"cannot open {self.path} as an .xlsx workbook: {e}") from e

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
    tabs = _starter_tabs(config=[CONFIG_HEADERS[:2], *config.items()], players=[PLAYER_HEADERS, *player_rows])
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


def _starter_tabs(*, config: list[Row], players: list[Row]) -> list[tuple[str, list[Row]]]:
    return [
        (CONFIG_TAB, config),
        (PLAYERS_TAB, players),
        (RESPONSES_TAB, [RESPONSE_HEADERS]),
        (LEDGER_TAB, [LEDGER_HEADERS]),
        (HISTORY_TAB, [HISTORY_HEADERS]),
    ]


def _find_tab(book: Book, title: str) -> Worksheet | None:
    wanted = _normalise(title)
    for sheet in book.worksheets:
        if _normalise(sheet.title) == wanted:
            return sheet
    return None


def _is_responses_tab(title: str) -> bool:
    return _normalise(title).startswith(RESPONSE_TAB_PREFIXES)


def _is_blank(sheet: Worksheet) -> bool:
    return all(cell.value in (None, "") for row in sheet.iter_rows() for cell in row)


def _fit_columns(sheet: Worksheet) -> None:
    for index, column in enumerate(sheet.columns, start=1):
        width = max(len(str(cell.value or "")) for cell in column)
        sheet.column_dimensions[get_column_letter(index)].width = min(max(width + 2, 10), 80)


# --- reading -------------------------------------------------------------------------------------


def _rows(sheet: Worksheet) -> list[list[Any]]:
    """Every row as (value, number format) pairs; read-only sheets yield lighter cell objects."""
    return [
        [(cell.value, getattr(cell, "number_format", "General")) for cell in row] for row in sheet.iter_rows()
    ]


def _columns(header_row: Sequence[Any], fields: Mapping[str, tuple[str, ...]]) -> dict[str, int]:
    """Column index per field, matched by title: an exact title first, else a title starting with
    one (so "Orders (one per line)" is the orders column)."""
    titles = [_normalise(_text(value, fmt)) for value, fmt in header_row]
    found = {field: _column(titles, aliases) for field, aliases in fields.items()}
    return {field: index for field, index in found.items() if index is not None}


def _column(titles: list[str], aliases: tuple[str, ...]) -> int | None:
    for alias in aliases:
        if alias in titles:
            return titles.index(alias)
    for alias in aliases:
        starts_with_alias = re.compile(rf"{re.escape(alias)}\b")
        for index, title in enumerate(titles):
            if starts_with_alias.match(title):
                return index
    return None


def _cells(row: Sequence[Any], columns: Mapping[str, int]) -> dict[str, Any]:
    return {field: row[i] if i < len(row) else (None, "General") for field, i in columns.items()}


def _read_config(rows: list[list[Any]]) -> dict[str, str]:
    columns = _columns(rows[0] if rows else [], CONFIG_COLUMNS)
    if len(columns) < 2:
        raise WorkbookError("the Config tab needs the headers Key and Value in row 1")
    config: dict[str, str] = {}
    for row in rows[1:]:
        cells = _cells(row, columns)
        key = _text(*cells["key"]).strip().lower()
        if key:
            config[key] = _text(*cells["value"]).strip()
    return config


def _read_players(rows: list[list[Any]]) -> list[dict[str, str]]:
    columns = _columns(rows[0] if rows else [], PLAYER_COLUMNS)
    if "name" not in columns or "email" not in columns:
        raise WorkbookError("the Players tab needs the headers Name and Email in row 1")
    players = []
    for row in rows[1:]:
        cells = _cells(row, columns)
        player = {field: _field(cells, field) for field in PLAYER_COLUMNS}
        if any(player.values()):
            player["email"] = player["email"].lower()
            players.append(player)
    return players


def _read_responses(rows: list[list[Any]], title: str, zone: ZoneInfo) -> Iterable[FormResponse]:
    if not rows or not any(value not in (None, "") for value, _ in rows[0]):
        return
    columns = _columns(rows[0], RESPONSE_COLUMNS)
    for needed in ("timestamp", "orders"):
        if needed not in columns:
            raise WorkbookError(f"the {title} tab has no {needed.title()} column in row 1")
    for number, row in enumerate(rows[1:], start=2):
        cells = _cells(row, columns)
        orders = _text(*cells["orders"])
        if not orders.strip():
            continue
        timestamp = _timestamp(cells["timestamp"][0], zone)
        if timestamp is None:
            log.warning("%s row %d: unreadable timestamp %r; skipped", title, number, cells["timestamp"][0])
            continue
        yield FormResponse(
            timestamp=timestamp,
            email=_field(cells, "email").lower(),
            game=_field(cells, "game"),
            orders=orders,
            secret=_field(cells, "secret"),
        )


def _field(cells: Mapping[str, Any], field: str) -> str:
    """A stripped text field; "" when the column is absent (optional columns may be)."""
    return _text(*cells[field]).strip() if field in cells else ""


def _text(value: object, number_format: str = "General") -> str:
    """A cell as the text a person sees: 1067 not 1067.0, text "01067" untouched, 20:00 not 20:00:00."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        fmt = number_format or ""
        return str(value).zfill(len(fmt)) if _ZERO_PADDED.match(fmt) else str(value)
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S" if value.second else "%Y-%m-%d %H:%M")
    if isinstance(value, time):
        return value.strftime("%H:%M:%S" if value.second else "%H:%M")
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def _timestamp(value: object, zone: ZoneInfo) -> datetime | None:
    """An aware time from a datetime cell, a serial number (days since 1899-12-30) or text; naive
    values are in ``zone``."""
    moment: datetime | None = None
    try:
        if isinstance(value, datetime):
            moment = value
        elif isinstance(value, date):
            moment = datetime.combine(value, time())
        elif isinstance(value, int | float) and not isinstance(value, bool):
            moment = _from_serial(value)
        elif isinstance(value, str):
            moment = _parse_text_timestamp(value.strip())
    except (ValueError, OverflowError):
        return None
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=zone)


def _from_serial(serial: float) -> datetime | None:
    if not math.isfinite(serial):
        return None
    # Whole milliseconds: a double serial carries ~1 µs of noise.
    return _SERIAL_EPOCH + timedelta(milliseconds=round(serial * 86_400_000))


def _parse_text_timestamp(text: str) -> datetime | None:
    """ISO (``2026-11-23 14:05:00``), German display format, or a serial number typed as text."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        pass
    for fmt in _TEXT_TIMESTAMP_FORMATS:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    return _from_serial(float(text))


def _normalise(title: str) -> str:
    """Lower case, accents dropped, spaces collapsed: "Dirección  de correo" ~ "direccion de correo"."""
    decomposed = unicodedata.normalize("NFKD", title)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


# --- writing -------------------------------------------------------------------------------------


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
