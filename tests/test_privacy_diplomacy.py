"""Diplomacy privacy: until the phase is resolved a power's orders, and its draw vote until the
vote is unanimous, reach only its own player. Proved by playing twice with one power's orders
changed: every other mailbox and every sheet cell come out identical."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests.test_diplomacy_game import POWERS, at, table, write

ONE = {"Fran": "A par - bur\nA mar S A par - bur", "Gerd": "A mun - bur", "Ed": "F lon - nth"}
TWO = {"Fran": "A par - pic\ndraw", "Gerd": "A mun - ruh\ndraw", "Ed": "F lon - eng\ndraw"}


def play(root: Path, orders: dict[str, str]) -> tuple[list[object], dict[str, list[str]]]:
    t = table(root)
    t.tick(at(0, 8, 5))
    for name, text in orders.items():
        write(t, name, text)
    t.tick(at(0, 12))
    book = load_workbook(root / "truce-1.xlsx")
    cells: list[object] = [
        c for tab in ("Ledger", "History") for row in book[tab].iter_rows(values_only=True) for c in row
    ]
    mail = {n: [m.as_string() for m in t.sent(f"{n.lower()}@players.test")] for n in POWERS}
    return cells, mail


@pytest.mark.parametrize("author", list(ONE))
def test_orders_and_draw_votes_reach_only_their_author(tmp_path: Path, author: str) -> None:
    cells_one, mail_one = play(tmp_path / "one", ONE)
    cells_two, mail_two = play(tmp_path / "two", {**ONE, author: TWO[author]})
    assert cells_one == cells_two
    for name in POWERS:
        if name != author:
            assert mail_one[name] == mail_two[name], f"{name}'s mail depends on {author}'s orders"
    assert mail_one[author] != mail_two[author]
