"""An organiser's save of the local workbook that lands while Courier writes the Ledger is kept: the
tick finds the file changed since it read it, reads it again and writes the Ledger on top of their
save. The organiser's save is timed into that window by wrapping the writer: Courier has read the
file and written its new content aside, and has not yet put it in place."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, BinaryIO

import openpyxl
import pytest

from courier.backends import workbook, xlsx_tabs
from courier.backends.workbook import XlsxWorkbook
from tests.conftest import Table
from tests.helpers.clock import at

Writer = Callable[..., AbstractContextManager[BinaryIO]]


def organiser_saves(book: Path, reminders: str, *, how: str) -> None:
    """The organiser changes Config's reminders and saves, as a spreadsheet program does."""
    opened = openpyxl.load_workbook(book)
    for key, value in opened["Config"].iter_rows(min_row=2, max_col=2):
        if key.value == "reminders":
            value.value = reminders
    if how == "in place":
        opened.save(book)
    else:  # a new file, renamed over the old one
        aside = book.with_name("~saving.xlsx")
        opened.save(aside)
        os.replace(aside, book)


def save_while_courier_writes(
    monkeypatch: pytest.MonkeyPatch, book: Path, *, how: str, times: int
) -> list[str]:
    """The first ``times`` writes of ``book`` meet an organiser's save between Courier's read and
    its write; returns the values saved, in order."""
    saved: list[str] = []

    def racing(real: Writer) -> Writer:
        @contextmanager
        def writer(path: Path, **options: Any) -> Iterator[BinaryIO]:
            with real(path, **options) as file:
                yield file
                if path == book and len(saved) < times:
                    saved.append(f"{len(saved) + 2}h")
                    organiser_saves(book, saved[-1], how=how)

        return writer

    for module in (xlsx_tabs, workbook):
        monkeypatch.setattr(module, "atomic_writer", racing(module.atomic_writer))
    return saved


def reminders_and_ledger(t: Table) -> tuple[str, str]:
    snapshot = XlsxWorkbook(t.root / "truce-1.xlsx").read()
    return snapshot.config["reminders"], " ".join(" ".join(row) for row in snapshot.ledger)


@pytest.mark.parametrize("how", ["in place", "by rename"])
@pytest.mark.parametrize("writer", ["tabs only", "openpyxl"])
def test_an_organisers_save_while_the_ledger_is_written_is_kept(
    make_table: Callable[..., Table], monkeypatch: pytest.MonkeyPatch, how: str, writer: str
) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    t.order("Agatha", "loot")
    if writer == "openpyxl":  # what the quick writer cannot write (a date) goes through openpyxl
        monkeypatch.setattr(workbook, "replace_cells", lambda *_: False)
    saved = save_while_courier_writes(monkeypatch, t.root / "truce-1.xlsx", how=how, times=1)
    assert t.tick(at(0, 20, 5)) == []  # round 1 resolves: the Ledger changes
    assert saved == ["2h"]
    reminders, ledger = reminders_and_ledger(t)
    assert reminders == "2h", "the organiser's save was lost"
    assert "Round 2 of 3" in ledger, f"Courier's Ledger was not written: {ledger}"


def test_a_workbook_saved_at_every_try_keeps_the_last_save_and_heals_next_tick(
    make_table: Callable[..., Table], monkeypatch: pytest.MonkeyPatch
) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    t.order("Agatha", "loot")
    saved = save_while_courier_writes(monkeypatch, t.root / "truce-1.xlsx", how="in place", times=99)
    problems = t.tick(at(0, 20, 5))
    assert len(problems) == 1 and "saved by someone else" in problems[0], problems
    reminders, ledger = reminders_and_ledger(t)
    assert reminders == saved[-1] and "Round 2 of 3" not in ledger
    monkeypatch.undo()  # the organiser stops saving
    assert t.tick(at(0, 20, 10)) == []
    reminders, ledger = reminders_and_ledger(t)
    assert reminders == saved[-1] and "Round 2 of 3" in ledger
