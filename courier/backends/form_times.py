"""A Form Responses Timestamp written as text, in the forms Google and spreadsheet programs write it.

Google Sheets keeps a form's Timestamp as a date-time (a serial number underneath), but a sheet
copied, imported from CSV or downloaded may hold it as text in the sheet's locale:
``12/15/2026 10:14:03`` (US, month first), ``15/12/2026 10:14:03`` (UK, France, Spain…),
``15.12.2026 10:14:03`` (Germany), ``15-12-2026 10:14`` (the Netherlands), ``2026/12/15 10:14:03``
(Japan, China), ISO ``2026-12-15 10:14:03``, or a serial number typed as text. With slashes, 05/12
may be either: the other rows of the same tab decide (a 15 in the first place means day first), and
where none does, the country of the game's time zone (month first in the United States and the few
countries that write dates so, day first elsewhere).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import cache
from importlib import resources
from zoneinfo import ZoneInfo

__all__ = ["day_first", "from_serial", "parse_time_text"]

SERIAL_EPOCH = datetime(1899, 12, 30)  # day 0 of spreadsheet serial dates (Lotus 1-2-3 leap-year bug)

# day, month and year in some order, then an optional time of day with optional seconds and AM/PM.
_NUMERIC = re.compile(
    r"^(?P<a>\d{1,4})(?P<sep>[/.\-])(?P<b>\d{1,2})(?P=sep)(?P<c>\d{1,4})\.?"
    r"(?:[ ,T]+(?P<hour>\d{1,2})[:.](?P<minute>\d{2})(?:[:.](?P<second>\d{2})(?:[.,]\d+)?)?"
    r"\s*(?P<half>[ap]\.?\s?m\.?)?)?$",
    re.IGNORECASE,
)
# Countries whose everyday dates put the month first (ISO 3166 codes, as zone.tab gives them).
_MONTH_FIRST = frozenset({"US", "PH", "FM", "MH", "PW", "AS", "GU", "MP", "PR", "UM", "VI"})


def parse_time_text(text: str, *, day_first: bool) -> datetime | None:
    """A naive (or, for ISO with an offset, aware) time from a Timestamp cell's text; None when it
    reads as none of the forms above. ``day_first`` settles ``05/12/2026``."""
    value = text.strip()
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        pass
    match = _NUMERIC.match(value)
    if match:
        return _from_parts(match, day_first=day_first)
    try:
        return from_serial(float(value))
    except (ValueError, OverflowError):
        return None


def from_serial(serial: float) -> datetime | None:
    """A spreadsheet serial number (days since 1899-12-30) as a naive time."""
    if not math.isfinite(serial):
        return None
    # Whole milliseconds: a double serial carries ~1 µs of noise.
    return SERIAL_EPOCH + timedelta(milliseconds=round(serial * 86_400_000))


def day_first(texts: Iterable[str], zone: ZoneInfo) -> bool:
    """Whether a tab's slashed dates put the day first: a day above 12 in any row says which; else
    the custom of the country of ``zone``."""
    for text in texts:
        match = _NUMERIC.match(text.strip())
        if not match or match["sep"] != "/" or len(match["a"]) == 4:
            continue
        first, second = int(match["a"]), int(match["b"])
        if first > 12 >= second:
            return True
        if second > 12 >= first:
            return False
    return _country(zone.key) not in _MONTH_FIRST


def _from_parts(match: re.Match[str], *, day_first: bool) -> datetime | None:
    a, b, c = int(match["a"]), int(match["b"]), int(match["c"])
    if len(match["a"]) == 4:  # 2026/12/15: year first, then month and day
        orders = [(a, b, c)]
    elif match["sep"] in ".-":  # dots and dashes are day first everywhere
        orders = [(c, b, a)]
    else:  # slashes: the order the tab or the zone says, else the one that reads (15/12 is day first)
        orders = [(c, b, a), (c, a, b)] if day_first else [(c, a, b), (c, b, a)]
    hour, minute = int(match["hour"] or 0), int(match["minute"] or 0)
    half = (match["half"] or "").lower()[:1]
    if half:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half == "p" else 0)
    for year, month, day in orders:
        if year < 100:
            return None  # a two-digit year is no time Google writes; guessing its century is worse
        try:
            return datetime(year, month, day, hour, minute, int(match["second"] or 0))
        except ValueError:
            continue
    return None


def _country(zone: str) -> str:
    return _zone_countries().get(zone, "")


@cache
def _zone_countries() -> dict[str, str]:
    """zone name → ISO country code, from the tz database's zone.tab (the ``tzdata`` package)."""
    try:
        text = resources.files("tzdata").joinpath("zoneinfo", "zone.tab").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return {}
    rows = (line.split("\t") for line in text.splitlines() if line and not line.startswith("#"))
    return {row[2]: row[0] for row in rows if len(row) >= 3}
