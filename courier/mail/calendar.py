"""A deadline as an iCalendar event (RFC 5545), attached to every mail that announces one.

The event's UID is the game's and the round's (``phase_key``), so a later mail about the same
round (the deadline extended, the game paused or resumed) updates the event a player imported
instead of adding another: METHOD:PUBLISH, and a SEQUENCE that grows with the time the mail was
written (seconds since 2020), which only ever goes forward. A paused game's event is cancelled
(STATUS:CANCELLED), and so is the open round's when the organiser ends the game. Each event
reminds an hour before the deadline.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import icalendar

__all__ = ["DeadlineEvent", "calendar_bytes", "event_uid"]

EPOCH = datetime(2020, 1, 1, tzinfo=UTC)
LENGTH = timedelta(minutes=30)  # the event ends at the deadline: half an hour to write orders
WARNING = timedelta(hours=1)  # the alarm, before the deadline


@dataclass(frozen=True)
class DeadlineEvent:
    """A round's deadline. ``at`` is None when the game is paused or over: the event is cancelled,
    ``cancelled`` says why."""

    game_id: str
    game_title: str
    phase_key: str
    phase_label: str
    at: datetime | None
    text: str  # the deadline as the mail words it, in the game's zone and UTC
    send_to: str  # where orders go (the arbiter's reply address)
    cancelled: str = "the game is paused; no deadline passes until it resumes"


def event_uid(game_id: str, phase_key: str, domain: str) -> str:
    """The same for every mail about one round of one game."""
    return f"deadline-{game_id}-{phase_key}@{domain}"


def calendar_bytes(event: DeadlineEvent, *, domain: str, written: datetime) -> bytes:
    """The VCALENDAR with one VEVENT (and its VALARM), as a .ics file holds it."""
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//Courier//play-by-mail arbiter//EN")
    calendar.add("version", "2.0")
    calendar.add("method", "PUBLISH")
    calendar.add_component(_event(event, domain=domain, written=written))
    data: bytes = calendar.to_ical()
    return data


def _event(event: DeadlineEvent, *, domain: str, written: datetime) -> icalendar.Event:
    vevent = icalendar.Event()
    vevent.add("uid", event_uid(event.game_id, event.phase_key, domain))
    vevent.add("dtstamp", written.astimezone(UTC))
    vevent.add("sequence", max(0, int((written - EPOCH).total_seconds())))
    vevent.add("summary", f"[{event.game_id}] Orders due: {event.phase_label}")
    if event.at is None:
        vevent.add("status", "CANCELLED")
        vevent.add("description", f"{event.game_title}: {event.cancelled}.")
        vevent.add("dtstart", written.astimezone(UTC))
        return vevent
    due = event.at.astimezone(UTC)
    vevent.add("status", "CONFIRMED")
    vevent.add("dtstart", due - LENGTH)
    vevent.add("dtend", due)
    vevent.add("transp", "TRANSPARENT")  # a reminder, not a meeting: the time stays free
    where = f" to {event.send_to}" if event.send_to else ""
    vevent.add(
        "description",
        f"{event.game_title} ({event.game_id}): send your orders for {event.phase_label}{where}"
        f" before {event.text}.",
    )
    alarm = icalendar.Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", f"{event.phase_label}: orders due at {event.text}")
    alarm.add("trigger", -(WARNING - LENGTH))  # from the event's start, which is LENGTH before the deadline
    vevent.add_component(alarm)
    return vevent
