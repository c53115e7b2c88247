"""A Form Responses Timestamp written as text, in every form a spreadsheet locale writes it (issue 29:
``12/15/2026 10:14:03`` was skipped). Known answers in tests/data/form_times.yaml; the tick's side
(the row counts, an unreadable one is told to the organiser once) is tests/courier/tick/test_form_rows.py."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import yaml

from courier.backends.sheet_tables import Table, parse_snapshot
from tests.helpers.paths import DATA

CASES: list[dict[str, Any]] = yaml.safe_load((DATA / "form_times.yaml").read_text(encoding="utf-8"))
HEADER = [(h, "General") for h in ("Timestamp", "Email Address", "Game", "Orders")]


def _read(texts: list[str], zone: str) -> tuple[list[datetime], tuple[str, ...]]:
    rows = [
        HEADER,
        *([(t, "General"), ("a@x.test", "General"), ("g", "General"), ("loot", "General")] for t in texts),
    ]
    empty = Table("Config", [[("Key", "General"), ("Value", "General")]])
    players = Table("Players", [[("Name", "General"), ("Email", "General")]])
    snapshot = parse_snapshot(
        config=empty, players=players, responses=[Table("Form Responses 1", rows)], zone=ZoneInfo(zone)
    )
    return [r.timestamp for r in snapshot.responses], snapshot.unreadable


@pytest.mark.parametrize("case", CASES, ids=[f"{c['text']} ({c['zone']})" for c in CASES])
def test_a_text_timestamp_reads_as_its_locale_means(case: dict[str, Any]) -> None:
    zone = ZoneInfo(case["zone"])
    times, unreadable = _read([case["text"], *case.get("others", [])], case["zone"])
    if case["means"] is None:
        assert len(unreadable) == 1 and case["text"] in unreadable[0] and "row 2" in unreadable[0]
        return
    expected = datetime.fromisoformat(case["means"]).replace(tzinfo=zone)
    assert expected in times and not unreadable
