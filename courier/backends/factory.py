"""Backends by name: the deployment's [inbox] and [outbox] tables, and each game's workbook or sheet."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from courier.backends.base import BackendError, Inbox, Transport, Workbook


def open_inbox(settings: dict[str, Any], *, last_uid: Callable[[str], int]) -> Inbox:
    """``last_uid(prefix)``: the highest IMAP uid the journal holds under a source-id prefix."""
    kind = settings.get("type", "maildir")
    if kind == "maildir":
        from courier.backends.maildir import MaildirInbox

        return MaildirInbox(Path(settings["path"]))
    if kind == "imap":
        from courier.backends.imap import ImapInbox

        return ImapInbox(settings, last_uid=last_uid)
    raise BackendError(f"[inbox] type = {kind!r} is not known (known: maildir, imap)")


def open_transport(settings: dict[str, Any]) -> Transport:
    kind = settings.get("type", "files")
    if kind == "files":
        from courier.backends.files import EmlDirectory

        return EmlDirectory(Path(settings["path"]))
    if kind == "smtp":
        from courier.backends.smtp import SmtpTransport

        return SmtpTransport(settings)
    raise BackendError(f"[outbox] type = {kind!r} is not known (known: files, smtp)")


def open_workbook(
    *, workbook: Path | None, sheet: str | None, sheets: dict[str, Any], timezone: str = "UTC"
) -> Workbook:
    """The game's local workbook (read in ``timezone``) or its Google Sheet (which knows its zone);
    ``sheets`` is the deployment's [sheets] table."""
    if sheet is not None:
        from courier.backends.gsheet import GoogleSheet

        return GoogleSheet(sheet, sheets)
    from courier.backends.workbook import XlsxWorkbook

    assert workbook is not None
    return XlsxWorkbook(workbook, timezone=timezone)
