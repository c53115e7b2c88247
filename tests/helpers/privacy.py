"""The shared shape of the privacy tests: play the same opening twice with one player's secret input
changed, then compare what everybody else can see — their mail and every public sheet cell."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime

from openpyxl import load_workbook

from tests.conftest import Table, address

Seen = tuple[list[object], dict[str, list[str]]]


def what_everyone_sees(
    table: Table,
    orders: dict[str, str],
    *,
    names: Iterable[str],
    write: Callable[[Table, str, str], None],
    opening: datetime,
    before_deadline: datetime,
) -> Seen:
    table.tick(opening)
    for name, text in orders.items():
        write(table, name, text)
    table.tick(before_deadline)
    book = load_workbook(table.root / "truce-1.xlsx")
    cells: list[object] = [
        c for tab in ("Ledger", "History") for row in book[tab].iter_rows(values_only=True) for c in row
    ]
    mail = {n: [m.as_string() for m in table.sent(f"{n.lower()}@players.test")] for n in names}
    return cells, mail


def assert_only_the_author_can_tell(one: Seen, two: Seen, author: str) -> None:
    assert one[0] == two[0], "a sheet cell depends on a private order"
    for name in one[1]:
        if name != author:
            assert one[1][name] == two[1][name], f"{name}'s mail depends on {author}'s orders"
    assert one[1][author] != two[1][author], "the author's own receipt should echo the orders"


def sheet_cells(table: Table) -> list[object]:
    """Every cell of the public tabs (Ledger and History), as everybody may read them."""
    book = load_workbook(table.root / "truce-1.xlsx")
    return [c for tab in ("Ledger", "History") for row in book[tab].iter_rows(values_only=True) for c in row]


def everyone_asks_status(table: Table, names: Iterable[str], when: datetime) -> None:
    """Each player mails `status`; its answer (who has not written, the own view) joins its mail."""
    for name in names:
        table.mail(address(name), "status")
    table.tick(when)
