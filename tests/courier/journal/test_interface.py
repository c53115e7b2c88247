"""The journal stays behind its interface: no shell module touches SQLite or reads meta but through
its typed kinds, and the table of meta kinds is complete and unambiguous."""

from __future__ import annotations

import re
from pathlib import Path

from courier.journal import meta
from tests.helpers.paths import ROOT

COURIER = ROOT / "courier"
JOURNAL = COURIER / "journal"
SQL = re.compile(r"\bsqlite3\b|\bPRAGMA\b|BEGIN IMMEDIATE|INSERT OR|VACUUM|\bSELECT .* FROM\b")


def _shell_modules() -> list[Path]:
    return [p for p in sorted(COURIER.rglob("*.py")) if JOURNAL not in p.parents]


def test_no_shell_module_uses_sqlite_or_sql() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in _shell_modules()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if SQL.search(line)
    ]
    assert found == []


def test_only_the_sqlite_modules_import_sqlite3() -> None:
    importing = {p.name for p in JOURNAL.glob("*.py") if "import sqlite3" in p.read_text(encoding="utf-8")}
    assert importing == {"sqlite.py", "sqlite_schema.py", "sqlite_writes.py"}


def test_meta_kinds_are_distinct_and_none_hides_another() -> None:
    prefixes = [kind.prefix for kind in meta.KINDS]
    assert len(set(prefixes)) == len(prefixes)
    assert not [(a, b) for a in prefixes for b in prefixes if a != b and b.startswith(a)]
    declared = {name for name, value in vars(meta).items() if isinstance(value, meta.MetaKind)}
    assert declared == {name for name, value in vars(meta).items() if value in meta.KINDS}


def test_no_shell_module_reads_or_writes_meta_but_through_its_kinds() -> None:
    spelt = re.compile(r"\.(meta|set_meta|put_meta|delete_meta|meta_under)\(")
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in _shell_modules()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if spelt.search(line)
    ]
    assert found == []
