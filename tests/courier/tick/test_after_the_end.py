"""After the game ends (issue 29 QA): `status`, `rules` and `help` are still answered; orders and the
commands that change a seat get "The game is over; no more orders are taken."."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.conftest import Table, text_of
from tests.helpers.clock import at
from tests.helpers.confirm import TRUSTED_PASS, trust_the_mail_server

ORGANISER = "organiser@courier.test"
GAME_OVER = "The game is over; no more orders are taken."


@pytest.fixture
def ended(make_table: Callable[..., Table]) -> Table:
    """The organiser ends the game during round 1 by mail."""
    t = make_table()
    t.tick(at(0, 8, 5))
    trust_the_mail_server(t)
    t.mail(ORGANISER, "end game", subject="[truce-1] commands", headers=TRUSTED_PASS)
    t.tick(at(0, 9))
    return t


def answer_to(t: Table, name: str, text: str, hour: int) -> str:
    before = len(t.sent(name))
    t.order(name, text)
    t.tick(at(0, hour))
    mails = t.sent(name)[before:]
    assert len(mails) == 1, [m["Subject"] for m in mails]
    return text_of(mails[0])


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("status", "The game is over."),
        ("Hi,\n\nrules\n\nThanks, Agatha", "Truce"),
        ("help", "status"),
    ],
)
def test_reading_commands_are_answered_after_the_end(ended: Table, text: str, said: str) -> None:
    answer = answer_to(ended, "Agatha", text, 10)
    assert GAME_OVER not in answer, answer
    assert said in answer


@pytest.mark.parametrize("text", ["attack Barney", "resign", "status\nresign"])
def test_orders_and_seat_changes_still_get_the_game_over_answer(ended: Table, text: str) -> None:
    assert GAME_OVER in answer_to(ended, "Agatha", text, 10)
