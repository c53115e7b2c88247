"""The organiser hears what matters (issue 29): each round's results in every game (Truce's too),
a resignation, an absence, a mail from an address no player has but signed with a player's name
(the stranger still gets nothing), and a forged mail refused. Told in one mail a tick, never one
mail per event."""

from __future__ import annotations

from collections.abc import Callable
from email.message import EmailMessage

from tests.conftest import Table, text_of
from tests.helpers.clock import at

ORGANISER = "organiser@courier.test"


def organiser_mail(t: Table) -> list[EmailMessage]:
    return t.sent(ORGANISER)


def test_a_truce_organiser_gets_each_rounds_results(make_table: Callable[..., Table]) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    t.order("Agatha", "attack Barney")
    t.tick(at(0, 20, 5))
    reports = [m for m in organiser_mail(t) if m["X-Courier-Kind"] == "report"]
    assert [str(m["Subject"]) for m in reports] == ["[truce-1] Round 1 of 3: results"]
    assert "Agatha" in text_of(reports[0])
    t.tick(at(1, 20, 5))
    assert len([m for m in organiser_mail(t) if m["X-Courier-Kind"] == "report"]) == 2
