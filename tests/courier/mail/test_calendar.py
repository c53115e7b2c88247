"""Every mail that announces a deadline carries it as an iCalendar event (issue 30): the same event
(UID) for one round of one game, updated when the deadline moves (a later SEQUENCE), cancelled while
the game is paused, with a reminder an hour before. Played through the tick, as players get it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import icalendar
import pytest

from tests.conftest import Table
from tests.helpers.clock import at
from tests.helpers.confirm import TRUSTED_PASS, trust_the_mail_server

ORGANISER = "organiser@courier.test"


def events(t: Table, name: str) -> list[tuple[str, icalendar.Component]]:
    """(kind of mail, its deadline event) for each of ``name``'s mails that carries one, oldest first."""
    found = []
    for message in t.sent(name):
        for part in message.walk():
            if part.get_content_type() == "text/calendar":
                assert part.get_filename() == "deadline.ics" and part.get_param("method") == "PUBLISH"
                payload = part.get_payload(decode=True)
                assert isinstance(payload, bytes)
                calendar = icalendar.Calendar.from_ical(payload)
                assert str(calendar["METHOD"]) == "PUBLISH"
                (event,) = calendar.walk("VEVENT")
                found.append((str(message["X-Courier-Kind"]), event))
    return found


def sequence(event: icalendar.Component) -> int:
    return int(str(event["SEQUENCE"]))


def due(event: icalendar.Component) -> datetime:
    end: datetime = event.decoded("DTEND")
    return end.astimezone(UTC)


def command(t: Table, body: str) -> None:
    trust_the_mail_server(t)
    t.mail(ORGANISER, body, subject="[truce-1] commands", headers=TRUSTED_PASS)


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    t = make_table()
    t.tick(at(0, 8, 5))  # the game starts; round 1 is due at 20:00 (London keeps GMT in December)
    return t


def test_the_welcome_carries_the_deadline_with_a_reminder(table: Table) -> None:
    ((kind, event),) = events(table, "Agatha")
    assert kind == "welcome"
    assert due(event) == at(0, 20)
    assert str(event["UID"]) == "deadline-truce-1-round-1@courier.test"
    assert "Round 1 of 3" in str(event["SUMMARY"]) and "20:00 GMT" in str(event["DESCRIPTION"])
    (alarm,) = event.walk("VALARM")
    assert event.decoded("DTSTART") + alarm.decoded("TRIGGER") == at(0, 19)  # an hour before the deadline


def test_an_extended_deadline_updates_the_same_event(table: Table) -> None:
    command(table, "extend 24h")
    table.tick(at(0, 9))
    (_, welcome), (kind, notice) = events(table, "Barney")
    assert kind == "notice"
    assert notice["UID"] == welcome["UID"]
    assert sequence(notice) > sequence(welcome)
    assert due(notice) == at(1, 20)


def test_a_pause_cancels_the_event_and_resume_restores_it(table: Table) -> None:
    command(table, "pause")
    table.tick(at(0, 9))
    command(table, "resume until 2026-12-04 20:00")
    table.tick(at(1, 9))
    welcome, paused, resumed = (event for _, event in events(table, "Celeste"))
    assert paused["UID"] == resumed["UID"] == welcome["UID"]
    assert str(paused["STATUS"]) == "CANCELLED" and "paused" in str(paused["DESCRIPTION"])
    assert str(resumed["STATUS"]) == "CONFIRMED" and due(resumed) == at(3, 20)
    assert sequence(welcome) < sequence(paused) < sequence(resumed)


def test_the_next_round_is_a_new_event_and_mail_without_a_deadline_has_none(table: Table) -> None:
    table.order("Darcy", "defend")
    table.tick(at(0, 20, 5))
    kinds = [(kind, str(event["UID"]), due(event)) for kind, event in events(table, "Darcy")]
    assert kinds == [
        ("welcome", "deadline-truce-1-round-1@courier.test", at(0, 20)),
        ("receipt", "deadline-truce-1-round-1@courier.test", at(0, 20)),
        ("report", "deadline-truce-1-round-2@courier.test", at(1, 20)),
    ]
    organiser = table.sent(ORGANISER)
    assert all(p.get_content_type() != "text/calendar" for m in organiser for p in m.walk())


def test_ending_the_game_cancels_the_open_rounds_event(table: Table) -> None:
    """The organiser's `end game` mail cancels the round's event, so calendars drop the deadline."""
    table.order("Barney", "defend")
    table.tick(at(0, 20, 5))  # round 2 opens, due tomorrow at 20:00
    command(table, "end game")
    table.tick(at(1, 9))
    *_, (kind, report), (last_kind, ended) = events(table, "Barney")
    assert (kind, last_kind) == ("report", "game_over")
    assert str(ended["UID"]) == str(report["UID"]) == "deadline-truce-1-round-2@courier.test"
    assert str(ended["STATUS"]) == "CANCELLED" and "the game is over" in str(ended["DESCRIPTION"])
    assert sequence(ended) > sequence(report)
