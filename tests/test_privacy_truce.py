"""Truce privacy: before the reveal a player's orders reach only that player; no mail and no sheet
cell ever carries another player's pending orders, secret or the game's seed before the end."""

from __future__ import annotations

from collections.abc import Callable

from openpyxl import load_workbook

from tests.conftest import PLAYERS, Table, at, text_of

ORDERS = {"Agatha": "attack Celeste", "Barney": "support Agatha", "Celeste": "loot", "Darcy": "defend"}
SECRETS = {name: f"s3cret-{name.lower()}" for name in PLAYERS}


def sheet_text(table: Table) -> str:
    book = load_workbook(table.root / "truce-1.xlsx")
    return "\n".join(
        str(cell) for name in ("Ledger", "History") for row in book[name].iter_rows(values_only=True)
        for cell in row if cell is not None
    )


def mail_text(table: Table, name: str) -> str:
    return "\n".join(text_of(m) + str(m.get_body(("html",)).get_content()) for m in table.sent(name))  # type: ignore[union-attr]


def test_pending_orders_secrets_and_seed_stay_private(make_table: Callable[..., Table]) -> None:
    table = make_table(secrets=SECRETS)
    table.tick(at(0, 8, 5))
    for name, order in ORDERS.items():
        table.order(name, f"secret: {SECRETS[name]}\n{order}")
    table.tick(at(0, 12))
    public = sheet_text(table)
    for name, order in ORDERS.items():
        assert order not in public, f"the sheet shows {name}'s pending order"
        assert SECRETS[name] not in public
        for other in PLAYERS:
            if other != name:
                assert order not in mail_text(table, other), f"{other}'s mail shows {name}'s order"
            assert SECRETS[name] not in mail_text(table, other)
        assert order in mail_text(table, name)  # the receipt echoes it to its author
    assert "yes" in public  # the sheet does say who has sent orders
    for name in PLAYERS:
        assert "test seed" not in mail_text(table, name)
    assert "test seed" not in public
    table.tick(at(0, 20, 5))
    # After the reveal the actions are public knowledge, as the rules say; secrets still are not.
    assert "Celeste" in sheet_text(table)
    for name in PLAYERS:
        assert all(secret not in mail_text(table, name) for secret in SECRETS.values())
