"""Truce privacy: before the reveal a player's orders reach only that player. Proved by playing the
same game twice with one player's orders changed: every other player's mail and every sheet cell
must come out identical. Secrets never appear anywhere, nor the seed before the end."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests.conftest import BASE_CONFIG, PLAYERS, Table, address, text_of
from tests.helpers.clock import at

ORDERS = {"Agatha": "attack Celeste", "Barney": "support Agatha", "Celeste": "loot", "Darcy": "defend"}
OTHER = {"Agatha": "defend", "Barney": "attack Darcy", "Celeste": "support Barney", "Darcy": "pass"}
SECRETS = {name: f"s3cret-{name.lower()}" for name in PLAYERS}


def sheet_cells(table: Table) -> list[object]:
    book = load_workbook(table.root / "truce-1.xlsx")
    return [
        cell
        for name in ("Ledger", "History")
        for row in book[name].iter_rows(values_only=True)
        for cell in row
    ]


def mailbox(table: Table, name: str) -> list[str]:
    return [m.as_string() for m in table.sent(name)]


def play(root: Path, orders: dict[str, str]) -> Table:
    rows = [{"name": n, "email": address(n), "secret": SECRETS[n]} for n in PLAYERS]
    table = Table(root, BASE_CONFIG, rows)
    table.tick(at(0, 8, 5))
    for name, order in orders.items():
        table.order(name, f"secret: {SECRETS[name]}\n{order}")
    table.tick(at(0, 12))
    return table


@pytest.mark.parametrize("author", PLAYERS)
def test_pending_orders_reach_only_their_author(tmp_path: Path, author: str) -> None:
    one = play(tmp_path / "one", ORDERS)
    two = play(tmp_path / "two", {**ORDERS, author: OTHER[author]})
    assert sheet_cells(one) == sheet_cells(two)
    for other in PLAYERS:
        if other != author:
            assert mailbox(one, other) == mailbox(two, other), f"{other}'s mail depends on {author}'s orders"
    assert mailbox(one, author) != mailbox(two, author)  # the receipt echoes the author's own orders


def test_gifts_are_the_public_exception_announced_to_all(tmp_path: Path) -> None:
    one = play(tmp_path / "one", ORDERS)
    two = play(tmp_path / "two", {**ORDERS, "Agatha": "gift 1 to Darcy\nloot"})
    assert mailbox(one, "Barney") != mailbox(two, "Barney")
    assert any("Agatha" in text_of(m) and "Darcy" in text_of(m) for m in two.sent("Barney"))


def test_secrets_and_seed_never_leak(tmp_path: Path) -> None:
    table = play(tmp_path, ORDERS)
    everything = [*map(str, sheet_cells(table)), *(t for n in PLAYERS for t in mailbox(table, n))]
    for secret in SECRETS.values():
        assert not any(secret in text for text in everything)
    assert not any("test seed" in text for text in everything)
    table.tick(at(0, 20, 5))
    assert "Celeste" in map(str, sheet_cells(table))  # after the reveal actions are public
    assert not any(s in text for s in SECRETS.values() for n in PLAYERS for text in mailbox(table, n))
