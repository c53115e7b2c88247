"""Deadlines from the Config tab: key forms, clear errors, DST, weekday masks, reminders, display."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo

import pytest

from courier.config.schedule import Schedule, ScheduleError, parse_duration

LONDON = ZoneInfo("Europe/London")
NEW_YORK = ZoneInfo("America/New_York")
BERLIN = ZoneInfo("Europe/Berlin")


def wall_time(text: str, zone: tzinfo) -> datetime:
    """A local wall time in a zone; the first occurrence of a repeated hour."""
    return datetime.fromisoformat(text).replace(tzinfo=zone)


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def schedule(**keys: str) -> Schedule:
    return Schedule.from_config(keys)


# --- reading the keys ----------------------------------------------------------------------------


def test_defaults() -> None:
    s = Schedule.from_config({"game": "truce", "rounds": "10"})  # other games' keys are ignored
    assert s.timezone == ZoneInfo("UTC")
    assert (s.start, s.deadlines, s.duration) == (None, (), timedelta(hours=24))
    assert s.weekdays == frozenset(range(7))
    assert s.reminders == (timedelta(hours=12), timedelta(hours=1))
    assert (s.early_resolution, s.settle) == (False, timedelta(minutes=10))


def test_blank_values_mean_default() -> None:
    assert Schedule.from_config({"timezone": " ", "duration": "", "reminders": ""}) == Schedule()


@pytest.mark.parametrize(
    ("text", "duration"),
    [
        ("12h", timedelta(hours=12)),
        ("90m", timedelta(minutes=90)),
        ("2d", timedelta(days=2)),
        ("1d 12h", timedelta(hours=36)),
        ("1h30m", timedelta(minutes=90)),
        ("2 days", timedelta(days=2)),
        ("36 hours", timedelta(hours=36)),
        ("45 min", timedelta(minutes=45)),
        ("0m", timedelta(0)),
    ],
)
def test_parse_duration(text: str, duration: timedelta) -> None:
    assert parse_duration(text) == duration


@pytest.mark.parametrize("text", ["", "12", "h", "12x", "1.5h", "-1h", "1d 12", "soon"])
def test_parse_duration_rejects(text: str) -> None:
    with pytest.raises(ScheduleError, match=r"is not a duration; write e\.g\. 12h"):
        parse_duration(text)


@pytest.mark.parametrize(
    ("value", "days"),
    [
        ("mon-fri", {0, 1, 2, 3, 4}),
        ("mon,wed,fri", {0, 2, 4}),
        ("sat-sun", {5, 6}),
        ("fri-mon", {4, 5, 6, 0}),
        ("Monday, Tuesday", {0, 1}),
        ("MON - WED", None),  # spaces inside a range are not a range: rejected below
    ],
)
def test_weekdays(value: str, days: set[int] | None) -> None:
    if days is None:
        with pytest.raises(ScheduleError):
            schedule(weekdays=value)
    else:
        assert schedule(weekdays=value).weekdays == frozenset(days)


def test_key_forms() -> None:
    s = schedule(
        timezone="Europe/Berlin",
        start="2026-11-23 8:00",
        deadlines="20:00; 08:00, 20:00",
        weekdays="mon-fri",
        reminders="1h, 1d",
        early_resolution="Yes",
        settle="30m",
    )
    assert s.timezone == BERLIN
    assert s.start == wall_time("2026-11-23 08:00", BERLIN)
    assert s.deadlines == (time(8), time(20))
    assert s.reminders == (timedelta(days=1), timedelta(hours=1))
    assert (s.early_resolution, s.settle) == (True, timedelta(minutes=30))
    assert schedule(reminders="none").reminders == ()
    assert schedule(early_resolution="no").early_resolution is False
    assert schedule(early_resolution="TRUE").early_resolution is True  # a spreadsheet checkbox
    assert schedule(start="2026-11-23T08:00:00+00:00", timezone="Europe/Berlin").start == utc(
        "2026-11-23 08:00"
    )
    assert schedule(deadlines="08:00:00").deadlines == (time(8),)  # a spreadsheet time cell


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        ({"timezone": "Europe/Londn"}, "Config `timezone`: 'Europe/Londn' is not a time zone"),
        ({"timezone": "../etc/passwd"}, "Config `timezone`: '../etc/passwd' is not a time zone"),
        ({"start": "23/11/2026 08:00"}, "Config `start`: '23/11/2026 08:00' is not a date and time"),
        ({"deadlines": "08:00, 25:00"}, "Config `deadlines`: '25:00' is not a time of day"),
        ({"deadlines": "8pm"}, "Config `deadlines`: '8pm' is not a time of day"),
        ({"duration": "12"}, "Config `duration`: '12' is not a duration"),
        ({"duration": "0h"}, "Config `duration`: '0h' is no time at all"),
        ({"weekdays": "mon-fry"}, "Config `weekdays`: 'fry' is not a day"),
        ({"reminders": "12h, soon"}, "Config `reminders`: 'soon' is not a duration"),
        ({"early_resolution": "maybe"}, "Config `early_resolution`: 'maybe' is neither yes nor no"),
        ({"settle": "a while"}, "Config `settle`: 'a while' is not a duration"),
        ({"deadlines": "20:00", "duration": "12h"}, "give either `deadlines` (times of day) or `duration`"),
    ],
)
def test_bad_values_give_one_clear_line(keys: dict[str, str], message: str) -> None:
    with pytest.raises(ScheduleError) as caught:
        Schedule.from_config(keys)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


# --- deadlines -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("keys", "opened", "deadline"),
    [
        # times of day: the next listed time strictly after opening
        ({"deadlines": "08:00, 20:00"}, utc("2026-11-23 09:00"), utc("2026-11-23 20:00")),
        ({"deadlines": "08:00, 20:00"}, utc("2026-11-23 20:00"), utc("2026-11-24 08:00")),
        ({"deadlines": "08:00, 20:00"}, utc("2026-11-23 07:59"), utc("2026-11-23 08:00")),
        # durations
        ({}, utc("2026-11-23 09:15"), utc("2026-11-24 09:15")),
        ({"duration": "90m"}, utc("2026-11-23 23:00"), utc("2026-11-24 00:30")),
        ({"duration": "1d 12h"}, utc("2026-11-23 08:00"), utc("2026-11-24 20:00")),
    ],
)
def test_next_deadline(keys: dict[str, str], opened: datetime, deadline: datetime) -> None:
    assert Schedule.from_config(keys).next_deadline(opened) == deadline


@pytest.mark.parametrize(
    ("zone", "opened", "deadline_utc"),
    [
        # Europe/London: clocks go forward Sun 29 Mar 2026 01:00 UTC, back Sun 25 Oct 2026 01:00 UTC.
        ("Europe/London", "2026-03-28 08:00", "2026-03-29 07:00"),  # 08:00 BST
        ("Europe/London", "2026-10-24 08:00", "2026-10-25 08:00"),  # 08:00 GMT
        # America/New_York: forward Sun 8 Mar 2026 07:00 UTC, back Sun 1 Nov 2026 06:00 UTC.
        ("America/New_York", "2026-03-07 08:00", "2026-03-08 12:00"),  # 08:00 EDT
        ("America/New_York", "2026-10-31 08:00", "2026-11-01 13:00"),  # 08:00 EST
    ],
)
def test_listed_time_stays_local_across_dst(zone: str, opened: str, deadline_utc: str) -> None:
    s = schedule(timezone=zone, deadlines="08:00")
    deadline = s.next_deadline(wall_time(opened, ZoneInfo(zone)))
    assert deadline == utc(deadline_utc)
    assert deadline.astimezone(ZoneInfo(zone)).strftime("%H:%M") == "08:00"


@pytest.mark.parametrize(
    ("zone", "listed", "opened", "deadline_utc"),
    [
        # A skipped local time moves to the first instant after the jump.
        ("Europe/London", "01:30", "2026-03-28 12:00", "2026-03-29 01:00"),  # 02:00 BST
        ("America/New_York", "02:30", "2026-03-07 12:00", "2026-03-08 07:00"),  # 03:00 EDT
        # A repeated local time means its first occurrence.
        ("Europe/London", "01:30", "2026-10-24 12:00", "2026-10-25 00:30"),  # 01:30 BST
        ("America/New_York", "01:30", "2026-10-31 12:00", "2026-11-01 05:30"),  # 01:30 EDT
    ],
)
def test_listed_time_in_a_dst_gap_or_overlap(zone: str, listed: str, opened: str, deadline_utc: str) -> None:
    s = schedule(timezone=zone, deadlines=listed)
    assert s.next_deadline(wall_time(opened, ZoneInfo(zone))) == utc(deadline_utc)


def test_duration_counts_elapsed_time_across_dst() -> None:
    s = schedule(timezone="Europe/London", duration="24h")
    assert s.next_deadline(wall_time("2026-03-28 08:00", LONDON)) == utc("2026-03-29 08:00")  # 09:00 BST
    assert s.next_deadline(wall_time("2026-10-24 08:00", LONDON)) == utc("2026-10-25 07:00")  # 07:00 GMT
    s = schedule(timezone="America/New_York", duration="12h")
    assert s.next_deadline(wall_time("2026-03-07 20:00", NEW_YORK)) == utc("2026-03-08 13:00")  # 09:00 EDT


@pytest.mark.parametrize(
    ("keys", "opened", "deadline"),
    [
        # times of day: excluded days are skipped
        ({"deadlines": "20:00", "weekdays": "mon-fri"}, "2026-11-27 20:00", "2026-11-30 20:00"),  # Fri → Mon
        ({"deadlines": "20:00", "weekdays": "mon-fri"}, "2026-11-28 10:00", "2026-11-30 20:00"),  # Sat → Mon
        ({"deadlines": "08:00, 20:00", "weekdays": "mon,wed,fri"}, "2026-11-23 20:00", "2026-11-25 08:00"),
        ({"deadlines": "12:00", "weekdays": "sat-sun"}, "2026-11-23 12:00", "2026-11-28 12:00"),
        # duration: the deadline moves to the same time on the next allowed day
        ({"duration": "24h", "weekdays": "mon-fri"}, "2026-11-27 20:00", "2026-11-30 20:00"),
        ({"duration": "12h", "weekdays": "mon-fri"}, "2026-11-27 18:00", "2026-11-30 06:00"),
        ({"duration": "2d", "weekdays": "sat-sun"}, "2026-11-28 09:00", "2026-12-05 09:00"),
    ],
)
def test_weekday_masks(keys: dict[str, str], opened: str, deadline: str) -> None:
    assert Schedule.from_config(keys).next_deadline(utc(opened)) == utc(deadline)


def test_carried_deadline_keeps_local_time_across_dst() -> None:
    s = schedule(timezone="Europe/London", duration="24h", weekdays="mon-fri")
    deadline = s.next_deadline(wall_time("2026-03-27 12:00", LONDON))  # Fri 12:00 GMT
    assert deadline == wall_time("2026-03-30 12:00", LONDON)  # Mon 12:00 BST, not 13:00


def test_opening_and_deadline_in_other_zones_compare_as_instants() -> None:
    s = schedule(timezone="America/New_York", deadlines="08:00")
    opened = wall_time("2026-11-23 13:30", BERLIN)  # 07:30 in New York
    assert s.next_deadline(opened) == wall_time("2026-11-23 08:00", NEW_YORK)


# --- first opening -------------------------------------------------------------------------------


def test_first_opening() -> None:
    now = utc("2026-11-23 09:00")
    assert schedule().first_opening(now) == now
    assert schedule(start="2026-11-24 08:00").first_opening(now) == utc("2026-11-24 08:00")  # caller waits
    late = schedule(start="2026-11-23 08:00")  # an hour late: round 1 still runs from the start
    assert late.first_opening(now) == utc("2026-11-23 08:00")
    stale = schedule(start="2026-11-20 08:00")  # round 1 would be over before anyone could answer
    assert stale.first_opening(now) == now


def test_start_is_local_to_the_timezone() -> None:
    s = schedule(timezone="America/New_York", start="2026-11-23 08:00")
    assert s.first_opening(utc("2026-11-23 12:00")) == utc("2026-11-23 13:00")


# --- reminders and early resolution --------------------------------------------------------------


@pytest.mark.parametrize(
    ("now", "due"),
    [
        ("2026-11-23 07:59", []),
        ("2026-11-23 08:00", [timedelta(hours=12)]),
        ("2026-11-23 19:00", [timedelta(hours=12), timedelta(hours=1)]),
        ("2026-11-23 19:59", [timedelta(hours=12), timedelta(hours=1)]),
        ("2026-11-23 20:00", []),
        ("2026-11-24 03:00", []),
    ],
)
def test_reminders_due(now: str, due: list[timedelta]) -> None:
    assert schedule().reminders_due(utc("2026-11-23 20:00"), utc(now)) == due


def test_reminders_reaching_back_to_the_opening_are_dropped() -> None:
    s = schedule(deadlines="08:00, 20:00")  # 12-hour rounds with the default 12h reminder
    deadline, opened = utc("2026-11-23 20:00"), utc("2026-11-23 08:00")
    assert s.reminders_due(deadline, utc("2026-11-23 08:00"), opened_at=opened) == []
    assert s.reminders_due(deadline, utc("2026-11-23 19:30"), opened_at=opened) == [timedelta(hours=1)]


def test_no_reminders() -> None:
    assert schedule(reminders="none").reminders_due(utc("2026-11-23 20:00"), utc("2026-11-23 19:59")) == []


def test_reminders_count_real_hours_across_dst() -> None:
    s = schedule(timezone="Europe/London", deadlines="08:00")
    deadline = wall_time("2026-03-29 08:00", LONDON)  # 07:00 UTC, the morning the clocks go forward
    assert s.reminders_due(deadline, utc("2026-03-28 18:59")) == []
    assert s.reminders_due(deadline, utc("2026-03-28 19:00")) == [timedelta(hours=12)]


def test_early_resolution() -> None:
    last = wall_time("2026-11-23 10:00", BERLIN)  # 09:00 UTC
    on = schedule(early_resolution="yes")
    assert not on.early_due(last, utc("2026-11-23 09:09"))
    assert on.early_due(last, utc("2026-11-23 09:10"))
    assert not schedule().early_due(last, utc("2026-11-24 09:00"))  # off by default
    assert schedule(early_resolution="yes", settle="0m").early_due(last, last)


# --- display -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("zone", "deadline", "text"),
    [
        ("Europe/Berlin", utc("2026-11-23 19:00"), "Mon 23 Nov 2026 20:00 CET (19:00 UTC)"),
        ("Europe/Berlin", utc("2026-06-01 06:00"), "Mon 01 Jun 2026 08:00 CEST (06:00 UTC)"),
        ("UTC", utc("2026-11-23 20:00"), "Mon 23 Nov 2026 20:00 UTC"),
        ("Europe/London", utc("2026-11-23 20:00"), "Mon 23 Nov 2026 20:00 GMT"),
        ("America/New_York", utc("2026-11-24 01:00"), "Mon 23 Nov 2026 20:00 EST (Tue 01:00 UTC)"),
        ("Asia/Tokyo", utc("2026-11-23 20:00"), "Tue 24 Nov 2026 05:00 JST (Mon 20:00 UTC)"),
    ],
)
def test_format_deadline(zone: str, deadline: datetime, text: str) -> None:
    assert schedule(timezone=zone).format_deadline(deadline) == text


def test_second_pass_through_a_repeated_hour_is_not_before_the_opening() -> None:
    s = schedule(timezone="America/New_York", deadlines="01:50")
    opened = datetime(2026, 11, 1, 1, 45, fold=1, tzinfo=NEW_YORK)  # 01:45 EST, after 01:50 EDT
    assert s.next_deadline(opened) == wall_time("2026-11-02 01:50", NEW_YORK)


def test_times_as_an_english_locale_sheet_shows_them() -> None:
    from datetime import time as clock

    schedule = Schedule.from_config({"deadlines": "8:00 AM, 8:00:00 PM; 12:30 pm, 12:15 am"})
    assert schedule.deadlines == (clock(0, 15), clock(8, 0), clock(12, 30), clock(20, 0))


def test_phase_kinds_can_have_their_own_clock() -> None:
    from datetime import UTC, datetime, timedelta

    schedule = Schedule.from_config({"deadlines": "20:00", "retreat_duration": "12h", "timezone": "UTC"})
    opened = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    assert schedule.next_deadline(opened, "retreat") == opened + timedelta(hours=12)
    assert schedule.next_deadline(opened, "movement") == opened + timedelta(days=1)
    with pytest.raises(ScheduleError, match="retreat_duration"):
        Schedule.from_config({"retreat_duration": "soon"})
