"""`courier init --game G` writes a workbook whose game starts at the next tick, for every game
(issue 29: Talossan RISK needs 4 conquerors and the starter had 3 players)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from openpyxl import load_workbook

from engine import RULESETS


def courier(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "courier", *args], capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_the_starter_of_every_game_starts_and_welcomes_its_players(tmp_path: Path, game: str) -> None:
    done = courier("init", "--dir", str(tmp_path), "--game", game)
    assert done.returncode == 0, done.stderr
    players = [r for r in load_workbook(tmp_path / f"{game}-1.xlsx")["Players"].iter_rows(values_only=True)][
        1:
    ]
    tick = courier("tick", "--config", str(tmp_path / "courier.toml"), "--now", "2026-12-01T09:00:00+00:00")
    assert tick.returncode == 0, tick.stderr
    welcomed = [p for p in players if list((tmp_path / "mail" / "sent" / str(p[1])).glob("*.eml"))]
    assert len(welcomed) == len(players) >= 3
    if game == "talossa":
        assert len(players) == 4  # II.1: at least four conquerors


def test_init_run_again_says_it_kept_each_file_and_changes_neither(tmp_path: Path) -> None:
    assert courier("init", "--dir", str(tmp_path)).returncode == 0
    (tmp_path / "courier.toml").write_text("# mine\n", encoding="utf-8")
    again = courier("init", "--dir", str(tmp_path))
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines() == [
        f"kept {tmp_path / 'courier.toml'}: it exists, left as it is",
        f"kept {tmp_path / 'truce-1.xlsx'}: it exists; only tabs it lacked were added",
    ]
    assert (tmp_path / "courier.toml").read_text(encoding="utf-8") == "# mine\n"
