"""Less mail (issue 29): news (a gift, an absence, a seat that left) waits for the next mail that goes
to the player anyway (a receipt, a reminder, a round's report), or goes as one digest once the game's
`news_every` (default 4h) has passed; `news_every = 0` tells it at once. News is kept in the journal
and told once."""

from __future__ import annotations

from collections.abc import Callable
from email.message import EmailMessage

from tests.conftest import Table, address, text_of
from tests.helpers.clock import at


def kinds(t: Table, name: str) -> list[str]:
    return [str(m["X-Courier-Kind"]) for m in t.sent(address(name))]


def with_news(t: Table, name: str) -> list[EmailMessage]:
    return [m for m in t.sent(address(name)) if "Barney gave 1 coin to Darcy" in text_of(m)]


def test_a_gift_waits_for_the_next_mail_going_anyway(make_table: Callable[..., Table]) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    t.order("Barney", "gift 1 to Darcy")
    t.tick(at(0, 9))
    assert kinds(t, "Darcy") == ["welcome"]  # no "News" mail of its own
    t.order("Darcy", "defend")
    t.tick(at(0, 10))
    assert kinds(t, "Darcy") == ["welcome", "receipt"]
    assert len(with_news(t, "Darcy")) == 1 and "News since your last mail" in text_of(
        with_news(t, "Darcy")[0]
    )
    t.tick(at(0, 20, 5))
    assert len(with_news(t, "Darcy")) == 1  # told once: the report does not repeat it


def test_news_nobody_mails_goes_as_one_digest_after_news_every(make_table: Callable[..., Table]) -> None:
    t = make_table({"news_every": "2h"})
    t.tick(at(0, 8, 5))
    t.order("Barney", "gift 1 to Darcy")
    t.order("Agatha", "gift 1 to Darcy")
    t.tick(at(0, 9))
    t.tick(at(0, 10, 30))
    assert kinds(t, "Darcy") == ["welcome"]
    t.tick(at(0, 11, 5))
    assert kinds(t, "Darcy") == ["welcome", "notice"]  # one digest for both gifts
    digest = text_of(t.sent(address("Darcy"))[-1])
    assert "Barney gave 1 coin to Darcy" in digest and "Agatha gave 1 coin to Darcy" in digest
    t.tick(at(0, 13, 5))
    assert kinds(t, "Darcy") == ["welcome", "notice"]


def test_news_every_0_tells_at_once(make_table: Callable[..., Table]) -> None:
    t = make_table({"news_every": "0"})
    t.tick(at(0, 8, 5))
    t.order("Barney", "gift 1 to Darcy")
    t.tick(at(0, 9))
    assert kinds(t, "Darcy") == ["welcome", "notice"]


def test_an_absence_waits_too_and_a_busy_game_sends_fewer_mails(make_table: Callable[..., Table]) -> None:
    """Gifts every round and an absence: a player who writes each round gets a receipt and a report a
    round, and the news rides in them: no mail of news alone."""
    t = make_table({"rounds": "3"})
    t.tick(at(0, 8, 5))
    t.order("Celeste", "away until 2026-12-02")
    for day in range(3):
        t.order("Barney", "gift 1 to Darcy")
        t.order("Agatha", "gift 1 to Darcy")
        t.tick(at(day, 9))
        t.order("Darcy", "defend")
        t.tick(at(day, 10))
        t.tick(at(day, 20, 5))
    assert "notice" not in kinds(t, "Darcy")
    texts = "\n".join(text_of(m) for m in t.sent(address("Darcy")))
    assert "Celeste is away for a while." in texts
    assert texts.count("Barney gave 1 coin to Darcy") == 3


def test_a_bad_news_every_is_the_organisers_to_fix(make_table: Callable[..., Table]) -> None:
    t = make_table({"news_every": "often"})
    problems = t.tick(at(0, 8, 5))
    assert any("`news_every`" in p for p in problems)
