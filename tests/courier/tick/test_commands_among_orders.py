"""A command written in a mail that reads as orders is not done, and the receipt says so (issue 29:
commands read as forgivingly as orders): `rules` under a question, `status` after `loot`. Before,
the line was dropped unsaid and the player waited for an answer that never came."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.conftest import Table, text_of
from tests.helpers.clock import at


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    t = make_table()
    t.tick(at(0, 8, 5))  # the welcomes
    return t


def _receipt(t: Table, name: str) -> str:
    mails = [m for m in t.sent(name) if m["X-Courier-Kind"] == "receipt"]
    assert mails, f"{name} got no receipt"
    return text_of(mails[-1])


def test_a_command_below_orders_is_said_to_be_not_done(table: Table) -> None:
    table.order("Agatha", "loot\nstatus\n\nCheers,\nAgatha")
    table.tick(at(0, 9))
    receipt = _receipt(table, "Agatha")
    assert "Your orders that now stand for Round 1 of 3:\n  loot\n" in receipt
    assert "“status” was not done: a command counts only at the top of a mail" in receipt


def test_a_command_under_a_question_is_said_to_be_not_done(table: Table) -> None:
    table.order("Barney", "Hi, could you send the rules please?\nrules\nthanks", subject="question")
    table.tick(at(0, 9))
    receipt = _receipt(table, "Barney")
    assert "No orders could be read from this mail." in receipt
    note = "“rules” was not done: a command counts only at the top of a mail; send it in a mail of its own."
    assert note in " ".join(receipt.split())


def test_orders_alone_get_no_such_note(table: Table) -> None:
    table.order("Celeste", "Hello!\nattack Barney\nThanks, Celeste")
    table.tick(at(0, 9))
    assert "was not done" not in _receipt(table, "Celeste")
