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
from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser
from email.utils import getaddresses
from pathlib import Path
from typing import BinaryIO

from courier.backends.base import BackendError, Held, PermanentError

__all__ = [
    "ChangedMeanwhile",
    "EmlDirectory",
    "FileStamp",
    "atomic_writer",
    "changed_since",
    "sweep_temporaries",
]

_NUMBERED = re.compile(r"^(\d+)-.*\.eml$")


@dataclass(frozen=True)
class FileStamp:
    """What tells one save of a file from the next: a save by rename makes a new inode, a save in
    place changes the size or the modification and change times (to the nanosecond)."""

    inode: int
    size: int
    mtime_ns: int
    ctime_ns: int

    @staticmethod
    def of(status: os.stat_result) -> FileStamp:
        return FileStamp(status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


class ChangedMeanwhile(BackendError):
    """Someone saved the file after it was read and before the new content replaced it: nothing
    was written, their save stands, and the caller reads the file again."""


@contextlib.contextmanager
def atomic_writer(path: Path, *, unless_changed_since: FileStamp | None = None) -> Iterator[BinaryIO]:
    """Yield a file to write ``path``'s new content into; on success it replaces ``path`` in one
    step (temp file in the same folder, fsync, ``os.replace``). On error ``path`` is untouched.
    With ``unless_changed_since`` (the stamp of the file as read), a file saved by someone else
    meanwhile is left as they saved it and ``ChangedMeanwhile`` is raised; the check is made just
    before the replace, so only a save in the instant between them could still be overwritten."""
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
        if unless_changed_since is not None:
            _still(path, unless_changed_since)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def _still(path: Path, read: FileStamp) -> None:
    if changed_since(path, read):
        raise ChangedMeanwhile(f"{path} was saved by someone else while Courier wrote it")


def changed_since(path: Path, read: FileStamp) -> bool:
    """True when ``path`` is no longer the file as ``read`` (saved again, replaced or removed)."""
    try:
        return FileStamp.of(path.stat()) != read
    except FileNotFoundError:
        return True


_TEMPORARY = re.compile(r"^\..+\.[0-9a-f]{8}\.tmp$")


def sweep_temporaries(folder: Path, *, depth: int = 0, older_than: float = 60.0) -> list[Path]:
    """Remove what a kill during ``atomic_writer`` left behind (``.NAME.xxxxxxxx.tmp``), in
    ``folder`` and ``depth`` levels below it; only files older than ``older_than`` seconds, so a
    write in progress elsewhere is left alone. Returns what was removed. Cheap on large folders:
    names are matched first, and only a temporary file is stat-ed (``os.scandir`` knows folders)."""
    removed: list[Path] = []
    cutoff = time.time() - older_than
    try:
        entries = list(os.scandir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return removed
    for entry in entries:
        if _TEMPORARY.match(entry.name):
            if entry.is_file(follow_symlinks=False) and entry.stat().st_mtime < cutoff:
                Path(entry.path).unlink(missing_ok=True)
                removed.append(Path(entry.path))
        elif depth > 0 and not entry.name.startswith(".") and entry.is_dir(follow_symlinks=False):
            removed += sweep_temporaries(Path(entry.path), depth=depth - 1, older_than=older_than)
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


def _first_recipient(message: Message) -> str:
    addresses = [addr for _, addr in getaddresses([str(v) for v in message.get_all("To", [])]) if addr]
    if not addresses:
        raise PermanentError(f"message {message.get('Subject', '')!r} has no To address")
    return addresses[0].lower()


class EmlDirectory:
    """A ``Transport`` that writes each message as an .eml file, one folder per first To address.
    Sending the same Message-ID again to the same recipient rewrites its file instead of adding one,
    so a resend after a crash leaves exactly what a real mailbox would dedupe to.

    Which file holds which Message-ID is kept in each folder's hidden ``.message-ids``, checked
    against the folder's listing once per tick: a file it does not name (the index lost, or a
    crash between writing a mail and noting it) has its headers read then, so the folder stays the
    truth and a tick reads no old mail."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._folders: dict[Path, _Folder] = {}  # read once per tick (one transport per tick)

    def send(self, message: EmailMessage) -> None:
        try:
            data = message.as_bytes()
        except (ValueError, LookupError, UnicodeError) as e:
            raise PermanentError(f"cannot serialise message {message.get('Subject', '')!r}: {e}") from e
        self.send_raw(data, message)

    def send_raw(self, raw: bytes, headers: Message) -> None:
        folder = self.path / _safe_name(_first_recipient(headers), fallback="unknown")
        message_id = str(headers.get("Message-ID", "")).strip()
        try:
            index = self._folder(folder)
            known = index.files.get(message_id) if message_id else None
            target = folder / known if known else index.next_file(_slug(str(headers.get("Subject", ""))))
            with atomic_writer(target) as file:
                file.write(raw)
            index.note(message_id, target)
        except OSError as e:  # a full disk, a folder it may not write: every mail would fail alike
            raise Held(f"cannot write to {folder}: {e}") from e

    def close(self) -> None:
        pass

    def _folder(self, folder: Path) -> _Folder:
        if folder not in self._folders:
            folder.mkdir(parents=True, exist_ok=True)
            self._folders[folder] = _Folder.read(folder)
        return self._folders[folder]


class _Folder:
    """One recipient's folder: which file holds which Message-ID, and the highest file number."""

    INDEX = ".message-ids"

    def __init__(self, folder: Path, files: dict[str, str], highest: int) -> None:
        self.folder = folder
        self.files = files
        self.highest = highest

    @classmethod
    def read(cls, folder: Path) -> _Folder:
        # Names, not paths: a recipient's folder holds every mail it was ever sent.
        names = {name for name in os.listdir(folder) if _NUMBERED.match(name)}
        noted = _read_index(folder / cls.INDEX)
        files = {mid: name for mid, name in noted.items() if name in names}
        unnoted = sorted(names - set(noted.values()))
        for name in unnoted:
            if found := _message_id_of(folder / name):
                files.setdefault(found, name)
        highest = max((int(m.group(1)) for n in names if (m := _NUMBERED.match(n))), default=0)
        index = cls(folder, files, highest)
        if unnoted:
            index.rewrite()
        return index

    def next_file(self, slug: str) -> Path:
        self.highest += 1
        return self.folder / f"{self.highest:04d}-{slug}.eml"

    def note(self, message_id: str, target: Path) -> None:
        """Remember a file just written; a crash before this only costs the next tick one read."""
        if message_id and self.files.get(message_id) != target.name:
            self.files[message_id] = target.name
            with (self.folder / self.INDEX).open("a", encoding="utf-8") as file:
                file.write(f"{target.name}\t{message_id}\n")

    def rewrite(self) -> None:
        lines = "".join(f"{name}\t{mid}\n" for mid, name in self.files.items())
        with atomic_writer(self.folder / self.INDEX) as file:
            file.write(lines.encode("utf-8"))


def _read_index(path: Path) -> dict[str, str]:
    """Message-ID -> file name, as noted (a later line wins); a damaged line is skipped."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return {}
    pairs = (line.split("\t", 1) for line in text.splitlines())
    return {pair[1]: pair[0] for pair in pairs if len(pair) == 2}


def _message_id_of(eml: Path) -> str:
    with eml.open("rb") as file:
        return str(BytesHeaderParser().parse(file).get("Message-ID", "")).strip()
