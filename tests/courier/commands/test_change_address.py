"""`change address` (issue 29): a player who only moves to a new address keeps their seat, name and
secret; the old address confirms it with a code (anyone can forge a From line), only the two
addresses and the organiser hear of it, and nobody else is told. The organiser may do it by mail or
CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from courier.journal.replay import replay_game
from courier.tools.cli import main
from tests.conftest import BASE_CONFIG, PLAYERS, Table, address, text_of
from tests.helpers.clock import at
from tests.helpers.confirm import code_for

ORGANISER = "organiser@courier.test"
NEW = "agatha.new@elsewhere.test"


@pytest.fixture
def table(tmp_path: Path) -> Table:
    rows = [{"name": n, "email": address(n), "secret": "owl" if n == "Agatha" else ""} for n in PLAYERS]
    t = Table(tmp_path, BASE_CONFIG, rows)
    assert t.tick(at(0, 8, 5)) == []
    return t


def last(t: Table, to: str, kind: str = "answer") -> str:
    mails = [m for m in t.sent(to) if m["X-Courier-Kind"] == kind]
    assert mails, f"{to} got no {kind}"
    return text_of(mails[-1])


def players_row(t: Table, name: str) -> tuple[object, ...]:
    rows = load_workbook(t.root / "truce-1.xlsx")["Players"].iter_rows(values_only=True)
    return next(row for row in rows if row[0] == name)


def test_a_player_moves_to_a_new_address_once_the_old_one_confirms(table: Table) -> None:
    others = {n: len(table.sent(n)) for n in PLAYERS if n != "Agatha"}
    table.order("Agatha", "secret: owl\nchange address to agatha.new@elsewhere.test")
    table.tick(at(0, 9))
    asked = last(table, address("Agatha"))
    assert "Nothing was done yet" in asked and "a new address takes over your seat's mail" in asked
    assert not table.sent(NEW)  # nothing goes to the new address before the old one confirms
    table.order("Agatha", f"secret: owl\nconfirm {code_for(table, address('Agatha'))}")
    table.tick(at(0, 10))
    assert "change address to agatha.new@elsewhere.test: done" in last(table, address("Agatha"))
    assert "This address now plays Agatha in truce-1" in last(table, NEW)
    assert "Agatha plays from agatha.new@elsewhere.test" in last(table, ORGANISER)
    assert {n: len(table.sent(n)) for n in others} == others  # nobody else is told
    table.mail(NEW, "secret: owl\nattack Barney")  # the same player: the secret still holds
    table.order("Agatha", "secret: owl\nattack Celeste")  # the old address no longer counts
    table.tick(at(0, 20, 5))
    journal = table.journal()
    try:
        assert journal.rounds("truce-1")[0]["submissions"]["Agatha"]["orders"] == ["attack Barney"]
        assert replay_game(journal, "truce-1")[1] == []
    finally:
        journal.close()
    assert [str(m["X-Courier-Kind"]) for m in table.sent(NEW)][-1] == "report"
    assert players_row(table, "Agatha")[1:] == (NEW, None, None, "owl")  # the tab: new address, same secret


def test_a_forged_change_of_address_changes_nothing(table: Table) -> None:
    table.mail(address("Barney"), "change address to thief@evil.test")  # as Barney, from a forger
    table.tick(at(0, 9))
    table.mail(address("Barney"), "confirm ABCDEF")
    table.tick(at(0, 10))
    assert "no command waits for the code" in last(table, address("Barney"))
    assert not table.sent("thief@evil.test")


def test_the_organiser_changes_a_players_address_by_cli(table: Table) -> None:
    argv = ["change", "--config", str(table.deployment.path), "truce-1", "barn", "barney@new.test"]
    assert main([*argv, "--now", at(0, 9).isoformat()]) == 0
    table.tick(at(0, 9, 1))
    assert "change address of barn to barney@new.test: done. Barney plays from barney@new.test" in last(
        table, ORGANISER
    )
    assert "This address now plays Barney" in last(table, "barney@new.test")
    assert "now plays from" not in " ".join(text_of(m) for m in table.sent("Celeste"))


def test_a_player_changes_only_their_own_address(table: Table) -> None:
    table.order("Celeste", "change address of Darcy to celeste@new.test")
    table.tick(at(0, 9))
    table.order("Celeste", f"confirm {code_for(table, address('Celeste'))}")
    table.tick(at(0, 10))
    assert "refused, you may change only your own address" in last(table, address("Celeste"))
