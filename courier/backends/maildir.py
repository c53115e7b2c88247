"""The embedded inbox: a Maildir folder any local MTA (or ``deliver``) can drop mail into.

A message is unprocessed while it sits in ``new/`` or in ``cur/`` without the S (seen) flag; marking
it processed renames it to ``cur/<key>:2,<flags>S``, and a rejected one goes to the ``.Rejected``
sub-maildir. Only renames, so a crash never loses or duplicates a message."""

from __future__ import annotations

import contextlib
import mailbox
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from courier.backends.base import BackendError, RawMessage

__all__ = ["SOURCE_PREFIX", "MaildirInbox", "deliver"]

SOURCE_PREFIX = "maildir:"
REJECTED_FOLDER = "Rejected"
_COLON = ":"  # the Maildir info separator, as mailbox.Maildir uses it on POSIX
# Delivery time as the Maildir convention writes it: "<seconds>.M<microseconds>P<pid>..." (mailbox,
# Dovecot, Courier); other writers give only the seconds.
_DELIVERY_TIME = re.compile(r"^(\d+)\.(?:[^.]*?M(\d{1,6}))?")


@dataclass(frozen=True)
class _Entry:
    key: str
    file: Path
    flags: str  # "" for new/, else the letters after ":2,"


def deliver(path: Path, raw: bytes, *, at: datetime | None = None) -> str:
    """Drop ``raw`` into ``path``'s new/ the Maildir way (write in tmp/, then rename); returns the key.

    ``at`` sets the delivery time (the file's mtime), as a simulated clock needs."""
    _ensure_maildir(Path(path))
    key = mailbox.Maildir(path, factory=None).add(raw)
    if at is not None:
        stamp = at.timestamp()
        os.utime(Path(path) / "new" / key, (stamp, stamp))
    return key


def _ensure_maildir(path: Path) -> None:
    # mailbox.Maildir(create=True) only fills in new/cur/tmp when the top folder is new too.
    for subdir in ("new", "cur", "tmp"):
        (path / subdir).mkdir(mode=0o700, parents=True, exist_ok=True)


def _flags(filename: str) -> str:
    info = filename.partition(_COLON)[2]
    return info[2:] if info.startswith("2,") else ""


def _delivery_time(entry: _Entry) -> float:
    match = _DELIVERY_TIME.match(entry.key)
    if match is not None:
        return int(match.group(1)) + int(match.group(2) or 0) / 1e6
    try:
        return entry.file.stat().st_mtime
    except FileNotFoundError:  # gone since listing; fetch_new skips it
        return 0.0


class MaildirInbox:
    """An ``Inbox`` over a Maildir folder (created with new/, cur/, tmp/ if missing).

    Marking touches only the message marked: the inbox remembers where it saw (or put) each
    message, so a tick costs what its new mail costs however many messages cur/ holds."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        _ensure_maildir(self.path)
        self._known: dict[str, _Entry] = {}  # key -> where this inbox last saw or put the message
        self._rejected: set[str] = set()  # keys this inbox moved to the Rejected folder

    def fetch_new(self) -> list[RawMessage]:
        """Unprocessed messages, oldest first; reads only, so a crash before marking changes nothing."""
        messages = []
        for entry in sorted(self._unprocessed(), key=lambda e: (_delivery_time(e), e.key)):
            try:
                raw = entry.file.read_bytes()
                # The MTA wrote the file on delivery: its mtime is when the mail reached us, which
                # decides the round an order counts for, however late the tick that reads it.
                delivered = datetime.fromtimestamp(entry.file.stat().st_mtime, UTC)
            except FileNotFoundError:  # marked or removed since we listed it
                continue
            self._known[entry.key] = entry
            messages.append(RawMessage(source_id=SOURCE_PREFIX + entry.key, raw=raw, received_at=delivered))
        return messages

    def fetch_since(self, since: datetime) -> list[RawMessage]:
        """Every message delivered since ``since`` (new, processed and rejected), oldest first; the
        same source ids as ``fetch_new`` gave, so the journal knows the ones it still holds."""
        folders = [self.path, self.path / f".{REJECTED_FOLDER}"]
        messages = []
        for folder in (f for f in folders if (f / "cur").is_dir()):
            for subdir in ("new", "cur"):
                for file in sorted((folder / subdir).iterdir()):
                    if file.name.startswith(".") or not file.is_file():
                        continue
                    delivered = datetime.fromtimestamp(file.stat().st_mtime, UTC)
                    if delivered >= since:
                        key = file.name.partition(_COLON)[0]
                        messages.append(RawMessage(SOURCE_PREFIX + key, file.read_bytes(), delivered))
        return sorted(messages, key=lambda m: (m.received_at or since, m.source_id))

    def mark_processed(self, source_id: str, *, rejected: bool = False) -> None:
        """Move the message to cur/ with flag S (and into .Rejected if ``rejected``). Idempotent; a
        message that is already gone is fine; one that may not be moved is a ``BackendError``."""
        key = _key(source_id)
        if key in self._rejected:
            return
        entry = self._known.get(key) or self._look_up(key)
        if entry is None:
            return
        try:
            self._move(entry, rejected=rejected)
        except FileNotFoundError:  # moved by someone else since we saw it: look where it is now
            entry = self._look_up(key)
            if entry is not None:
                with contextlib.suppress(FileNotFoundError):  # and gone again meanwhile
                    self._move(entry, rejected=rejected)

    def file_away(self, source_id: str, *, rejected: bool) -> None:
        """Rejected mail (strangers, forgeries, auto-replies) goes to the ``.Rejected`` folder."""
        if rejected:
            self.mark_processed(source_id, rejected=True)

    def close(self) -> None:
        pass

    def _move(self, entry: _Entry, *, rejected: bool) -> None:
        flags = "".join(sorted(set(entry.flags) | {"S"}))
        try:
            home = self._rejected_folder() if rejected else self.path
            target = home / "cur" / f"{entry.key}{_COLON}2,{flags}"
            if target != entry.file:
                os.rename(entry.file, target)
        except FileNotFoundError:
            raise
        except OSError as e:  # the folder's permissions, a full disk: the operator's to fix
            raise BackendError(
                f"{self.path}: cannot mark mail read ({e.strerror or e}); give this user write access"
                " to the Maildir's folders"
            ) from e
        if rejected:
            self._known.pop(entry.key, None)
            self._rejected.add(entry.key)
        else:
            self._known[entry.key] = _Entry(entry.key, target, flags)

    def _look_up(self, key: str) -> _Entry | None:
        """Where a message this inbox has not seen sits: new/, or cur/ as we leave it; only a mail
        client's other flags make us read cur/."""
        for file, flags in ((self.path / "new" / key, ""), (self.path / "cur" / f"{key}{_COLON}2,S", "S")):
            if file.is_file():
                return _Entry(key, file, flags)
        return next((entry for entry in self._entries("cur") if entry.key == key), None)

    def _entries(self, subdir: str, *, unseen: bool = False) -> Iterator[_Entry]:
        with os.scandir(self.path / subdir) as listing:
            for item in listing:
                flags = _flags(item.name) if subdir == "cur" else ""
                if item.name.startswith(".") or (unseen and "S" in flags) or not item.is_file():
                    continue
                yield _Entry(key=item.name.partition(_COLON)[0], file=Path(item.path), flags=flags)

    def _unprocessed(self) -> list[_Entry]:
        return [*self._entries("new"), *self._entries("cur", unseen=True)]

    def _rejected_folder(self) -> Path:
        folder = self.path / f".{REJECTED_FOLDER}"
        if not folder.is_dir():
            mailbox.Maildir(self.path, factory=None).add_folder(REJECTED_FOLDER)
        return folder


def _key(source_id: str) -> str:
    if not source_id.startswith(SOURCE_PREFIX) or "/" in source_id:
        raise ValueError(f"not a Maildir source id: {source_id!r}")
    return source_id.removeprefix(SOURCE_PREFIX)
