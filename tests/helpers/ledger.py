"""The Ledger tab as a test reads it (issue 29): the table first (its headers are the tab's first row,
then one row per player), then a blank row, then the game's facts: ``Game | truce-1 | Phase … |
Deadline … | Seed SHA-256 …`` (the seed itself once the game is over)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Rows = Sequence[Sequence[Any]]


def _blank(row: Sequence[Any]) -> bool:
    return all(c in (None, "") for c in row)


def ledger_table(rows: Rows) -> list[list[Any]]:
    """The headers and the players' rows: every row above the first blank one."""
    end = next((i for i, row in enumerate(rows) if _blank(row)), len(rows))
    return [list(row) for row in rows[:end]]


def ledger_facts(rows: Rows) -> list[Any]:
    """The row of the game's facts under the table (``Game``, its id, ``Phase``, …)."""
    return list(next(row for row in rows if row and row[0] == "Game"))
