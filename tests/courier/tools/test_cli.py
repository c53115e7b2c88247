"""The `courier` command as a user runs it: real subprocesses, real files."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from email import message_from_bytes
from email.policy import default
from pathlib import Path

from openpyxl import load_workbook

from engine.monarchs import Position
from tests.conftest import Table, text_of
from tests.helpers.clock import at

REQUEST = {
    "state": {
        "round": 1,
        "rounds": 2,
        "stash": 2,
        "players": [
            {"name": "Agatha", "supply": 3, "spoils": 0},
            {"name": "Barney", "supply": 3, "spoils": 0},
            {"name": "Celeste", "supply": 3, "spoils": 0},
        ],
    },
    "orders": {"Agatha": "loot", "Barney": "attack agatha", "Celeste": "support Barney"},
    "seed": "s",
}


def courier(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "courier", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def test_resolve_one_request() -> None:
    done = courier("resolve", "truce", stdin=json.dumps(REQUEST))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    supply = {p["name"]: p["supply"] for p in answer["state"]["players"]}
    assert supply == {"Agatha": 2, "Barney": 6, "Celeste": 3}  # 1 from Agatha's Supply + her 2 Spoils
    assert answer["state"]["round"] == 2 and answer["state"]["stash"] == 1


def test_resolve_json_lines_answers_each_line() -> None:
    lines = "\n".join([json.dumps(REQUEST), json.dumps({"nonsense": True}), json.dumps(REQUEST)])
    done = courier("resolve", "truce", stdin=lines)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 3
    assert "error" in answers[1] and "state" in answers[0] and "state" in answers[2]
    assert done.returncode == 1


def test_a_line_that_is_not_json_is_answered_by_number_and_the_batch_goes_on() -> None:
    board = {"orders": {"red": "3 H6 I5"}, "seed": "s", "turns": 8}
    blue_home = {**Position.start().to_json(), "A5": {"owner": "blue", "regiments": 5}}
    lines = [json.dumps(board), "{not json", "", json.dumps({**board, "map": blue_home}), json.dumps(board)]
    done = courier("resolve", "monarchs", stdin="\n".join(lines))
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [sorted(a)[:1] for a in answers] == [["border_battles"], ["error"], ["error"], ["border_battles"]]
    assert answers[1]["error"].startswith("line 2 is not JSON")
    assert answers[2]["error"] == "A5 is red's home base: it belongs to red, got blue"
    assert done.returncode == 1 and "Traceback" not in done.stderr


def test_unknown_game_is_one_clear_line() -> None:
    done = courier("resolve", "chess", stdin="{}")
    assert done.returncode == 2
    assert done.stderr.strip().startswith("courier: unknown game 'chess'")
    assert len(done.stderr.strip().splitlines()) == 1


def test_missing_config_is_one_clear_line(tmp_path: Path) -> None:
    done = courier("tick", "--config", str(tmp_path / "nope.toml"))
    assert done.returncode == 2
    assert "no such config file" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_init_writes_a_starter_that_ticks(tmp_path: Path) -> None:
    done = courier("init", "--dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "courier.toml").exists() and (tmp_path / "truce-1.xlsx").exists()
    assert "#" in (tmp_path / "courier.toml").read_text()  # commented
    written = (tmp_path / "courier.toml").read_bytes()
    again = courier("init", "--dir", str(tmp_path))
    lines = again.stdout.splitlines()
    assert len(lines) == 2 and all(line.startswith("kept ") for line in lines)  # says what it kept
    assert (tmp_path / "courier.toml").read_bytes() == written  # never overwrites
    tick = courier("tick", "--config", str(tmp_path / "courier.toml"), "--now", "2026-12-01T09:00:00+00:00")
    assert tick.returncode == 0, tick.stderr


def test_init_for_monarchs_writes_turns_and_the_starter_plays(tmp_path: Path) -> None:
    done = courier("init", "--dir", str(tmp_path), "--game", "monarchs")
    assert done.returncode == 0, done.stderr
    config = {
        row[0]: row[1]
        for row in load_workbook(tmp_path / "monarchs-1.xlsx")["Config"].iter_rows(values_only=True)
    }
    assert config["turns"] == 8 and config["mode"] == "board" and "rounds" not in config
    tick = courier("tick", "--config", str(tmp_path / "courier.toml"), "--now", "2026-12-01T09:00:00+00:00")
    assert tick.returncode == 0, tick.stderr
    welcome = next((tmp_path / "mail" / "sent" / "alice@example.org").glob("*.eml")).read_text()
    assert "turn 1 of 8" in welcome


def test_status_dry_run_and_replay(make_table: Callable[..., Table]) -> None:
    table = make_table()
    config = str(table.deployment.path)
    table.tick(at(0, 8, 5))
    table.order("Agatha", "loot")
    table.tick(at(0, 9))
    dry = courier("tick", "--config", config, "--dry-run", "--now", at(0, 20, 5).isoformat())
    assert dry.returncode == 0, dry.stderr
    assert "Round 1 of 3: results" in dry.stdout and "To: agatha@players.test" in dry.stdout
    status = courier("status", "--config", config)
    assert "truce-1" in status.stdout and "Round 1 of 3" in status.stdout
    assert "Barney" in status.stdout and "Agatha" not in status.stdout.split("Round 1 of 3")[1].split("\n")[0]
    assert "outbox: 0 queued" in status.stdout
    table.tick(at(0, 20, 5))  # the dry run resolved nothing: the real tick does it now
    assert sum("results" in str(m["Subject"]) for m in table.sent("Agatha")) == 1
    replay = courier("replay", "truce-1", "--config", config)
    assert replay.returncode == 0, replay.stderr
    assert "1 round(s) replayed, all reproduce" in replay.stdout


def test_replay_detects_a_tampered_journal(make_table: Callable[..., Table]) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    table.order("Agatha", "loot")
    table.tick(at(0, 20, 5))
    journal = table.journal()
    (after,) = journal.db.execute("SELECT state_after FROM rounds").fetchone()
    forged = json.loads(after)
    forged["stash"] += 5
    with journal.transaction():
        journal.db.execute("UPDATE rounds SET state_after = ?", (json.dumps(forged),))
    journal.close()
    replay = courier("replay", "truce-1", "--config", str(table.deployment.path))
    assert replay.returncode == 1
    assert "state after differs" in replay.stderr


def test_demo_plays_a_whole_game(tmp_path: Path) -> None:
    done = courier("demo", "--dir", str(tmp_path / "demo"))
    assert done.returncode == 0, done.stderr
    assert "The public ledger" in done.stdout and "Emmett" in done.stdout
    assert "every round reproduces" in done.stdout
    sent = tmp_path / "demo" / "mail" / "sent"
    assert sorted(p.name for p in sent.iterdir()) == [
        f"{n}@demo.invalid" for n in ("agatha", "barney", "celeste", "darcy", "emmett", "organiser")
    ]
    # the organiser hears each round's results (issue 29)
    assert len(list((sent / "organiser@demo.invalid").glob("*results*.eml"))) == 3
    barney = [
        message_from_bytes(p.read_bytes(), policy=default)
        for p in (sent / "barney@demo.invalid").glob("*.eml")
    ]
    assert any("Did you mean “attack Agatha”?" in text_of(m) for m in barney)


def test_python_dash_m_courier_shows_help() -> None:
    done = courier("--help")
    assert done.returncode == 0
    for command in ("tick", "demo", "status", "resolve", "replay", "init"):
        assert command in done.stdout


def _datc_request(units: list[str], orders: dict[str, list[str]]) -> str:
    placed = [dict(zip(("power", "type", "location"), u.split(), strict=True)) for u in units]
    phase = {"season": "spring", "year": 1901, "kind": "movement"}
    return json.dumps({"phase": phase, "units": placed, "orders": orders})


def test_resolve_diplomacy_keeps_a_supports_coast() -> None:
    """DATC 6.B.9 (the support names the wrong coast: void) and 6.B.4 (a coast the supporter cannot
    reach: valid), as JSON Lines through ``courier resolve diplomacy``."""
    wrong_coast = _datc_request(
        ["France F mao", "France F por", "Italy F lyo", "Italy F wes"],
        {
            "France": ["F por S F mao - spa/nc", "F mao - spa/sc"],
            "Italy": ["F lyo S F wes - spa/sc", "F wes - spa/sc"],
        },
    )
    unreachable_coast = _datc_request(
        ["France F gas", "France F mar", "Italy F wes"],
        {"France": ["F gas - spa/nc", "F mar S F gas - spa/nc"], "Italy": ["F wes - spa/sc"]},
    )
    done = courier("resolve", "diplomacy", stdin=f"{wrong_coast}\n{unreachable_coast}\n")
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    results = {r["order"]: r["result"] for r in first["order_results"]}
    assert results["F por S F mao - spa/nc"] == "fails"  # echoed with its coast, and void
    assert results["F wes - spa/sc"] == "succeeds"
    assert {"power": "Italy", "type": "F", "location": "spa/sc"} in first["units"]
    results = {r["order"]: r["result"] for r in second["order_results"]}
    assert results["F gas - spa/nc"] == "succeeds"
    assert results["F wes - spa/sc"] == "fails"


def test_resolve_reads_orders_as_mail_does() -> None:
    """`courier resolve truce` reads through the same forgiving reader as mail: greetings skipped,
    one order in a sentence taken."""
    orders = {
        "Agatha": "Hi all,\nAction: loot",
        "Barney": "I want to attack agatha",
        "Celeste": "support Barney",
    }
    done = courier("resolve", "truce", stdin=json.dumps({**REQUEST, "orders": orders}))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["errors"] == {}
    assert (answer["results"]["Barney"]["action"], answer["results"]["Barney"]["target"]) == (
        "attack",
        "Agatha",
    )
    assert answer["results"]["Agatha"]["action"] == "loot"


def test_each_problem_of_a_tick_prints_once(make_table: Callable[..., Table]) -> None:
    """cron mails the operator what a tick prints: each problem is one line, once (not a log line
    and then the same again)."""
    table = make_table({"rounds": "zero"})
    config = str(table.deployment.path)
    done = courier("tick", "--config", config, "--now", at(0, 8, 5).isoformat())
    assert done.returncode == 1
    assert done.stderr.count("cannot start") == 1, done.stderr
    assert all(line.startswith("courier: ") for line in done.stderr.splitlines()), done.stderr
