"""Whose fault it was, at the CLI: an operator's mistake is a ``CourierError``, one line and exit 2;
any other exception is a bug, one line saying "unexpected" and exit 3, and ``-vv`` re-raises it.
Built-in exceptions raised in courier/ are bugs by construction, and listed here."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable

import pytest

from courier.tools.cli import main
from tests.conftest import Table
from tests.helpers.clock import at
from tests.helpers.paths import ROOT

Run = Callable[..., tuple[int, str]]


@pytest.fixture
def run(make_table: Callable[..., Table], capsys: pytest.CaptureFixture[str]) -> Run:
    """``courier ARGS`` against a running game's deployment ({config} in an argument names it)."""
    table = make_table()
    table.tick(at(0, 8, 5))
    config = str(table.deployment.path)

    def courier(*args: str) -> tuple[int, str]:
        code = main([a.format(config=config, root=table.root) for a in args])
        return code, capsys.readouterr().err

    return courier


MISTAKES = {
    "an unknown game kind to resolve": (["resolve", "chess"], "unknown game 'chess'"),
    "an unknown game kind to simulate": (["simulate", "chess", "--players", "3"], "unknown game 'chess'"),
    "players the rules refuse": (
        ["simulate", "truce", "--players", "1", "--jobs", "1"],
        "at least 3 players",
    ),
    "an option the rules refuse": (
        ["simulate", "truce", "--players", "3", "--games", "1", "--jobs", "1", "--option", "rounds=0"],
        "rounds ≥ 1",
    ),
    "an option not KEY=VALUE": (["simulate", "truce", "--players", "3", "--option", "rounds"], "KEY=VALUE"),
    "no games to simulate": (["simulate", "truce", "--players", "3", "--games", "0"], "at least 1"),
    "a game not in the journal": (
        ["replay", "nope", "--config", "{config}"],
        "no game 'nope' in the journal",
    ),
    "a game not in the deployment": (["pause", "nope", "--config", "{config}"], "no game 'nope'"),
    "an organiser's command that does not parse": (
        ["extend", "truce-1", "soon", "--config", "{config}"],
        "'soon' is not a duration",
    ),
    "a missing config file": (["status", "--config", "{root}/nope.toml"], "no such config file"),
    "a backup that is not there": (["restore", "{root}/nope.sqlite", "--config", "{config}"], "nope.sqlite"),
    "a folder that cannot be written": (["init", "--dir", "{config}/inside-a-file"], "inside-a-file"),
}


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_an_operators_mistake_is_one_line_and_exit_2(run: Run, mistake: str) -> None:
    args, says = MISTAKES[mistake]
    code, err = run(*args)
    assert code == 2, err
    assert err.startswith("courier: ") and err.count("\n") == 1 and says in err, err
    assert "unexpected" not in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["tick", "--config", "x.toml", "--now", "yesterday"], "'yesterday' is not a time"),
        (["tick", "--config", "x.toml", "--now", "2026-12-01T09:00"], "needs a UTC offset"),
        (["shorten"], "invalid choice: 'shorten'"),
        (["simulate", "truce", "--players", "many"], "invalid int value: 'many'"),
    ],
)
def test_a_bad_argument_is_one_line_and_exit_2(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse's complaints too: one line, not the usage block."""
    with pytest.raises(SystemExit) as stop:
        main(args)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith("courier: ") and err.count("\n") == 1 and says in err


@pytest.mark.parametrize("planted", [RuntimeError, KeyError, ValueError, TypeError])
def test_a_planted_bug_is_one_line_exit_3_and_minus_vv_shows_the_traceback(
    run: Run, monkeypatch: pytest.MonkeyPatch, planted: type[Exception]
) -> None:
    def broken(*args: object, **kwargs: object) -> str:
        raise planted("something nobody expected")

    monkeypatch.setattr("courier.tools.status.status_table", broken)
    code, err = run("status", "--config", "{config}")
    assert code == 3, err
    assert err == (
        f"courier: unexpected {planted.__name__}: something nobody expected"
        " (run with -vv for the traceback)\n"
    )
    with pytest.raises(planted):
        run("-vv", "status", "--config", "{config}")


def test_a_file_the_machine_refuses_is_the_operators_and_names_the_path(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(*args: object, **kwargs: object) -> str:
        raise OSError(28, "No space left on device", "/srv/courier/state/journal.sqlite")

    monkeypatch.setattr("courier.tools.status.status_table", full)
    code, err = run("status", "--config", "{config}")
    assert (code, err) == (2, "courier: /srv/courier/state/journal.sqlite: No space left on device\n")


# Every built-in exception courier/ raises, and why it is a bug when it escapes (never the
# operator's: those are CourierError children). A new one must be added here with its reason.
BUILT_INS = {
    ("config/schedule.py", "AssertionError"): "a weekday is always allowed",
    ("journal/sqlite_writes.py", "ValueError"): "the shell passes aware datetimes only",
    ("journal/sqlite.py", "LookupError"): "caught by the send step (a missing picture)",
    ("journal/sqlite.py", "OSError"): "caught by backup_journal: a copy it cannot write is a BackupFailed",
    ("mail/compose.py", "TypeError"): "every context kind has a subject",
    ("mail/compose.py", "ValueError"): "the shell composes with matching kinds and aware dates",
    ("backends/imap.py", "ValueError"): "a source id the IMAP inbox did not make",
    ("backends/maildir.py", "ValueError"): "a source id the Maildir inbox did not make",
    ("tools/requests.py", "ValueError"): "a line of `courier resolve` JSON Lines, answered as an error",
    ("backends/smtp_replies.py", "ValueError"): "a broken config/smtp_replies.toml (its tests catch it)",
}


def _built_in_raises() -> set[tuple[str, str]]:
    found = set()
    courier = ROOT / "courier"
    for path in courier.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                name = node.exc.func.id if isinstance(node.exc.func, ast.Name) else ""
                kind = getattr(builtins, name, None)
                if isinstance(kind, type) and issubclass(kind, Exception):
                    found.add((path.relative_to(courier).as_posix(), name))
    return found


def test_every_built_in_exception_courier_raises_is_a_known_bug() -> None:
    assert _built_in_raises() <= set(BUILT_INS), "an operator's problem must be a CourierError child"


def test_the_list_of_built_ins_has_nothing_stale() -> None:
    assert set(BUILT_INS) <= _built_in_raises()
