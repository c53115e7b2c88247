"""A journal put back from an older copy, by `courier restore` or by a plain `cp`: the mail read since
the copy's last tick is marked read in the inbox and missing from the journal. The operator is told
the command that reads it again (restore prints it; a tick refuses until it runs, and each organiser
is told once), and once it runs every round resolves with the orders mailed before its deadline."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from courier.config.deployment import load_deployment
from courier.tools.cli import main
from tests.conftest import Table, text_of
from tests.helpers.clock import at

SUGGESTED = re.compile(r"courier tick --reread-since (\S+)")


def played_past_a_copy(make_table: Callable[..., Table], tmp_path: Path) -> tuple[Table, Path]:
    """A deployment with the outage guard on (6h, the default), a copy of its journal taken at
    10:05, then Agatha's order read at 11:05 and round 1 resolved at 20:05 without the copy."""
    t = make_table()
    toml = t.deployment.path
    toml.write_text(toml.read_text().replace("stale_after = 0", 'stale_after = "6h"'))
    t.deployment = load_deployment(toml)
    t.tick(at(0, 8, 5))
    t.tick(at(0, 10, 5))
    copy = tmp_path / "copy-of-10-05.sqlite"
    shutil.copy(t.deployment.journal_path, copy)
    t.clock = at(0, 11)
    t.order("Agatha", "loot")
    for hour in (11, 14, 17, 20):
        assert t.tick(at(0, hour, 5)) == []
    assert agathas_orders(t) == ["loot"]
    return t, copy


def agathas_orders(t: Table) -> list[str] | None:
    journal = t.journal()
    try:
        rounds = journal.rounds("truce-1")
    finally:
        journal.close()
    return rounds[0]["submissions"]["Agatha"]["orders"] if rounds else None


def tick(t: Table, when: str, *more: str) -> int:
    return main(["tick", "--config", str(t.deployment.path), "--now", when, *more])


def organiser_told(t: Table) -> int:
    return sum("put back" in text_of(m) for m in t.sent("organiser@courier.test"))


def test_a_journal_copied_back_with_cp_stops_the_tick_until_its_mail_is_read_again(
    make_table: Callable[..., Table], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t, copy = played_past_a_copy(make_table, tmp_path)
    for side in t.deployment.state_dir.glob("journal.sqlite*"):  # as an operator puts a copy back
        side.unlink()
    shutil.copy(copy, t.deployment.journal_path)
    capsys.readouterr()

    assert tick(t, at(0, 20, 10).isoformat()) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "put back" in err, err
    command = SUGGESTED.search(err)
    assert command is not None and command.group(1) == "2026-12-01T10:05:00+00:00", err
    assert agathas_orders(t) is None, "no round resolves without the mail the journal forgot"
    assert organiser_told(t) == 1
    assert tick(t, at(0, 20, 15).isoformat()) == 1
    assert organiser_told(t) == 1, "the organiser is told once"
    capsys.readouterr()

    reread = tick(t, at(0, 20, 20).isoformat(), "--reread-since", command.group(1))
    assert reread == 0, capsys.readouterr().err
    assert agathas_orders(t) == ["loot"], "round 1 resolves again with the order read again"
    assert not any("not running" in text_of(m) for m in t.sent("Barney")), "Courier ran: no outage"
    assert tick(t, at(0, 20, 25).isoformat()) == 0


def test_a_reread_that_starts_too_late_is_refused(
    make_table: Callable[..., Table], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t, copy = played_past_a_copy(make_table, tmp_path)
    t.deployment.journal_path.unlink()
    shutil.copy(copy, t.deployment.journal_path)
    assert tick(t, at(0, 20, 10).isoformat(), "--reread-since", at(0, 12).isoformat()) == 1
    assert "--reread-since 2026-12-01T10:05:00+00:00" in capsys.readouterr().err
    assert agathas_orders(t) is None


def test_restore_prints_the_next_step_and_the_step_works(
    make_table: Callable[..., Table], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t, copy = played_past_a_copy(make_table, tmp_path)
    capsys.readouterr()
    assert main(["restore", str(copy), "--config", str(t.deployment.path)]) == 0
    out = capsys.readouterr().out
    expected = f"courier tick --reread-since 2026-12-01T10:05:00+00:00 --config {t.deployment.path}"
    assert expected in out, out
    assert tick(t, at(0, 20, 10).isoformat()) == 1, "cron's plain tick waits for that step"
    assert agathas_orders(t) is None
    args = expected.split()[1:]  # the command as printed, less "courier"
    assert main([*args, "--now", at(0, 20, 15).isoformat()]) == 0
    assert agathas_orders(t) == ["loot"]
