"""How a journal is opened: one table of kinds, chosen by ``journal = "sqlite"`` in ``courier.toml``
(the default). A second implementation is one module (a ``Journal`` and its ``Transaction``,
courier/journal/interface.py) plus one entry here; see docs/development/journal.md."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from courier.errors import ConfigError
from courier.journal.interface import Journal
from courier.journal.sqlite import SqliteJournal, copy_file


def _open_sqlite(path: Path, create: bool) -> Journal:
    return SqliteJournal(path, create=create)


@dataclass(frozen=True)
class JournalKind:
    """One way to keep the journal: how to open it, and how to copy one that nothing has open (a
    dry run's scratch copy, a backup put back)."""

    open: Callable[[Path, bool], Journal]
    copy_file: Callable[[Path, Path], None]


KINDS: Mapping[str, JournalKind] = {
    "sqlite": JournalKind(open=_open_sqlite, copy_file=copy_file),
}
DEFAULT_KIND = "sqlite"


def journal_kind(name: str) -> JournalKind:
    if name not in KINDS:
        raise ConfigError(f"courier.toml: journal = {name!r}: use {' or '.join(repr(k) for k in KINDS)}")
    return KINDS[name]


def open_journal(path: Path, *, kind: str = DEFAULT_KIND, create: bool = True) -> Journal:
    """The journal at ``path``; ``create=False`` refuses to make a new one (``JournalError``)."""
    return journal_kind(kind).open(path, create)


def copy_journal_file(source: Path, target: Path, *, kind: str = DEFAULT_KIND) -> None:
    journal_kind(kind).copy_file(source, target)
