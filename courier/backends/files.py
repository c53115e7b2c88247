"""The embedded outbox transport: every "sent" message becomes an .eml file a person can open,
``<folder>/<recipient>/<NNNN>-<subject>.eml``. Also the atomic file write the embedded backends share."""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
import time
from collections.abc import Iterator
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.utils import getaddresses
from pathlib import Path
from typing import BinaryIO

from courier.backends.base import PermanentError, TransientError

__all__ = ["EmlDirectory", "atomic_writer", "sweep_temporaries"]

_NUMBERED = re.compile(r"^(\d+)-.*\.eml$")


@contextlib.contextmanager
def atomic_writer(path: Path) -> Iterator[BinaryIO]:
    """Yield a file to write ``path``'s new content into; on success it replaces ``path`` in one
    step (temp file in the same folder, fsync, ``os.replace``). On error ``path`` is untouched."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    # O_EXCL with mode 0o666 lets the umask decide, like a plain open() would; an existing file
    # keeps its permissions.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as file:
            with contextlib.suppress(FileNotFoundError):
                os.fchmod(file.fileno(), stat.S_IMODE(path.stat().st_mode))
            yield file
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


_TEMPORARY = re.compile(r"^\..+\.[0-9a-f]{8}\.tmp$")


def sweep_temporaries(folder: Path, *, depth: int = 0, older_than: float = 60.0) -> list[Path]:
    """Remove what a kill during ``atomic_writer`` left behind (``.NAME.xxxxxxxx.tmp``), in
    ``folder`` and ``depth`` levels below it; only files older than ``older_than`` seconds, so a
    write in progress elsewhere is left alone. Returns what was removed."""
    removed: list[Path] = []
    if not folder.is_dir():
        return removed
    cutoff = time.time() - older_than
    for entry in folder.iterdir():
        if entry.is_dir() and depth > 0 and not entry.name.startswith("."):
            removed += sweep_temporaries(entry, depth=depth - 1, older_than=older_than)
        elif _TEMPORARY.match(entry.name) and entry.is_file() and entry.stat().st_mtime < cutoff:
            entry.unlink(missing_ok=True)
            removed.append(entry)
    return removed


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable (a no-op where directories cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _safe_name(text: str, *, fallback: str) -> str:
    """A file-name part that cannot escape its folder or confuse a shell."""
    name = re.sub(r"[^\w@.+-]+", "-", text, flags=re.ASCII).strip("-.")
    return name[:80] or fallback


def _slug(subject: str) -> str:
    return _safe_name(subject.lower(), fallback="message")[:60].strip("-.") or "message"


def _first_recipient(message: EmailMessage) -> str:
    addresses = [addr for _, addr in getaddresses([str(v) for v in message.get_all("To", [])]) if addr]
    if not addresses:
        raise PermanentError(f"message {message.get('Subject', '')!r} has no To address")
    return addresses[0].lower()


class EmlDirectory:
    """A ``Transport`` that writes each message as an .eml file, one folder per first To address.
    Sending the same Message-ID again to the same recipient rewrites its file instead of adding one,
    so a resend after a crash leaves exactly what a real mailbox would dedupe to."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def send(self, message: EmailMessage) -> None:
        folder = self.path / _safe_name(_first_recipient(message), fallback="unknown")
        try:
            data = message.as_bytes()
        except (ValueError, LookupError, UnicodeError) as e:
            raise PermanentError(f"cannot serialise message {message.get('Subject', '')!r}: {e}") from e
        try:
            folder.mkdir(parents=True, exist_ok=True)
            target = self._existing(folder, message.get("Message-ID")) or self._next_file(folder, message)
            with atomic_writer(target) as file:
                file.write(data)
        except OSError as e:
            raise TransientError(f"cannot write to {folder}: {e}") from e

    def close(self) -> None:
        pass

    @staticmethod
    def _existing(folder: Path, message_id: str | None) -> Path | None:
        """The file already holding ``message_id``. Scanning headers keeps the folder the only state."""
        if not message_id:
            return None
        wanted = message_id.strip()
        parser = BytesHeaderParser()
        for eml in sorted(folder.glob("*.eml")):
            with eml.open("rb") as file:
                if str(parser.parse(file).get("Message-ID", "")).strip() == wanted:
                    return eml
        return None

    @staticmethod
    def _next_file(folder: Path, message: EmailMessage) -> Path:
        numbers = [int(m.group(1)) for f in folder.iterdir() if (m := _NUMBERED.match(f.name))]
        number = max(numbers, default=0) + 1
        return folder / f"{number:04d}-{_slug(str(message.get('Subject', '')))}.eml"
