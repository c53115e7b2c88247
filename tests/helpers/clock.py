"""The tests' clock: every tick and mail of a test game happens in December 2026.

`at(day, hour, minute)` is the one way to name a moment: day 0 is 1 December. In December London
keeps GMT (+00:00), so `at(0, 8, 5)` is the same instant as 08:05 UTC whichever zone the game's
Config tab names; `zone=` is there for a test that needs another one.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from zoneinfo import ZoneInfo

LONDON = ZoneInfo("Europe/London")


def at(day: int, hour: int, minute: int = 0, *, zone: tzinfo = LONDON) -> datetime:
    """`day` days after 1 December 2026, at `hour`:`minute` in `zone`."""
    return datetime(2026, 12, 1 + day, hour, minute, tzinfo=zone)
