"""Form rows whose Timestamp is text, through the tick (issue 29): `12/15/2026 10:14:03` was skipped
with a warning on stderr printed twice a tick and the organiser never told. Now it counts; a row that
reads as no time is told to the organiser in one mail, once, and logged once."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from openpyxl import load_workbook

from tests.conftest import Table, address, text_of
from tests.helpers.clock import at

ORGANISER = "organiser@courier.test"


def add_row(t: Table, when: str, name: str, orders: str) -> None:
    book = load_workbook(t.root / "truce-1.xlsx")
    sheet = (
        book["Form Responses 1"]
        if "Form Responses 1" in book.sheetnames
        else book.create_sheet("Form Responses 1")
    )
    if sheet.max_row < 1 or sheet.cell(1, 1).value is None:
        sheet.append(["Timestamp", "Email Address", "Game", "Orders", "Secret"])
    sheet.append([when, address(name), "truce-1", orders, ""])  # text: the cell holds a string
    book.save(t.root / "truce-1.xlsx")


def orders_standing(t: Table) -> dict[str, list[str]]:
    journal = t.journal()
    try:
        return {p: s["orders"] for p, (s, _) in journal.standing("truce-1", "round-1").items()}
    finally:
        journal.close()


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    t = make_table({"timezone": "America/New_York", "start": "2026-12-15 08:00"})
    t.tick(at(14, 13, 5))  # 08:05 in New York: round 1 until 20:00 there
    return t


def test_a_timestamp_written_as_text_counts_like_mail(table: Table) -> None:
    add_row(table, "12/15/2026 10:14:03", "Celeste", "loot")  # as Google writes it in the US
    add_row(table, "15/12/2026 10:20:00", "Barney", "defend")  # day first: only one reading
    add_row(table, "2026-12-15 10:25:00", "Agatha", "pass")
    table.tick(at(14, 15, 30))
    assert orders_standing(table) == {"Celeste": ["loot"], "Barney": ["defend"], "Agatha": ["pass"]}
    assert not [m for m in table.sent(ORGANISER) if "Timestamp" in text_of(m)]


def test_a_row_it_cannot_read_is_told_to_the_organiser_once(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    add_row(table, "yesterday at ten", "Darcy", "loot")
    with caplog.at_level(logging.WARNING):
        table.tick(at(14, 15, 30))
        table.tick(at(14, 15, 35))
    told = [text_of(m) for m in table.sent(ORGANISER) if "Timestamp" in text_of(m)]
    assert len(told) == 1
    assert "Form Responses 1 row 2" in told[0] and "yesterday at ten" in told[0]
    assert sum("Form Responses 1 row 2" in r.getMessage() for r in caplog.records) == 1
    assert orders_standing(table) == {}
