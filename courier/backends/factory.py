"""Backends by name, from the deployment's [inbox] and [outbox] tables and a game's workbook path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from courier.backends.base import BackendError, Inbox, Transport, Workbook


def open_inbox(settings: dict[str, Any]) -> Inbox:
    kind = settings.get("type", "maildir")
    if kind == "maildir":
        from courier.backends.maildir import MaildirInbox

        return MaildirInbox(Path(settings["path"]))
    raise BackendError(f"[inbox] type = {kind!r} is not known (known: maildir)")


def open_transport(settings: dict[str, Any]) -> Transport:
    kind = settings.get("type", "files")
    if kind == "files":
        from courier.backends.files import EmlDirectory

        return EmlDirectory(Path(settings["path"]))
    raise BackendError(f"[outbox] type = {kind!r} is not known (known: files)")


def open_workbook(path: Path, *, timezone: str) -> Workbook:
    from courier.backends.workbook import XlsxWorkbook

    return XlsxWorkbook(path, timezone=timezone)
