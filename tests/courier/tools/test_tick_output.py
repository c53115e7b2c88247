"""What `courier tick` prints (issue 29): one summary line on success, as every command prints one;
and `courier tick --dry-run | head` ends quietly, with no Broken pipe traceback."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Callable

import pytest

from courier.tools.cli import main
from tests.conftest import Table
from tests.helpers.clock import at
from tests.helpers.paths import ROOT


def courier(t: Table, *args: str) -> int:
    return main([args[0], "--config", str(t.deployment.path), *args[1:]])


def test_a_tick_prints_one_line_saying_what_it_did(
    make_table: Callable[..., Table], capsys: pytest.CaptureFixture[str]
) -> None:
    t = make_table()
    assert courier(t, "tick", "--now", at(0, 8, 5).isoformat()) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["tick 2026-12-01 08:05 UTC: 1 game, 0 rounds resolved, 4 mails sent, none waiting"]
    t.order("Agatha", "loot")
    assert courier(t, "tick", "--now", at(0, 20, 5).isoformat()) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and "1 round resolved" in out[0]


class _ClosedPipe(io.StringIO):
    """A stdout whose reader read the first line and left, as `| head -1` does."""

    def write(self, text: str) -> int:
        if self.tell():
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def test_a_dry_run_into_a_closed_pipe_stops_quietly(
    make_table: Callable[..., Table], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    t = make_table()
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    assert courier(t, "tick", "--dry-run", "--now", at(0, 8, 5).isoformat()) == 0
    assert capsys.readouterr().err == ""


def test_courier_tick_dry_run_into_head(make_table: Callable[..., Table]) -> None:
    t = make_table()
    command = (
        f"{sys.executable} -m courier.tools.cli tick --dry-run --config {t.deployment.path}"
        f" --now {at(0, 8, 5).isoformat()} | head -1"
    )
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.stdout.startswith("--- To: ")
    assert "Traceback" not in done.stderr and "Broken pipe" not in done.stderr, done.stderr
    assert "Exception ignored" not in done.stderr and done.returncode == 0
