"""How a game's workbook is laid out and read, whatever stores it (a local .xlsx or a Google Sheet):
tabs and columns are found by their titles, never by position, in any of the languages Google Forms
names them in; cells are read as the text a person sees."""

from __future__ import annotations

import logging
import random
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any
from zoneinfo import ZoneInfo

from courier.backends.base import FormResponse, SheetSnapshot, WorkbookError
from courier.backends.form_times import day_first, from_serial, parse_time_text
from engine import find_ruleset
from engine.core import Exemplified

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
# compared after normalise (lower case, accents dropped).
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
    ("timezone", "UTC", "Time zone of the deadlines, e.g. Europe/Berlin or America/New_York."),
    ("deadlines", "20:00", "Time of day each round resolves (HH:MM in the time zone above)."),
    ("reminders", "12h, 1h", "Remind players who have not sent orders this long before a deadline."),
    ("early_resolution", "no", "yes: resolve a round as soon as every player has sent orders."),
)
# Each game's own settings, written after `game` (a game not listed has none to suggest).
# ``courier init`` writes as many as the game needs to start (at least three).
EXAMPLE_PLAYERS = tuple(
    (f"{name} Example", f"{name.lower()}@example.org", name, "", "")
    for name in ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi")
)

_ZERO_PADDED = re.compile(r"^0+$")  # number formats like "00000" that display 1067 as 01067

Row = Sequence[Any]
# A cell as (value, number format); Google's cells come as a ``Shown`` value with "General".
Cell = tuple[Any, str]
_EMPTY: Cell = (None, "General")


@dataclass(frozen=True)
class Shown:
    """A cell as a spreadsheet service renders it: ``text`` as the organiser sees it (Google's
    formattedValue: "20:00" for a time, "01067" for 1067 formatted 00000) and the ``value`` beneath
    (a number, text or boolean; None for an error), from which times are read (a serial number)."""

    text: str
    value: object


@dataclass(frozen=True)
class Table:
    """One tab's cells, row 1 first, with the tab's title as the workbook spells it."""

    title: str
    rows: list[list[Cell]]


def starter_tabs(*, config: list[Row], players: list[Row]) -> list[tuple[str, list[Row]]]:
    return [
        (CONFIG_TAB, config),
        (PLAYERS_TAB, players),
        (RESPONSES_TAB, [RESPONSE_HEADERS]),
        (LEDGER_TAB, [LEDGER_HEADERS]),
        (HISTORY_TAB, [HISTORY_HEADERS]),
    ]


def example_tabs(game: str) -> list[tuple[str, list[Row]]]:
    """What ``init`` writes into a new workbook: headers, explained settings (the game's own keys
    after ``game``) and as many players as the game needs to start, three at least."""
    (_, _, note), *shell = EXAMPLE_CONFIG
    examples = [("game", game, note), *_game_keys(game), *shell]
    players = EXAMPLE_PLAYERS[: _fewest_players(game)]
    return starter_tabs(config=[CONFIG_HEADERS, *examples], players=[PLAYER_HEADERS, *players])


def _fewest_players(game: str) -> int:
    """The fewest example players (three at least) the game starts with, asked of its own setup
    with its default settings (Talossan RISK: 4 conquerors); three for a game Courier does not know."""
    try:
        ruleset = find_ruleset(game)
    except KeyError:
        return 3
    for count in range(3, len(EXAMPLE_PLAYERS) + 1):
        try:
            ruleset.setup([p[2] for p in EXAMPLE_PLAYERS[:count]], {}, random.Random(0))
        except ValueError:
            continue
        return count
    return len(EXAMPLE_PLAYERS)


def _game_keys(game: str) -> list[Row]:
    """The game's own example settings (Truce: ``rounds``; Monarchs: ``turns``, ``mode``)."""
    try:
        ruleset = find_ruleset(game)
    except KeyError:
        return []  # the tick names the unknown game in the organiser's mail
    return list(ruleset.example_config) if isinstance(ruleset, Exemplified) else []


def find_title(titles: Iterable[str], wanted: str) -> str | None:
    """The title among ``titles`` that names the tab ``wanted`` (case, accents and spacing aside)."""
    target = normalise(wanted)
    return next((title for title in titles if normalise(title) == target), None)


def is_responses_tab(title: str) -> bool:
    return normalise(title).startswith(RESPONSE_TAB_PREFIXES)


def normalise(title: str) -> str:
    """Lower case, accents dropped, spaces collapsed: "Dirección  de correo" ~ "direccion de correo"."""
    decomposed = unicodedata.normalize("NFKD", title)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


# A public tab's column is as wide as its longest text (a player's name, a round's label), within
# these bounds in characters: the narrowest keeps a number readable, the widest wraps a long line.
NARROWEST, WIDEST = 10, 80


def column_widths(rows: Sequence[Sequence[object]]) -> list[int]:
    """Each column's width in characters for the Ledger and History tabs (issue 29: names were cut)."""
    widths: list[int] = []
    for row in rows:
        widths.extend([NARROWEST] * (len(row) - len(widths)))
        for i, value in enumerate(row):
            if value is not None and value != "":
                widths[i] = max(widths[i], min(len(str(value)) + 2, WIDEST))
    return widths


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, remainder = divmod(index - 1, 26)
        letters = chr(ord("A") + remainder) + letters
    return letters


# --- reading -------------------------------------------------------------------------------------


def parse_snapshot(
    *, config: Table, players: Table, responses: Iterable[Table], zone: ZoneInfo, ledger: Table | None = None
) -> SheetSnapshot:
    """The snapshot a tick works from; naive times in the form tabs are in ``zone``."""
    settings, cells = _read_config(config)
    people, rows = _read_players(players)
    skipped: list[str] = []
    answers = [answer for table in responses for answer in _read_responses(table, zone, skipped)]
    answers.sort(key=lambda r: r.timestamp)  # humans may sort the rows; time order is what counts
    shown = shown_rows([[text(value, fmt) for value, fmt in row] for row in ledger.rows]) if ledger else ()
    return SheetSnapshot(
        config=settings,
        players=people,
        responses=answers,
        config_cells=cells,
        player_rows=rows,
        ledger=shown,
        unreadable=tuple(skipped),
    )


def shown_rows(rows: Iterable[Iterable[object]]) -> tuple[tuple[str, ...], ...]:
    """Rows as text with trailing blank cells and rows trimmed: a sheet pads what a file does not."""
    trimmed = [_trim([value if isinstance(value, str) else text(value) for value in row]) for row in rows]
    return tuple(_trim(trimmed))


def _trim(items: list[Any]) -> Any:
    while items and not items[-1]:
        items.pop()
    return tuple(items)


def _columns(header_row: Sequence[Cell], fields: Mapping[str, tuple[str, ...]]) -> dict[str, int]:
    """Column index per field, matched by title: an exact title first, else a title starting with
    one (so "Orders (one per line)" is the orders column)."""
    titles = [normalise(text(value, fmt)) for value, fmt in header_row]
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


def _cells(row: Sequence[Cell], columns: Mapping[str, int]) -> dict[str, Cell]:
    return {field: row[i] if i < len(row) else _EMPTY for field, i in columns.items()}


def _read_config(table: Table) -> tuple[dict[str, str], dict[str, str]]:
    """Settings by lower-case key, and where each value sits ("Config!B4")."""
    rows = table.rows
    columns = _columns(rows[0] if rows else [], CONFIG_COLUMNS)
    if len(columns) < 2:
        raise WorkbookError(f"the {table.title} tab needs the headers Key and Value in row 1")
    config: dict[str, str] = {}
    where: dict[str, str] = {}
    for number, row in enumerate(rows[1:], start=2):
        cells = _cells(row, columns)
        key = text(*cells["key"]).strip().lower()
        if key:
            config[key] = text(*cells["value"]).strip()
            where[key] = f"{table.title}!{column_letter(columns['value'])}{number}"
    return config, where


def _read_players(table: Table) -> tuple[list[dict[str, str]], list[int]]:
    """The players, and the row number each sits in as the sheet shows it."""
    rows = table.rows
    columns = _columns(rows[0] if rows else [], PLAYER_COLUMNS)
    if "name" not in columns or "email" not in columns:
        raise WorkbookError(f"the {table.title} tab needs the headers Name and Email in row 1")
    players: list[dict[str, str]] = []
    numbers: list[int] = []
    for number, row in enumerate(rows[1:], start=2):
        cells = _cells(row, columns)
        player = {field: _field(cells, field) for field in PLAYER_COLUMNS}
        if any(player.values()):
            player["email"] = player["email"].lower()
            players.append(player)
            numbers.append(number)
    return players, numbers


def player_cells(table: Table, changes: Mapping[str, Mapping[str, str]]) -> dict[tuple[int, int], str]:
    """The Players tab's cells (0-based row, column) to set for ``changes`` (player name → {field:
    text}), leaving out cells that hold that text already and columns the tab lacks."""
    rows = table.rows
    columns = _columns(rows[0] if rows else [], PLAYER_COLUMNS)
    cells: dict[tuple[int, int], str] = {}
    for number, row in enumerate(rows[1:], start=1):
        name = _field(_cells(row, columns), "name") if "name" in columns else ""
        for field, value in changes.get(name, {}).items():
            column = columns.get(field)
            if column is not None and text(*_cells(row, {field: column})[field]) != value:
                cells[(number, column)] = value
    return cells


def _read_responses(table: Table, zone: ZoneInfo, skipped: list[str]) -> Iterable[FormResponse]:
    """The tab's answers; a row whose Timestamp reads as no time is skipped and described in
    ``skipped`` (the tick tells the organiser once)."""
    rows, title = table.rows, table.title
    if not rows or not any(value not in (None, "") for value, _ in rows[0]):
        return
    columns = _columns(rows[0], RESPONSE_COLUMNS)
    for needed in ("timestamp", "orders"):
        if needed not in columns:
            raise WorkbookError(f"the {title} tab has no {needed.title()} column in row 1")
    stamps = [_cells(row, columns)["timestamp"][0] for row in rows[1:]]
    order = day_first((_as_text(v) for v in stamps), zone)  # 05/12/2026: the tab's other rows decide
    for number, row in enumerate(rows[1:], start=2):
        cells = _cells(row, columns)
        orders = text(*cells["orders"])
        if not orders.strip():
            continue
        moment = timestamp(cells["timestamp"][0], zone, day_first=order)
        if moment is None:
            shown = text(*cells["timestamp"]) or "empty"
            skipped.append(
                f"{title} row {number}: its Timestamp ({shown}) is no time Courier can read, so the orders"
                " in that row are not used. Write it as 2026-12-15 10:14:03, or as the form wrote it."
            )
            continue
        yield FormResponse(
            timestamp=moment,
            email=_field(cells, "email").lower(),
            game=_field(cells, "game"),
            orders=orders,
            secret=_field(cells, "secret"),
        )


def _field(cells: Mapping[str, Cell], field: str) -> str:
    """A stripped text field; "" when the column is absent (optional columns may be)."""
    return text(*cells[field]).strip() if field in cells else ""


def text(value: object, number_format: str = "General") -> str:
    """A cell as the text a person sees: 1067 not 1067.0, text "01067" untouched, 20:00 not 20:00:00."""
    if value is None:
        return ""
    if isinstance(value, Shown):
        return value.text
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


def _as_text(value: object) -> str:
    """A Timestamp cell's text, if it holds text (not a date-time or a number)."""
    if isinstance(value, Shown):
        value = value.text if value.value is None else value.value
    return value if isinstance(value, str) else ""


def timestamp(value: object, zone: ZoneInfo, *, day_first: bool = True) -> datetime | None:
    """An aware time from a datetime cell, a serial number (days since 1899-12-30) or text in the
    forms ``courier.backends.form_times`` reads (``day_first`` settles 05/12/2026); naive values are
    in ``zone``. A ``Shown`` cell is read from its value: its text is in the sheet's locale."""
    if isinstance(value, Shown):
        value = value.text if value.value is None else value.value
    moment: datetime | None = None
    try:
        if isinstance(value, datetime):
            moment = value
        elif isinstance(value, date):
            moment = datetime.combine(value, time())
        elif isinstance(value, int | float) and not isinstance(value, bool):
            moment = from_serial(value)
        elif isinstance(value, str):
            moment = parse_time_text(value, day_first=day_first)
    except (ValueError, OverflowError):
        return None
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=zone)
