"""`courier simulate`: whole games with bots in every seat; statistics on stdout that depend only on
the seed (not on --jobs), no progress bar when stderr is not a terminal, each game's own numbers."""

from __future__ import annotations

import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from courier.tools.simulate import report, simulate, wilson


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "courier", "simulate", *args], capture_output=True, text=True, timeout=300
    )


def test_simulate_prints_win_rates_length_and_coins_removed_on_stdout_only() -> None:
    done = run("truce", "--games", "12", "--players", "4", "--seed", "7", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # not a terminal: no progress bar
    out = done.stdout
    assert out.startswith("courier simulate truce: 12 games, 4 players, seed 7\n")
    for seat in ("P1", "P2", "P3", "P4"):
        assert f"\n  {seat} " in out
    assert "Game length (rounds): mean 10.00" in out
    assert "Coins removed per round: mean" in out and "per round: 0:" in out


def test_the_same_seed_gives_the_same_statistics_whatever_the_jobs() -> None:
    one = simulate("veneer", games=6, players=4, seed="s", options={}, jobs=1, progress=False)
    two = simulate("veneer", games=6, players=4, seed="s", options={}, jobs=3, progress=False)
    assert one == two
    other = simulate("veneer", games=6, players=4, seed="t", options={}, jobs=1, progress=False)
    text = report("veneer", one, players=4, seed="s", options={})
    assert text == report("veneer", two, players=4, seed="s", options={})
    assert text != report("veneer", other, players=4, seed="t", options={})


def test_options_reach_the_game_and_monarchs_reports_scores_by_part() -> None:
    records = simulate(
        "monarchs",
        games=3,
        players=18,
        seed="m",
        options={"mode": "court", "turns": 2, "loyal_constant": 10},
        jobs=1,
        progress=False,
    )
    text = report("monarchs", records, players=18, seed="m", options={"mode": "court"})
    assert "loyal courtier" in text and "spy" in text
    assert "Loyal courtier score: mean" in text and "Spy score: mean" in text
    assert all(r.phases == 3 for r in records)  # 2 turns and the guesses


def test_court_bots_make_the_court_statistics_move_and_the_seed_fixes_them() -> None:
    """With nothing moving, a 4-turn court game gives every nation 20 × 5 = 100, every loyal
    courtier 100 − 18 × 5 = 10 and every spy 2 × 100 − 100 − 19 × 5 = 5: the court bots move
    regiments, sabotage and guess, so scores spread, and one seed gives one set of statistics."""
    options = {"mode": "court", "turns": 4}
    records = simulate("monarchs", games=8, players=18, seed="c", options=options, jobs=1, progress=False)
    pooled = {
        name: [v for r in records for v in r.samples.get(name, ())]
        for name in ("loyal courtier score", "spy score", "nation score")
    }
    assert len(pooled["loyal courtier score"]) == 8 * 9 and len(pooled["spy score"]) == 8 * 6
    assert set(pooled["nation score"]) != {100} and len(set(pooled["nation score"])) > 5
    assert set(pooled["loyal courtier score"]) != {10} and set(pooled["spy score"]) != {5}
    assert statistics.pstdev(pooled["spy score"]) > statistics.pstdev(pooled["loyal courtier score"]) > 0
    again = simulate("monarchs", games=8, players=18, seed="c", options=options, jobs=2, progress=False)
    assert again == records


def test_diplomacy_reports_solo_and_draw_rates_per_power() -> None:
    records = simulate(
        "diplomacy", games=2, players=7, seed="d", options={}, jobs=1, progress=False, max_phases=6
    )
    text = report("diplomacy", records, players=7, seed="d", options={})
    assert "(solo victories 0.0%, draws 0.0%, still open after the phase limit 100.0%" in text
    for power in ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"):
        assert f"\n  {power} " in text


def test_wilson_intervals() -> None:
    low, high = wilson(0, 40)
    assert low == 0.0 and round(high, 3) == 0.088
    low, high = wilson(20, 40)
    assert round(low, 3) == 0.352 and round(high, 3) == 0.648


def test_a_bad_option_or_game_is_one_clear_line() -> None:
    done = run("chess", "--players", "2", "--games", "1")
    assert done.returncode == 2 and "unknown game 'chess'" in done.stderr
    done = run("truce", "--players", "3", "--games", "1", "--option", "rounds")
    assert done.returncode == 2 and "KEY=VALUE" in done.stderr


def test_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "truce.png"
    done = run("truce", "--games", "4", "--players", "3", "--jobs", "1", "--plot", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(b"\x89PNG") and f"wrote {out}" in done.stdout


def test_the_progress_bar_goes_to_stderr_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    quiet = simulate("truce", games=3, players=3, seed="p", options={}, jobs=1, progress=False)
    assert capsys.readouterr().err == ""
    shown = simulate("truce", games=3, players=3, seed="p", options={}, jobs=1, progress=True)
    captured = capsys.readouterr()
    assert "0/3" in captured.err and "game/s" in captured.err and captured.out == ""
    assert quiet == shown
