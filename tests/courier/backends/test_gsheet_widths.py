"""The Ledger's columns are wide enough for names (issue 29): when a public tab's text needs wider
columns than what it held (a game's first Ledger, a substitute's longer name), the same one write
sets each column's width (``updateDimensionProperties``); a tab whose text fits keeps its widths and
the write stays a plain RAW values update."""

from __future__ import annotations

from typing import Any

from courier.backends.gsheet import GoogleSheet
from tests.servers.sheets import FakeSheets

KEY = "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms"
GAME: dict[str, list[list[Any]]] = {
    "Config": [["Key", "Value"], ["game", "truce"]],
    "Players": [["Name", "Email"], ["Alice", "alice@example.org"]],
    "Ledger": [["Round", "Player"]],  # as `courier init` leaves it
    "History": [["Round", "Phase", "Event"]],
}
LEDGER: list[list[Any]] = [["Player", "Supply"], ["Maximiliana Featherstonehaugh", 3], ["Bo", 2]]


def test_a_ledger_wider_than_before_gets_wider_columns_in_the_same_write(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    sheets_server.create(KEY, GAME)
    sheet = GoogleSheet(KEY, sheets_settings)
    sheet.read()
    sheet.write_public(ledger=LEDGER, history=[["Round", "What happened"]])
    assert len(sheets_server.api_calls(":batchUpdate")) == 1  # one write: widths and cells
    assert not sheets_server.api_calls("values:batchUpdate")
    ledger = next(t for t in sheets_server.spreadsheets[KEY].tabs if t.title == "Ledger")
    assert ledger.widths[0] >= 8 * len("Maximiliana Featherstonehaugh")  # the name fits
    assert ledger.widths[1] == 100  # a number keeps Google's default width
    assert sheets_server.values(KEY, "Ledger")[:2] == [
        ["Player", "Supply"],
        ["Maximiliana Featherstonehaugh", 3],
    ]


def test_a_ledger_that_fits_is_one_plain_values_update(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    sheets_server.create(KEY, {**GAME, "Ledger": LEDGER})
    sheet = GoogleSheet(KEY, sheets_settings)
    sheet.read()
    sheet.write_public(ledger=[*LEDGER[:2], ["Cy", 4]], history=GAME["History"])
    assert len(sheets_server.api_calls("values:batchUpdate")) == 1
    assert not sheets_server.api_calls(":batchUpdate")
