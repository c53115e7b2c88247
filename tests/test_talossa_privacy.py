"""Talossan RISK privacy: an Action Plan reaches only its author until the step is resolved (IV.4:
"Do not make your Action Plan public until it's published"). Played twice with one conqueror's plan
changed: every other mailbox and every sheet cell come out identical."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests.test_talossa_game import ROLES, at, table, write

ONE = {"Al": "R: Abbavilla, 12\nQ: Abbavilla >> Downer, 2", "Bea": "S: +Downer", "Cy": "R: Farwell, 3"}
TWO = {"Al": "M: Abbavilla >> Downer, 1", "Bea": "R: Downer, 12\nQ: Downer >> (east)", "Cy": "C: Farwell"}


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
    mail = {n: [m.as_string() for m in t.sent(f"{n.lower()}@players.test")] for n in ROLES}
    return cells, mail


@pytest.mark.parametrize("author", list(ONE))
def test_plans_reach_only_their_author_before_the_step_resolves(tmp_path: Path, author: str) -> None:
    cells_one, mail_one = play(tmp_path / "one", ONE)
    cells_two, mail_two = play(tmp_path / "two", {**ONE, author: TWO[author]})
    assert cells_one == cells_two
    for name in ROLES:
        if name != author:
            assert mail_one[name] == mail_two[name], f"{name}'s mail depends on {author}'s plan"
    assert mail_one[author] != mail_two[author]
