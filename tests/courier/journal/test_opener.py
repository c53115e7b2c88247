"""The table of journal kinds (courier/journal/opener.py): every kind opens a journal that writes,
reads back and copies itself; ``journal = …`` in courier.toml picks one, an unknown kind is one line."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from courier.journal.meta import CONTROL
from courier.journal.opener import KINDS, open_journal
from courier.tools import cli
from tests.conftest import Table
from tests.helpers.clock import at

NOON = datetime(2026, 12, 1, 12, tzinfo=UTC)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_opens_a_journal_that_writes_reads_and_copies(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "journal"
    journal = open_journal(path, kind=kind)
    try:
        with journal.transaction() as db:
            db.add_input(source="mail", source_id="k1", message_id="<m@x>", received_at=NOON, raw=b"hi")
            CONTROL.put(db, "g", {"paused": True})
        assert CONTROL.get(journal, "g") == {"paused": True}
        journal.copy_to(tmp_path / "copy")
    finally:
        journal.close()
    KINDS[kind].copy_file(tmp_path / "copy", tmp_path / "again")
    again = open_journal(tmp_path / "again", kind=kind, create=False)
    try:
        assert [i.raw for i in again.pending_inputs()] == [b"hi"]
        assert CONTROL.every(again) == {"g": {"paused": True}}
    finally:
        again.close()


def test_an_unknown_kind_in_courier_toml_is_one_line(
    make_table: Callable[..., Table], capsys: pytest.CaptureFixture[str]
) -> None:
    table = make_table()
    toml = table.deployment.path
    toml.write_text('journal = "postgres"\n' + toml.read_text())
    code = cli.main(["tick", "--config", str(toml), "--now", at(0, 9).isoformat()])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "journal = 'postgres': use 'sqlite'" in err and "\n" not in err
