"""Commands are read as forgivingly as orders (issue 29): the command lines of a mail are read, the
chit-chat around them (an apology, a question, a signature) is skipped, and a command line that does
not read is answered as such while the others apply. A line of a command mail that reads as orders is
not taken as orders, and the answer says so."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.conftest import Table, address, text_of
from tests.helpers.clock import at
from tests.helpers.confirm import TRUSTED_PASS, trust_the_mail_server

ORGANISER = "organiser@courier.test"


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    t = make_table()
    assert t.tick(at(0, 8, 5)) == []
    return t


def answer(t: Table, to: str) -> tuple[str, str]:
    mails = [m for m in t.sent(to) if m["X-Courier-Kind"] == "answer"]
    assert mails, f"{to} got no answer"
    return str(mails[-1]["Subject"]), text_of(mails[-1])


def organise(t: Table, body: str) -> None:
    trust_the_mail_server(t)
    t.mail(ORGANISER, body, subject="[truce-1] commands", headers=TRUSTED_PASS)


def test_help_with_a_question_after_it_gets_help(table: Table) -> None:
    table.order("Celeste", "help\n\nSorry, how does this work again?\nCeleste")
    table.tick(at(0, 9))
    subject, text = answer(table, address("Celeste"))
    assert subject.endswith("How to play by mail") and "help: how to play by mail" in text
    assert "Nothing was done" not in text and "is no command" not in text


def test_resign_with_an_apology_asks_for_its_code(table: Table) -> None:
    table.order("Darcy", "resign\nSorry everyone, real life got in the way.")
    table.tick(at(0, 9))
    _, text = answer(table, address("Darcy"))
    assert "Waiting: resign." in text and "confirm " in text


def test_an_organisers_chatter_around_a_command_is_skipped(table: Table) -> None:
    organise(table, "pause\nWe'll pick it up again after the holidays, I think.")
    table.tick(at(0, 9))
    subject, text = answer(table, ORGANISER)
    assert "pause: done" in text and subject.endswith("Commands done")


def test_a_command_line_that_does_not_read_spoils_only_itself(table: Table) -> None:
    organise(table, "pause\nextend soon")
    table.tick(at(0, 9))
    subject, text = answer(table, ORGANISER)
    assert "pause: done" in text
    assert "Not read, so not done: “extend soon”: 'soon' is not a duration" in text
    assert subject.endswith("Commands: not all done")


def test_a_misspelt_command_is_pointed_out(table: Table) -> None:
    organise(table, "pase")
    table.tick(at(0, 9))
    assert "Nothing was done: “pase” is no command; did you mean `pause`?" in answer(table, ORGANISER)[1]


def test_orders_in_a_command_mail_are_not_taken_and_the_answer_says_so(table: Table) -> None:
    table.order("Agatha", "status\nattack Barney")
    table.tick(at(0, 9))
    _, text = answer(table, address("Agatha"))
    assert "status: where you stand" in text
    assert "“attack Barney” was not taken as orders" in text
    assert "receipt" not in [m["X-Courier-Kind"] for m in table.sent(address("Agatha"))]
