"""Backends by name: the deployment's [inbox] and [outbox] tables, and each game's workbook or sheet,
opened by looking their kind up in the table of courier/backends/kinds.py."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from courier.backends.base import Inbox, Transport, Workbook
from courier.backends.kinds import INBOX, OUTBOX, SHEETS, find_kind, kinds_of
from courier.backends.sheets_quota import SheetsQuota


def open_inbox(settings: dict[str, Any], *, last_uid: Callable[[str], int]) -> Inbox:
    """``last_uid(prefix)``: the highest IMAP uid the journal holds under a source-id prefix."""
    kind = find_kind(INBOX, settings.get(INBOX.kind_key, INBOX.default_kind))
    return cast(Inbox, kind.opener(settings, last_uid=last_uid))


def open_transport(settings: dict[str, Any]) -> Transport:
    kind = find_kind(OUTBOX, settings.get(OUTBOX.kind_key, OUTBOX.default_kind))
    return cast(Transport, kind.opener(settings))


def open_workbook(
    *,
    workbook: Path | None,
    sheet: str | None,
    sheets: dict[str, Any],
    timezone: str = "UTC",
    quota: SheetsQuota | None = None,
) -> Workbook:
    """The game's local workbook (read in ``timezone``) or its Google Sheet (which knows its zone);
    ``sheets`` is the deployment's [sheets] table, ``quota`` the tick's budget of Sheets requests."""
    chosen = {"sheet": sheet, "workbook": workbook}  # a [[game]] names exactly one
    kind = next(k for k in kinds_of(SHEETS) if chosen.get(k.game_key) is not None)
    return cast(Workbook, kind.opener(chosen[kind.game_key], sheets, timezone=timezone, quota=quota))
