"""When one game's rounds close, from the organiser's Config tab.

Pure: nothing here reads the clock; every "now" is passed in. Times are aware datetimes. A deadline at
"08:00" stays 08:00 local time across daylight-saving changes; a local time the clocks skip moves to
the first instant after the jump. A `duration` ("24h") and reminders count real elapsed time, so daily
rounds by duration shift an hour in local time at a change (organisers who mind use `deadlines`); a
deadline carried past excluded weekdays keeps its local time of day.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from itertools import pairwise
from typing import TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

__all__ = ["LONGEST", "Schedule", "ScheduleError", "parse_duration"]

DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_FULL_DAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
UTC_ZONE = ZoneInfo("UTC")
_T = TypeVar("_T")
_YES = frozenset({"yes", "y", "true", "on", "1"})
_NO = frozenset({"no", "n", "false", "off", "0"})


class ScheduleError(ValueError):
    """An organiser's mistake in the schedule keys; the message names the key and quotes the value."""


# --- parsing ---------------------------------------------------------------------------------------

_DURATION_PART = re.compile(r"(\d+)\s*(days?|d|hours?|hrs?|h|minutes?|mins?|m)", re.IGNORECASE)
_UNIT_SECONDS = {"d": 86400, "h": 3600, "m": 60}
# The longest time Courier takes from anyone, a setting or a command: longer is a slip of the keyboard
# (`extend 3000000d`), and a deadline that far ahead would run past the calendar's end.
LONGEST = timedelta(days=366)


def parse_duration(text: str) -> timedelta:
    """``12h``, ``90m``, ``2d``, ``1d 12h``, ``1h30m``, ``2 days`` → timedelta. Raises ScheduleError."""
    cleaned = text.strip()
    parts = list(_DURATION_PART.finditer(cleaned))
    if not cleaned or _DURATION_PART.sub("", cleaned).strip(" ,") or not parts:
        raise ScheduleError(f"{cleaned!r} is not a duration; write e.g. 12h, 90m, 2d or 1d 12h")
    seconds = sum(int(p.group(1)) * _UNIT_SECONDS[p.group(2)[0].lower()] for p in parts)
    if seconds > LONGEST.total_seconds():
        raise ScheduleError(f"{cleaned!r} is too long: at most {LONGEST.days} days")
    return timedelta(seconds=seconds)


def _time_of_day(text: str) -> time:
    """``20:00``, ``8.30``, or as an English-locale sheet shows a time: ``8:00 PM``, ``8:00:00 pm``."""
    match = re.fullmatch(r"(\d{1,2})[:.](\d{2})(?::00)?\s*([ap]\.?m\.?)?", text.strip(), re.IGNORECASE)
    hour = int(match.group(1)) if match else 99
    if match and match.group(3):
        hour = hour % 12 + (12 if match.group(3).lower().startswith("p") else 0) if 1 <= hour <= 12 else 99
    if not match or hour > 23 or int(match.group(2)) > 59:
        raise ScheduleError(f"{text.strip()!r} is not a time of day; write e.g. 08:00, 20:00")
    return time(hour, int(match.group(2)))


def _weekday(text: str) -> int:
    name = text.strip().lower()
    for number, full in enumerate(_FULL_DAY_NAMES):
        if len(name) >= 2 and full.startswith(name):
            return number
    raise ScheduleError(f"{text.strip()!r} is not a day; write e.g. mon-fri, sat-sun or mon,wed,fri")


def _weekdays(text: str) -> frozenset[int]:
    days: set[int] = set()
    for item in re.split(r"[,;\s]+", text.strip()):
        first, dash, last = item.partition("-")
        if not dash:
            days.add(_weekday(first))
            continue
        start, end = _weekday(first), _weekday(last)
        days.update((start + i) % 7 for i in range((end - start) % 7 + 1))  # fri-mon wraps the week
    return frozenset(days)


def _keyed(key: str, value: str, parse: Callable[[str], _T]) -> _T:
    """Run one key's parser; its error gains the key's name."""
    try:
        return parse(value)
    except ScheduleError as e:
        raise ScheduleError(f"Config `{key}`: {e}") from None


# --- the schedule ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Schedule:
    timezone: ZoneInfo = UTC_ZONE
    start: datetime | None = None  # None: the game opens when the tick first sees it
    deadlines: tuple[time, ...] = ()  # times of day; empty means rounds last `duration`
    duration: timedelta = timedelta(hours=24)
    weekdays: frozenset[int] = frozenset(range(7))  # 0 = Monday
    reminders: tuple[timedelta, ...] = (timedelta(hours=12), timedelta(hours=1))  # longest first
    early_resolution: bool = False
    settle: timedelta = timedelta(minutes=10)
    # Phases of some kinds run on their own clock (`retreat_duration = 12h`): Diplomacy's retreats
    # and builds, Veneer's votes. A phase kind without an entry follows `deadlines`/`duration`.
    phase_durations: Mapping[str, timedelta] = field(default_factory=dict)
    # After an outage, an overdue deadline moves to at least now + this (see courier/tick/outage.py).
    outage_grace: timedelta = timedelta(hours=12)

    @classmethod
    def from_config(cls, config: Mapping[str, str]) -> Schedule:
        """Reads the schedule keys of a Config tab; other keys are ignored, blank values mean default."""
        values = {str(k).strip().lower(): str(v).strip() for k, v in config.items() if str(v).strip()}
        zone = _keyed("timezone", values.get("timezone", "UTC"), _zone)
        if "deadlines" in values and "duration" in values:
            raise ScheduleError("Config: give either `deadlines` (times of day) or `duration`, not both")
        schedule = cls(
            timezone=zone,
            start=_keyed("start", values["start"], lambda v: _start(v, zone)) if "start" in values else None,
            deadlines=_keyed("deadlines", values.get("deadlines", ""), _deadlines),
            duration=_keyed("duration", values.get("duration", "24h"), _positive_duration),
            weekdays=_keyed("weekdays", values.get("weekdays", "mon-sun"), _weekdays),
            reminders=_keyed("reminders", values.get("reminders", "12h, 1h"), _reminders),
            early_resolution=_keyed("early_resolution", values.get("early_resolution", "no"), _yes_no),
            settle=_keyed("settle", values.get("settle", "10m"), parse_duration),
            outage_grace=_keyed("outage_grace", values.get("outage_grace", "12h"), parse_duration),
            phase_durations={
                key.removesuffix("_duration"): _keyed(key, value, _positive_duration)
                for key, value in values.items()
                if key.endswith("_duration")
            },
        )
        return schedule

    # --- deadlines --------------------------------------------------------------------------------

    def first_opening(self, now: datetime) -> datetime:
        """When round 1 opens: the configured start (a future one makes the caller wait), else now.
        A start so long past that round 1 would already be over opens now instead, so nobody's
        first round is resolved before they could answer."""
        if self.start is None:
            return now
        if self.start > now or self.next_deadline(self.start) > now:
            return self.start.astimezone(UTC)
        return now

    def next_deadline(self, opened_at: datetime, kind: str = "") -> datetime:
        """The first deadline strictly after a phase (of ``kind``) opened, on an allowed weekday. In
        UTC: an aware time in a repeated local hour never compares equal (==) to one in another zone."""
        if kind in self.phase_durations:
            return opened_at.astimezone(UTC) + self.phase_durations[kind]
        local = opened_at.astimezone(self.timezone)
        if self.deadlines:
            return self._next_listed_time(local).astimezone(UTC)
        deadline = (local.astimezone(UTC) + self.duration).astimezone(self.timezone)  # elapsed time
        while deadline.weekday() not in self.weekdays:  # same time of day on the next allowed day
            naive = deadline.replace(tzinfo=None) + timedelta(days=1)
            deadline = _localize(naive, self.timezone)
        return deadline.astimezone(UTC)

    def full_round_deadline(self, opened_at: datetime, kind: str = "") -> datetime:
        """The deadline of a round opened off the schedule (`process now`): the first deadline that
        leaves it at least a normal round's length. With `duration` (or a phase's own clock) that is
        ``next_deadline``; with `deadlines`, the shortest time from one listed time to the next
        (24h for one a day), so a round processed at 11:00 does not close at 20:00 the same day."""
        deadline = self.next_deadline(opened_at, kind)
        if kind in self.phase_durations or not self.deadlines:
            return deadline
        while deadline - opened_at.astimezone(UTC) < self._shortest_round():
            deadline = self.next_deadline(deadline, kind)
        return deadline

    def _shortest_round(self) -> timedelta:
        """The shortest time between two listed deadlines of a day (and the last to the next day's first)."""
        day = date(2000, 1, 3)
        times = sorted({datetime.combine(day, at) for at in self.deadlines})
        times.append(times[0] + timedelta(days=1))
        return min(later - earlier for earlier, later in pairwise(times))

    def _next_listed_time(self, local: datetime) -> datetime:
        opened = local.astimezone(UTC)  # same-zone comparison ignores fold; UTC does not
        for days_ahead in range(8):
            day = local.date() + timedelta(days=days_ahead)
            if day.weekday() not in self.weekdays:
                continue
            for at in self.deadlines:
                candidate = _localize(datetime.combine(day, at), self.timezone)
                if candidate.astimezone(UTC) > opened:
                    return candidate
        raise AssertionError("unreachable: at least one weekday is allowed")

    # --- reminders, early resolution, display -----------------------------------------------------

    def reminders_due(
        self, deadline: datetime, now: datetime, *, opened_at: datetime | None = None
    ) -> list[timedelta]:
        """Reminder offsets whose moment has passed while the deadline has not, longest first. With
        ``opened_at``, offsets reaching back to the opening are dropped: the round's own mail just
        told the players."""
        utc_deadline = deadline.astimezone(UTC)
        if now >= utc_deadline:
            return []
        return [
            offset
            for offset in self.reminders
            if utc_deadline - offset <= now and (opened_at is None or utc_deadline - offset > opened_at)
        ]

    def early_due(self, last_submission_at: datetime, now: datetime) -> bool:
        """With early resolution on and everyone in: has the last submission settled?"""
        elapsed = now.astimezone(UTC) - last_submission_at.astimezone(UTC)
        return self.early_resolution and elapsed >= self.settle

    def format_deadline(self, dt: datetime) -> str:
        """``Mon 23 Nov 2026 20:00 CET (19:00 UTC)``; English names whatever the process locale."""
        local, utc = dt.astimezone(self.timezone), dt.astimezone(UTC)
        text = f"{_day_text(local.date())} {local:%H:%M} {local.tzname()}"
        if local.utcoffset() == timedelta(0):
            return text
        utc_day = "" if utc.date() == local.date() else f"{DAY_NAMES[utc.weekday()]} "
        return f"{text} ({utc_day}{utc:%H:%M} UTC)"


# --- helpers ---------------------------------------------------------------------------------------


def _day_text(day: date) -> str:
    return f"{DAY_NAMES[day.weekday()]} {day.day:02d} {MONTH_NAMES[day.month - 1]} {day.year}"


def _localize(naive: datetime, zone: ZoneInfo) -> datetime:
    """Local wall time → aware. A repeated time takes its first occurrence; a skipped time (spring
    forward) becomes the first instant after the jump."""
    aware = naive.replace(tzinfo=zone, fold=0)
    if aware.astimezone(UTC).astimezone(zone).replace(tzinfo=None) == naive:
        return aware
    # In the gap: fold=1 reads it with the later offset (an instant before the jump), fold=0 with the
    # earlier one (after it). Bisect to the first second that has the later offset.
    before = naive.replace(tzinfo=zone, fold=1).astimezone(UTC)
    after = aware.astimezone(UTC)
    new_offset = after.astimezone(zone).utcoffset()
    while (after - before) > timedelta(seconds=1):
        middle = before + timedelta(seconds=int((after - before).total_seconds()) // 2)
        if middle.astimezone(zone).utcoffset() == new_offset:
            after = middle
        else:
            before = middle
    return after.astimezone(zone)


def _zone(text: str) -> ZoneInfo:
    try:
        return ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        raise ScheduleError(f"{text!r} is not a time zone; use an IANA name like Europe/London") from None


def _start(text: str, zone: ZoneInfo) -> datetime:
    try:
        parsed = datetime.fromisoformat(re.sub(r"([ T])(\d):", r"\g<1>0\2:", text))  # 8:00 → 08:00
    except ValueError:
        raise ScheduleError(f"{text!r} is not a date and time; write e.g. 2026-11-23 08:00") from None
    if parsed.tzinfo is None:
        return _localize(parsed, zone)
    return parsed.astimezone(zone)


def _deadlines(text: str) -> tuple[time, ...]:
    # Split on commas and spaces, but keep "8:00 PM" together.
    items = re.findall(r"\d{1,2}[:.]\d{2}(?::00)?(?:\s*[ap]\.?m\.?)?|[^,;\s]+", text, re.IGNORECASE)
    return tuple(sorted({_time_of_day(item) for item in items}))


def _positive_duration(text: str) -> timedelta:
    duration = parse_duration(text)
    if duration <= timedelta(0):
        raise ScheduleError(f"{text.strip()!r} is no time at all; a round needs e.g. 12h or 2d")
    return duration


def _reminders(text: str) -> tuple[timedelta, ...]:
    if text.strip().lower() == "none":
        return ()
    offsets = {_positive_duration(item) for item in text.split(",") if item.strip()}
    return tuple(sorted(offsets, reverse=True))


def _yes_no(text: str) -> bool:
    if text.lower() in _YES:
        return True
    if text.lower() in _NO:
        return False
    raise ScheduleError(f"{text!r} is neither yes nor no")
