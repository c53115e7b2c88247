"""The local .xlsx workbook, checked the way an organiser sees it: by opening the file again."""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import openpyxl
import pytest

from courier.backends.base import FormResponse, WorkbookError
from courier.backends.workbook import XlsxWorkbook, write_config

BERLIN = ZoneInfo("Europe/Berlin")


def _make(path: Path, tabs: dict[str, Sequence[Sequence[Any]]]) -> Path:
    """A workbook as an organiser (or Google's export) might have left it."""
    book = openpyxl.Workbook()
    book.remove(book.worksheets[0])
    for title, rows in tabs.items():
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(list(row))
    book.save(path)
    return path


def _basic_tabs(**extra: Sequence[Sequence[Any]]) -> dict[str, Sequence[Sequence[Any]]]:
    return {
        "Config": [["Key", "Value"], ["game", "truce"]],
        "Players": [["Name", "Email"], ["Alice", "alice@example.org"]],
        **extra,
    }


def _values(path: Path, title: str) -> list[list[Any]]:
    sheet = openpyxl.load_workbook(path)[title]
    return [[cell.value for cell in row] for row in sheet.iter_rows()]


# --- init --------------------------------------------------------------------------------------


def test_init_creates_every_tab_with_headers_and_examples(tmp_path: Path) -> None:
    path = tmp_path / "truce-1.xlsx"

    XlsxWorkbook(path).init(game="truce")

    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["Config", "Players", "Form Responses 1", "Ledger", "History"]
    config = _values(path, "Config")
    assert config[0] == ["Key", "Value", "Note"]
    assert [row[:2] for row in config[1:]] == [
        ["game", "truce"],
        ["rounds", 10],
        ["timezone", "UTC"],
        ["deadlines", "20:00"],
        ["reminders", "12h, 1h"],
        ["early_resolution", "no"],
    ]
    assert all(row[2] for row in config[1:])  # every setting is explained
    assert _values(path, "Players")[0] == ["Name", "Email", "Nickname", "Role", "Secret"]
    assert len(_values(path, "Players")) == 4  # headers and three players: the fewest Truce allows
    assert _values(path, "Form Responses 1") == [["Timestamp", "Email Address", "Game", "Orders", "Secret"]]

    snapshot = XlsxWorkbook(path).read()
    assert snapshot.config["rounds"] == "10"
    assert [p["email"] for p in snapshot.players] == [
        "alice@example.org",
        "bob@example.org",
        "carol@example.org",
    ]
    assert snapshot.responses == []


def test_init_is_idempotent_and_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "truce-1.xlsx"
    XlsxWorkbook(path).init(game="truce")
    book = openpyxl.load_workbook(path)
    book["Players"]["A2"] = "Carol"
    book["Config"]["B3"] = 4
    book.save(path)
    edited = path.read_bytes()

    XlsxWorkbook(path).init(game="monarchs")

    assert path.read_bytes() == edited
    assert XlsxWorkbook(path).read().config["game"] == "truce"


def test_init_adds_only_the_missing_tabs(tmp_path: Path) -> None:
    path = _make(tmp_path / "g.xlsx", _basic_tabs(**{"Formularantworten 1": [["Zeitstempel", "Orders"]]}))

    XlsxWorkbook(path).init(game="truce")

    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["Config", "Players", "Formularantworten 1", "Ledger", "History"]
    assert _values(path, "Players") == [["Name", "Email"], ["Alice", "alice@example.org"]]


# --- reading -----------------------------------------------------------------------------------


def test_a_missing_workbook_says_to_run_init(tmp_path: Path) -> None:
    with pytest.raises(WorkbookError, match="does not exist; run `courier init`"):
        XlsxWorkbook(tmp_path / "truce-1.xlsx").read()


def test_a_missing_players_tab_says_which_and_what_to_do(tmp_path: Path) -> None:
    path = _make(tmp_path / "truce-1.xlsx", {"Config": [["Key", "Value"]]})

    with pytest.raises(WorkbookError, match=r"^truce-1.xlsx has no Players tab; run `courier init`$"):
        XlsxWorkbook(path).read()


def test_a_file_that_is_not_a_workbook_is_an_operator_error(tmp_path: Path) -> None:
    path = tmp_path / "g.xlsx"
    path.write_text("Name,Email\n")

    with pytest.raises(WorkbookError, match="cannot open"):
        XlsxWorkbook(path).read()


def test_config_keys_are_normalised_and_values_read_as_text(tmp_path: Path) -> None:
    config: list[list[Any]] = [
        ["Key", "Value"],
        ["  Game ", "truce"],
        ["", "ignored"],
        [None, None],
        ["Rounds", 12.0],
        ["Fee", 3.5],
    ]
    path = _make(tmp_path / "g.xlsx", _basic_tabs(Config=config))

    assert XlsxWorkbook(path).read().config == {"game": "truce", "rounds": "12", "fee": "3.5"}


def test_players_keep_leading_zeros_and_skip_blank_rows(tmp_path: Path) -> None:
    players: list[list[Any]] = [
        ["Secret", "Email", "Name", "Nickname", "Role"],  # columns found by title, not position
        ["01067", " Alice@Example.ORG ", "Alice", "Al", "France"],
        [None, None, None, None, None],
        [4711, "bob@example.org", "Bob", None, None],
    ]
    path = _make(tmp_path / "g.xlsx", _basic_tabs(Players=players))
    book = openpyxl.load_workbook(path)
    book["Players"]["A5"] = 1067
    book["Players"]["A5"].number_format = "00000"  # how a spreadsheet displays a zip code as 01067
    book["Players"]["B5"] = "carol@example.org"
    book.save(path)

    assert XlsxWorkbook(path).read().players == [
        {
            "name": "Alice",
            "email": "alice@example.org",
            "nickname": "Al",
            "role": "France",
            "secret": "01067",
        },
        {"name": "Bob", "email": "bob@example.org", "nickname": "", "role": "", "secret": "4711"},
        {"name": "", "email": "carol@example.org", "nickname": "", "role": "", "secret": "01067"},
    ]


def test_write_config_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "demo.xlsx"
    players = [
        {"name": "Alice", "email": "alice@example.org", "secret": "01067"},
        {"name": "=Bob", "email": "bob@example.org", "nickname": "+1", "role": "x"},
    ]

    write_config(path, {"game": "truce", "deadlines": "20:00"}, players)

    snapshot = XlsxWorkbook(path).read()
    assert snapshot.config == {"game": "truce", "deadlines": "20:00"}
    assert snapshot.players == [
        {"name": "Alice", "email": "alice@example.org", "nickname": "", "role": "", "secret": "01067"},
        {"name": "=Bob", "email": "bob@example.org", "nickname": "+1", "role": "x", "secret": ""},
    ]
    assert snapshot.responses == []


# --- form responses ----------------------------------------------------------------------------

LOCALISED_FORMS = {
    "English": ("Form Responses 1", ["Timestamp", "Email Address", "Game", "Orders", "Secret"]),
    "German": ("Formularantworten 1", ["Zeitstempel", "E-Mail-Adresse", "Game", "Orders", "Secret"]),
    "French": ("Réponses au formulaire 1", ["Horodateur", "Adresse e-mail", "Game", "Orders", "Secret"]),
    "Spanish": (
        "Respuestas de formulario 1",
        ["Marca temporal", "Dirección de correo electrónico", "Game", "Orders", "Secret"],
    ),
}


@pytest.mark.parametrize("language", LOCALISED_FORMS)
def test_localised_form_responses_are_read_by_header(tmp_path: Path, language: str) -> None:
    title, headers = LOCALISED_FORMS[language]
    order = [3, 0, 4, 1, 2]  # columns shuffled: matching is by title
    row: list[Any] = [datetime(2026, 11, 23, 14, 5), "Alice@Example.org", "truce-1", "give 2 to bob", "01067"]
    path = _make(
        tmp_path / "g.xlsx", _basic_tabs(**{title: [[headers[i] for i in order], [row[i] for i in order]]})
    )

    [response] = XlsxWorkbook(path, timezone="Europe/Berlin").read().responses

    assert response == FormResponse(
        timestamp=datetime(2026, 11, 23, 14, 5, tzinfo=BERLIN),
        email="alice@example.org",
        game="truce-1",
        orders="give 2 to bob",
        secret="01067",
    )


# Known answers: serial 46349.58680555556 is 2026-11-23 14:05:00 and 46204.395833333336 is
# 2026-07-01 09:30:00 wall time; Berlin is UTC+1 in November and UTC+2 in July.
TIMESTAMPS = [
    (datetime(2026, 11, 23, 14, 5), datetime(2026, 11, 23, 13, 5, tzinfo=UTC)),
    (46349.58680555556, datetime(2026, 11, 23, 13, 5, tzinfo=UTC)),
    (46204.395833333336, datetime(2026, 7, 1, 7, 30, tzinfo=UTC)),
    ("2026-11-23 14:05:00", datetime(2026, 11, 23, 13, 5, tzinfo=UTC)),
    ("23.11.2026 14:05:00", datetime(2026, 11, 23, 13, 5, tzinfo=UTC)),
    ("2026-11-23T14:05:00+00:00", datetime(2026, 11, 23, 14, 5, tzinfo=UTC)),
]


@pytest.mark.parametrize(("cell", "expected"), TIMESTAMPS)
def test_timestamps_are_in_the_workbook_time_zone(tmp_path: Path, cell: Any, expected: datetime) -> None:
    responses = [["Timestamp", "Orders"], [cell, "pass"]]
    path = _make(tmp_path / "g.xlsx", _basic_tabs(**{"Form Responses 1": responses}))

    [response] = XlsxWorkbook(path, timezone="Europe/Berlin").read().responses

    assert response.timestamp == expected
    assert response.timestamp.utcoffset() is not None
    assert (response.email, response.game, response.secret) == ("", "", "")  # optional columns absent


def test_responses_without_orders_are_skipped_and_all_form_tabs_read_in_time_order(tmp_path: Path) -> None:
    first: list[list[Any]] = [
        ["Timestamp", "Email Address", "Orders (one per line)", "Score"],
        [46349.6, "bob@example.org", "hold"],
        [46349.5, "alice@example.org", "   "],
        [46349.4, "alice@example.org", None],
        [None, None, None],
    ]
    second: list[list[Any]] = [
        ["Timestamp", "Email Address", "Orders"],
        [46349.55, "carol@example.org", "attack bob"],
    ]
    path = _make(tmp_path / "g.xlsx", _basic_tabs(**{"Form Responses 1": first, "Form Responses 2": second}))

    responses = XlsxWorkbook(path).read().responses

    assert [(r.email, r.orders) for r in responses] == [
        ("carol@example.org", "attack bob"),
        ("bob@example.org", "hold"),
    ]


def test_a_form_tab_without_an_orders_column_is_an_operator_error(tmp_path: Path) -> None:
    path = _make(tmp_path / "g.xlsx", _basic_tabs(**{"Form Responses 1": [["Timestamp", "Befehl?"]]}))

    with pytest.raises(WorkbookError, match="Form Responses 1 tab has no Orders column"):
        XlsxWorkbook(path).read()


# --- publishing --------------------------------------------------------------------------------


def test_write_public_replaces_ledger_and_history_with_literal_values(tmp_path: Path) -> None:
    path = tmp_path / "g.xlsx"
    XlsxWorkbook(path).init(game="truce")
    workbook = XlsxWorkbook(path, timezone="Europe/Berlin")
    workbook.write_public(
        ledger=[["Player", "Coins"], *[[f"p{i}", i] for i in range(5)]], history=[["Round"], [1]]
    )

    ledger: list[list[Any]] = [
        ["Player", "Coins", "Note"],
        ['=IMPORTXML("http://x")', 3, "+1"],
        ["01067", 2.5, "#N/A"],
        ["tab\x07bell", None, datetime(2026, 11, 23, 13, 5, tzinfo=UTC)],
    ]
    workbook.write_public(ledger=ledger, history=[["Round", "Event"], [1, "=1+1"]])

    book = openpyxl.load_workbook(path)
    cells = [[(cell.value, cell.data_type) for cell in row] for row in book["Ledger"].iter_rows()]
    assert cells == [
        [("Player", "s"), ("Coins", "s"), ("Note", "s")],
        [('=IMPORTXML("http://x")', "s"), (3, "n"), ("+1", "s")],
        [("01067", "s"), (2.5, "n"), ("#N/A", "s")],
        [("tab\ufffdbell", "s"), (None, "n"), (datetime(2026, 11, 23, 14, 5), "d")],  # Berlin wall time
    ]
    assert _values(path, "History") == [["Round", "Event"], [1, "=1+1"]]
    assert book["History"]["B2"].data_type == "s"
    assert XlsxWorkbook(path).read().config["game"] == "truce"  # other tabs untouched


def test_publishing_to_a_missing_workbook_is_an_operator_error(tmp_path: Path) -> None:
    with pytest.raises(WorkbookError, match="run `courier init`"):
        XlsxWorkbook(tmp_path / "g.xlsx").write_public(ledger=[["a"]], history=[["b"]])


@pytest.mark.parametrize(
    ("cell", "writer"),
    [("bob", zipfile.ZipFile.writestr), (datetime(2026, 11, 23, 13, 5), openpyxl.Workbook.save)],
    ids=["tabs-rewritten-alone", "whole-book-by-openpyxl"],
)
def test_a_failed_save_leaves_the_old_workbook_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cell: Any, writer: Any
) -> None:
    path = tmp_path / "g.xlsx"
    XlsxWorkbook(path).init(game="truce")
    XlsxWorkbook(path).write_public(ledger=[["Player"], ["alice"]], history=[["Round"]])
    before = path.read_bytes()

    def crash_midway(self: Any, *args: Any, **kwargs: Any) -> None:
        file: Any = self.fp if isinstance(self, zipfile.ZipFile) else args[0]
        file.write(b"PK\x03\x04 half a zip")
        raise OSError("No space left on device")

    owner = zipfile.ZipFile if writer is zipfile.ZipFile.writestr else openpyxl.Workbook
    monkeypatch.setattr(owner, writer.__name__, crash_midway)
    with pytest.raises(WorkbookError, match="No space left on device"):
        XlsxWorkbook(path).write_public(ledger=[["Player"], [cell]], history=[["Round"]])

    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.xlsx"]
    monkeypatch.undo()
    assert _values(path, "Ledger") == [["Player"], ["alice"]]


def _parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_publishing_rewrites_only_the_public_tabs_and_shares_no_strings(tmp_path: Path) -> None:
    """A round's publishing costs the same at round 50 as at round 1: the other tabs are copied as
    they are, and History's text stays out of the shared strings every read of the file loads."""
    path = tmp_path / "g.xlsx"
    XlsxWorkbook(path).init(game="truce")
    before = _parts(path)

    history: list[list[Any]] = [
        ["Round", "Player", "Coins"],
        *[[f"round {r}", f"player {r}-{p}", r * p] for r in range(50) for p in range(7)],
    ]
    XlsxWorkbook(path).write_public(ledger=[["Player", "Coins"], ["alice", 3]], history=history)

    after = _parts(path)
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"xl/worksheets/sheet4.xml", "xl/worksheets/sheet5.xml"}  # Ledger, History
    assert b"player 49-6" not in after.get("xl/sharedStrings.xml", b"")
    assert _values(path, "History")[-1] == ["round 49", "player 49-6", 294]
    assert openpyxl.load_workbook(path)["History"].column_dimensions["A"].width == 10  # kept from init


def _history(rounds: int) -> list[list[Any]]:
    return [
        ["Round", "Player", "Coins"],
        *[[f"round {r}", f"p{r}-{p}", r * p] for r in range(rounds) for p in range(7)],
    ]


def _cells_written(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The cell references xlsx_tabs writes from now on."""
    from courier.backends import xlsx_tabs

    written: list[str] = []
    write_one = xlsx_tabs._cell_xml

    def counted(ref: str, value: Any) -> str | None:
        written.append(ref)
        return write_one(ref, value)

    monkeypatch.setattr(xlsx_tabs, "_cell_xml", counted)
    return written


def test_a_new_rounds_history_writes_only_its_own_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Publishing round 51 writes round 51's rows, not all 51 rounds': the tab's XML for the rounds
    published before is kept, and the file is the one a whole write gives."""
    path, whole = tmp_path / "g.xlsx", tmp_path / "whole.xlsx"
    XlsxWorkbook(path).init(game="truce")
    XlsxWorkbook(whole).init(game="truce")
    ledger: list[list[Any]] = [["Player", "Coins"], ["alice", 3]]
    XlsxWorkbook(path).write_public(ledger=ledger, history=_history(50))

    written = _cells_written(monkeypatch)
    XlsxWorkbook(path).write_public(ledger=[["Player", "Coins"], ["alice", 4]], history=_history(51))

    new_rows = [f"{column}{row}" for row in range(352, 359) for column in "ABC"]
    assert sorted(written) == sorted(["A1", "B1", "A2", "B2", *new_rows])  # the Ledger changed whole
    assert _values(path, "History") == _history(51)
    XlsxWorkbook(whole).write_public(ledger=ledger, history=_history(51))
    assert _parts(path)["xl/worksheets/sheet5.xml"] == _parts(whole)["xl/worksheets/sheet5.xml"]


def test_a_history_changed_by_hand_or_in_its_past_is_written_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only rows this wrote, still as it wrote them, are kept: a History edited and saved by another
    program, or one whose earlier rows changed (an outage note placed after round 3), is rewritten."""
    path = tmp_path / "g.xlsx"
    XlsxWorkbook(path).init(game="truce")
    ledger = [["Player"], ["alice"]]
    XlsxWorkbook(path).write_public(ledger=ledger, history=_history(5))
    book = openpyxl.load_workbook(path)
    book["History"]["B2"] = "edited by hand"
    book.save(path)

    XlsxWorkbook(path).write_public(ledger=ledger, history=_history(6))
    assert _values(path, "History") == _history(6)

    noted = [*_history(6)[:22], ["—", "Deadlines moved after an outage"], *_history(6)[22:]]
    written = _cells_written(monkeypatch)
    XlsxWorkbook(path).write_public(ledger=ledger, history=noted)
    assert _values(path, "History") == [[*row, None][:3] for row in noted]
    assert "A2" in written  # written whole


def test_text_reads_back_exactly_as_written(tmp_path: Path) -> None:
    path = tmp_path / "g.xlsx"
    XlsxWorkbook(path).init(game="truce")
    odd = ["  two spaces  ", 'a & b <c> "d"', "tab\x07bell", "line\nbreak", "é ü 中 🙂", "inf", "=SUM(A1)"]
    XlsxWorkbook(path).write_public(
        ledger=[odd, [True, 7, 2.5, float("inf"), Decimal("1.25"), None, ""]], history=[["Round"]]
    )

    assert _values(path, "Ledger") == [
        ["  two spaces  ", 'a & b <c> "d"', "tab\ufffdbell", "line\nbreak", "é ü 中 🙂", "inf", "=SUM(A1)"],
        [True, 7, 2.5, "inf", 1.25, None, None],
    ]
    snapshot = XlsxWorkbook(path).read()
    assert snapshot.ledger is not None and snapshot.ledger[0][0] == "  two spaces  "


def test_a_missing_public_tab_is_added(tmp_path: Path) -> None:
    path = _make(tmp_path / "g.xlsx", _basic_tabs())

    XlsxWorkbook(path).write_public(ledger=[["Player"], ["alice"]], history=[["Round"], [1]])
    XlsxWorkbook(path).write_public(ledger=[["Player"], ["bob"]], history=[["Round"], [1], [2]])

    assert _values(path, "Ledger") == [["Player"], ["bob"]]
    assert _values(path, "History") == [["Round"], [1], [2]]
    assert XlsxWorkbook(path).read().config["game"] == "truce"


def test_unknown_time_zone_is_refused(tmp_path: Path) -> None:
    with pytest.raises(WorkbookError, match="unknown time zone 'Mars/Olympus'"):
        XlsxWorkbook(tmp_path / "g.xlsx", timezone="Mars/Olympus")


def test_init_writes_the_games_own_settings(tmp_path: Path) -> None:
    path = tmp_path / "startrek-1.xlsx"
    XlsxWorkbook(path).init(game="startrek")
    keys = [row[0] for row in _values(path, "Config")[1:]]
    assert keys[:2] == ["game", "fog_of_war"] and "rounds" not in keys
    assert {
        "intelligence_window",
        "intelligence_duration",
        "allied_victory_centres",
        "latinum_public",
    } <= set(keys)
    assert XlsxWorkbook(path).read().config["game"] == "startrek"


def test_reading_leaves_the_history_tab_alone(tmp_path: Path) -> None:
    """A tick reads Config, Players, the form and the Ledger; History (a row per player per round)
    is not opened at all, so even a History part nothing can parse does not stop the read."""
    path = tmp_path / "g.xlsx"
    XlsxWorkbook(path).init(game="truce")
    XlsxWorkbook(path).write_public(ledger=[["Player"], ["alice"]], history=[["Round"], [1]])
    parts = _parts(path)
    parts["xl/worksheets/sheet5.xml"] = b"<worksheet><sheetData><row>not XML at all"
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)

    snapshot = XlsxWorkbook(path).read()

    assert snapshot.config["game"] == "truce"
    assert snapshot.ledger is not None and snapshot.ledger[-1] == ("alice",)
