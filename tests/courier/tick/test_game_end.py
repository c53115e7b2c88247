"""The end of a game the organiser ends early (issue 29): the mail names the winner and the game's own
standings (not the seating order), carries no results of a round that was never played and no order
form; the Ledger says the game is over and `courier status` awaits nobody."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from openpyxl import load_workbook

from courier.tools.cli import main
from tests.conftest import PLAYERS, Table, text_of
from tests.helpers.clock import at
from tests.helpers.confirm import TRUSTED_PASS, trust_the_mail_server
from tests.helpers.ledger import ledger_table

ORGANISER = "organiser@courier.test"


def ended_mail(t: Table, name: str) -> str:
    mails = [m for m in t.sent(name) if m["X-Courier-Kind"] == "game_over"]
    assert len(mails) == 1, f"{name} got {len(mails)} end mails"
    return text_of(mails[0])


def ledger(t: Table) -> list[tuple[object, ...]]:
    return list(load_workbook(t.root / "truce-1.xlsx")["Ledger"].iter_rows(values_only=True))


def status(t: Table, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["status", "--config", str(t.deployment.path)]) == 0
    return capsys.readouterr().out


@pytest.fixture
def ended(make_table: Callable[..., Table]) -> Table:
    """Round 1 played (Celeste, seated third, loots and leads on Supply), then the organiser ends
    the game during round 2 by mail."""
    t = make_table()
    t.tick(at(0, 8, 5))
    for name, order in (("Agatha", "attack Barney"), ("Barney", "defend"), ("Celeste", "loot")):
        t.order(name, order)
    t.tick(at(0, 20, 5))
    trust_the_mail_server(t)
    t.mail(ORGANISER, "end game", subject="[truce-1] commands", headers=TRUSTED_PASS)
    t.tick(at(1, 9))
    return t


def test_the_end_mail_names_the_leader_and_the_standings_not_the_seating(ended: Table) -> None:
    for name in PLAYERS:
        mail = ended_mail(ended, name)
        assert "The organiser ended the game during Round 2 of 3" in mail
        assert "Winner: Celeste" in mail
        assert "Celeste won with 4 coins in Supply" in mail
        ranking = mail.split("Final ranking:")[1]
        assert "1. Celeste" in ranking and "2. Agatha, Barney, Darcy (shared)" in ranking


def test_the_end_mail_has_no_round_results_and_no_order_form(ended: Table) -> None:
    mail = ended_mail(ended, "Barney")
    for wrong in ("results of the final round", "Nothing happened in public", "Your orders", "Deadline"):
        assert wrong not in mail
    notices = [text_of(m) for m in ended.sent("Barney") if m["X-Courier-Kind"] == "notice"]
    assert not [n for n in notices if "ended the game" in n]  # one mail says it, not two


def test_after_the_end_the_ledger_says_so_and_status_awaits_nobody(
    ended: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    cells = [str(c) for row in ledger(ended) for c in row if c]
    assert any("Game over" in c for c in cells) and not any(c == "Round 2 of 3" for c in cells)
    rows = ledger_table(ledger(ended))
    column = rows[0].index("Orders in")
    assert {row[column] for row in rows[1:]} == {"—"}  # nobody is waited for
    line = next(row for row in status(ended, capsys).splitlines() if row.startswith("truce-1"))
    assert "finished" in line
    assert not any(name in line for name in PLAYERS)
