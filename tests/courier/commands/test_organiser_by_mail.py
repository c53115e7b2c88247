"""The organiser runs a game over weeks, by mail from the organiser's address and by CLI: pause and
resume, extend, process now, rollback, a substitute, a kick, the end, a notice to all. Each command is
confirmed to the organiser, told to the players, logged in History; one that cannot apply is refused
with its reason; `replay` still reproduces the game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from openpyxl import load_workbook

from courier.journal.replay import replay_game
from courier.journal.sqlite import SqliteJournal
from courier.tools.cli import main
from tests.conftest import BASE_CONFIG, PLAYERS, Table, address, text_of
from tests.helpers.clock import at
from tests.helpers.confirm import TRUSTED_PASS, trust_the_mail_server

ORGANISER = "organiser@courier.test"


def command(t: Table, body: str, *, subject: str = "[truce-1] commands") -> None:
    """The organiser's mail, with a pass from the trusted mail server: a seat's change or the game's
    end applies at once (tests/courier/commands/test_who_may_act.py has the other roads)."""
    trust_the_mail_server(t)
    t.mail(ORGANISER, body, subject=subject, headers=TRUSTED_PASS)


def answer(t: Table) -> str:
    answers = [m for m in t.sent(ORGANISER) if m["X-Courier-Kind"] == "answer"]
    assert answers, "the organiser got no answer"
    return text_of(answers[-1])


def last(t: Table, name: str, kind: str) -> str:
    mails = [m for m in t.sent(name) if m["X-Courier-Kind"] == kind]
    assert mails, f"{name} got no {kind}"
    return text_of(mails[-1])


def kinds(t: Table, name: str) -> list[str]:
    return [str(m["X-Courier-Kind"]) for m in t.sent(name)]


def resolved(t: Table) -> list[str]:
    journal = t.journal()
    try:
        return [r["phase_key"] for r in journal.rounds("truce-1")]
    finally:
        journal.close()


def replays(t: Table) -> None:
    journal = t.journal()
    try:
        _, problems = replay_game(journal, "truce-1")
    finally:
        journal.close()
    assert problems == []


def history(t: Table) -> list[str]:
    book = load_workbook(t.root / "truce-1.xlsx")
    return [str(row[1]) for row in book["History"].iter_rows(values_only=True) if row[0] == "—"]


def cli(t: Table, *args: str) -> int:
    return main([args[0], "--config", str(t.deployment.path), *args[1:]])


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    t = make_table()
    assert t.tick(at(0, 8, 5)) == []  # the game starts; round 1 is due at 20:00
    return t


def test_pause_stops_the_clock_and_resume_sets_a_fresh_deadline(table: Table) -> None:
    command(table, "pause")
    table.tick(at(0, 9))
    assert "pause: done" in answer(table)
    assert "paused the game" in last(table, "Agatha", "notice")
    table.tick(at(0, 20, 5))
    table.tick(at(1, 20, 5))
    assert resolved(table) == []  # no deadline passes while paused
    assert "reminder" not in kinds(table, "Barney")
    command(table, "resume until 2026-12-04 20:00")
    table.tick(at(2, 9))
    assert "resume until 2026-12-04 20:00: done. The deadline is Fri 04 Dec 2026 20:00 GMT" in answer(table)
    assert "The game resumes" in last(table, "Darcy", "notice")
    table.tick(at(3, 20, 5))
    assert resolved(table) == ["round-1"]
    assert history(table)[:2] == ["Paused by the organiser", "Resumed; deadline Fri 04 Dec 2026 20:00 GMT"]
    replays(table)


def test_resume_without_a_time_takes_the_schedule(table: Table) -> None:
    command(table, "pause")
    table.tick(at(0, 9))
    command(table, "resume")
    table.tick(at(1, 9))
    assert "The deadline is Wed 02 Dec 2026 20:00 GMT" in answer(table)


def test_extend_by_cli_moves_the_deadline_and_everybody_is_told(table: Table) -> None:
    assert cli(table, "extend", "truce-1", "24h", "--now", at(0, 9).isoformat()) == 0
    table.tick(at(0, 9, 1))
    assert "extend 24h: done. The deadline is Wed 02 Dec 2026 20:00 GMT" in answer(table)
    assert all(
        "moved the deadline for Round 1 of 3 to Wed 02 Dec" in last(table, n, "notice") for n in PLAYERS
    )
    table.tick(at(0, 20, 5))
    assert resolved(table) == []
    table.tick(at(1, 20, 5))
    assert resolved(table) == ["round-1"]
    assert "Deadline extended to Wed 02 Dec 2026 20:00 GMT" in history(table)


def test_process_now_resolves_at_the_next_tick(table: Table) -> None:
    table.order("Agatha", "loot")
    command(table, "process now")
    table.tick(at(0, 10))
    assert resolved(table) == ["round-1"]
    assert "process now: done" in answer(table)
    assert "report" in kinds(table, "Barney")
    replays(table)


def test_rollback_reopens_a_round_with_the_orders_then_standing(table: Table) -> None:
    for name, text in {"Agatha": "loot", "Barney": "attack Agatha"}.items():
        table.order(name, text)
    table.tick(at(0, 19, 30))  # Darcy is reminded of round 1
    table.tick(at(0, 20, 5))
    table.order("Celeste", "defend")
    table.tick(at(1, 20, 5))
    assert resolved(table) == ["round-1", "round-2"]
    first_report = last(table, "Agatha", "report")
    command(table, "rollback to round 1")
    table.tick(at(2, 9))
    assert "rollback to round 1: done. Round 1 of 3 is open again until Thu 03 Dec 2026 20:00 GMT" in answer(
        table
    )
    assert "rolled the game back to before Round 1 of 3 was resolved" in last(table, "Darcy", "notice")
    assert resolved(table) == []
    table.order("Barney", "defend")  # a changed order counts; Agatha's loot still stands
    reminded = kinds(table, "Darcy").count("reminder")
    table.tick(at(2, 19, 30))
    assert kinds(table, "Darcy").count("reminder") == reminded + 1  # the re-opened round reminds afresh
    table.tick(at(2, 20, 5))
    assert resolved(table) == ["round-1"]
    again = last(table, "Agatha", "report")
    assert again != first_report and "Barney" in again
    journal = table.journal()
    try:
        orders = {p: s["orders"] for p, s in journal.rounds("truce-1")[0]["submissions"].items()}
        undone = journal.db.execute("SELECT COUNT(*) FROM undone_rounds").fetchone()[0]
    finally:
        journal.close()
    assert orders["Agatha"] == ["loot"] and orders["Barney"] == ["defend"]
    assert undone == 2  # kept for the record
    replays(table)


def _history_rows(t: Table) -> list[tuple[object, ...]]:
    book = load_workbook(t.root / "truce-1.xlsx")
    return [row for row in book["History"].iter_rows(values_only=True) if row[0] != "—"]


def test_a_round_rolled_back_and_resolved_again_in_one_tick_shows_anew_in_history(
    table: Table, tmp_path: Path
) -> None:
    """History's rows are kept between ticks (a resolved round's never change); a rollback is the
    exception, even when the round is resolved again, with other orders, before History is written."""
    twin = Table(tmp_path / "twin", BASE_CONFIG, [{"name": n, "email": address(n)} for n in PLAYERS])
    twin.tick(at(0, 8, 5))
    for t, second in ((table, "loot"), (twin, "defend")):
        t.order("Agatha", "loot")
        t.tick(at(0, 20, 5))
        t.order("Agatha", second)
        t.tick(at(1, 20, 5))
    table.clock = at(2, 8)  # three mails a minute apart, read in this order
    command(table, "rollback to round 2")
    table.clock = at(2, 8, 1)
    table.order("Agatha", "defend")  # for round 2 again
    table.clock = at(2, 8, 2)
    command(table, "process now")
    table.tick(at(2, 9))

    assert "process now: done" in answer(table)
    assert resolved(table) == resolved(twin) == ["round-1", "round-2"]
    assert _history_rows(table) == _history_rows(twin)


def test_a_substitute_takes_a_seat_and_the_old_address_stops_counting(table: Table) -> None:
    command(table, "replace Darcy with emmett@players.test as Emmett")
    table.tick(at(0, 9))
    assert "Emmett (for Darcy) plays Darcy from now on" in answer(table)
    welcome = [m for m in table.sent("emmett@players.test") if m["X-Courier-Kind"] == "welcome"]
    assert welcome and "You take over the seat of Darcy" in last(table, "emmett@players.test", "answer")
    assert "handed to a substitute" in last(table, "Darcy", "answer")
    assert "Darcy's seat is now played by Emmett, a substitute." in last(table, "Agatha", "notice")
    assert "notice" not in kinds(table, "emmett@players.test")  # his welcome says it; no news of himself
    darcy_mail = len(table.sent("Darcy"))
    table.order("Darcy", "loot")  # the old address: read as a stranger's, never answered
    table.mail("emmett@players.test", "defend")
    table.tick(at(0, 20, 5))
    assert len(table.sent("Darcy")) == darcy_mail  # no private mail reaches the old player
    assert "report" in kinds(table, "emmett@players.test")
    journal = table.journal()
    try:
        submitted = journal.rounds("truce-1")[0]["submissions"]["Darcy"]["orders"]
    finally:
        journal.close()
    assert submitted == ["defend"]
    rows = load_workbook(table.root / "truce-1.xlsx")["History"].iter_rows(values_only=True)
    assert ("Round 1 of 3", "Substitute: Emmett (for Darcy) takes over Darcy's seat") in [r[:2] for r in rows]
    players = list(load_workbook(table.root / "truce-1.xlsx")["Players"].iter_rows(values_only=True))
    darcy = next(row for row in players if row[0] == "Darcy")
    assert darcy[1] == "emmett@players.test" and "Emmett" in darcy  # the Players tab shows the change
    replays(table)


def test_kick_leaves_the_seat_to_the_default(table: Table) -> None:
    table.order("Darcy", "attack Agatha")
    command(table, "kick Darcy")
    table.tick(at(0, 9))
    assert "kick Darcy: done" in answer(table)
    assert "notice" not in kinds(table, "Agatha")  # news: it waits for her next mail (issue 29)
    ledger = list(load_workbook(table.root / "truce-1.xlsx")["Ledger"].iter_rows(values_only=True))
    column = ledger[0].index("Orders in")  # the headers are the tab's first row
    assert next(row for row in ledger if row[0] == "Darcy")[column] == "left"
    table.order("Darcy", "attack Barney")
    table.tick(at(0, 20, 5))
    assert "Darcy has left the game (the organiser)" in last(table, "Agatha", "report")
    assert "You have left this game" in last(table, "Darcy", "error")
    assert "report" not in kinds(table, "Darcy")
    journal = table.journal()
    try:
        submitted = journal.rounds("truce-1")[0]["submissions"]["Darcy"]["orders"]
    finally:
        journal.close()
    assert "attack" not in " ".join(submitted)  # the default plays the seat
    replays(table)


def test_end_game_sends_the_final_report_with_the_ranking_so_far(table: Table) -> None:
    table.order("Agatha", "loot")
    table.tick(at(0, 20, 5))
    command(table, "end game")
    table.tick(at(1, 9))
    assert "end game: done" in answer(table)
    final = last(table, "Celeste", "game_over")  # one mail says it all (tests/courier/tick/test_game_end.py)
    assert "ended the game during Round 2 of 3" in final
    assert "Final ranking:" in final and "The secret seed" in final
    table.tick(at(1, 20, 5))
    assert resolved(table) == ["round-1"]
    assert "Game ended by the organiser" in history(table)
    command(table, "extend 24h")
    table.tick(at(1, 21))
    assert "refused, the game is over. Nothing changed." in answer(table)


def test_message_all_reaches_every_player(table: Table) -> None:
    command(table, "message all: No deadline on Christmas Day.\nEnjoy the holidays!")
    table.tick(at(0, 9))
    for name in PLAYERS:
        text = last(table, name, "notice")
        assert "A message from the organiser:" in text and "Enjoy the holidays!" in text
    assert "The organiser wrote to every player" in history(table)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("kick Zed", "kick Zed: refused, no player 'Zed' in this game; the players are Agatha, Barney"),
        ("extend soon", "Nothing was done: “extend soon”: 'soon' is not a duration"),
        ("resume", "resume: refused, the game is not paused. Nothing changed."),
        ("rollback to round 4", "rollback to round 4: refused, round 4 has not been resolved"),
        ("pase", "Nothing was done: “pase” is no command; did you mean `pause`?"),
        ("extend until 2026-11-30 20:00", "refused, 2026-11-30 20:00 has passed already"),
        ("replace Darcy with agatha@players.test", "refused, agatha@players.test already plays Agatha"),
    ],
)
def test_a_command_that_cannot_apply_is_refused_and_changes_nothing(
    table: Table, body: str, reason: str
) -> None:
    before = table.journal()
    row = before.game("truce-1")
    before.close()
    command(table, body)
    table.tick(at(0, 9))
    assert reason in answer(table)
    journal = table.journal()
    try:
        after = journal.game("truce-1")
    finally:
        journal.close()
    assert after == row
    assert "notice" not in kinds(table, "Agatha")


def test_a_player_cannot_give_an_organiser_command(table: Table) -> None:
    table.order("Barney", "pause")
    table.tick(at(0, 9))
    assert "`pause` is the organiser's command" in last(table, "Barney", "error")
    table.tick(at(0, 20, 5))
    assert resolved(table) == ["round-1"]


def test_a_forged_organiser_mail_is_refused(table: Table) -> None:
    headers = {"Authentication-Results": "mx.courier.test; dkim=fail; dmarc=fail"}
    table.mail(ORGANISER, "pause", subject="[truce-1] commands", headers=headers)
    table.tick(at(0, 9))
    assert "was not used" in answer(table)
    table.tick(at(0, 20, 5))
    assert resolved(table) == ["round-1"]


def test_the_organiser_secret_is_required_when_set(make_table: Callable[..., Table]) -> None:
    t = make_table({"organiser_secret": "open sesame"})
    t.tick(at(0, 8, 5))
    command(t, "pause")
    t.tick(at(0, 9))
    assert "did not carry the organiser's secret" in answer(t)
    command(t, "secret: open sesame\npause")
    t.tick(at(0, 10))
    assert "pause: done" in answer(t)


def test_cli_dry_run_prints_the_mail_and_changes_nothing(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(table, "message", "truce-1", "Hello all", "--dry-run", "--now", at(0, 9).isoformat()) == 0
    printed = capsys.readouterr().out
    assert "--- To: agatha@players.test" in printed and "Hello all" in printed
    journal = SqliteJournal(table.deployment.journal_path)
    try:
        cli_rows = journal.db.execute("SELECT COUNT(*) FROM inputs WHERE source = 'cli'").fetchone()[0]
    finally:
        journal.close()
    assert cli_rows == 0
    assert "notice" not in kinds(table, "Agatha")


def test_cli_refuses_a_bad_command_at_once(table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(table, "extend", "truce-1", "soon") == 2
    assert "'soon' is not a duration" in capsys.readouterr().err
    assert cli(table, "pause", "no-such-game") == 2


def test_courier_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for name in ("pause", "resume", "extend", "process", "rollback", "replace", "kick", "end", "message"):
        assert name in out


def test_the_address_a_substitute_takes_is_shown_nowhere_public(table: Table) -> None:
    command(table, "replace Darcy with emmett@players.test")
    table.tick(at(0, 9))
    book = load_workbook(table.root / "truce-1.xlsx")
    cells = [
        str(c) for tab in ("Ledger", "History") for row in book[tab].iter_rows(values_only=True) for c in row
    ]
    assert not any("emmett@" in c for c in cells)
    assert address("Darcy") not in " ".join(cells)


def test_a_substitute_fills_the_seat_of_a_player_who_resigned(table: Table) -> None:
    table.order("Darcy", "resign")
    table.tick(at(0, 9))
    table.order("Darcy", "resign confirm")
    table.tick(at(0, 10))
    command(table, "replace Darcy with emmett@players.test")
    table.tick(at(0, 11))
    assert "plays Darcy from now on" in answer(table)
    table.mail("emmett@players.test", "loot")
    table.tick(at(0, 20, 5))
    journal = table.journal()
    try:
        submitted = journal.rounds("truce-1")[0]["submissions"]["Darcy"]["orders"]
    finally:
        journal.close()
    assert submitted == ["loot"]
    assert "report" in kinds(table, "emmett@players.test")
    replays(table)


def test_the_organiser_asks_for_help_and_status_shows_a_pause(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    command(table, "help")
    command(table, "pause")
    table.tick(at(0, 9))
    helped = [text_of(m) for m in table.sent(ORGANISER) if m["X-Courier-Kind"] == "answer"]
    assert any("the organiser's commands, one a line: pause; resume" in text for text in helped)
    assert cli(table, "status") == 0
    assert "Round 1 of 3 (paused)" in capsys.readouterr().out


def test_bot_gives_a_seat_to_the_games_bot(table: Table) -> None:
    """`bot Darcy` (issue 18): the bot plays the seat from the next deadline, Darcy's mail stops
    counting and Darcy gets no more mail; the Players tab and the Ledger show the bot; replay holds."""
    command(table, "bot Darcy")
    table.tick(at(0, 9))
    assert "bot Darcy: done" in answer(table)
    assert "given your seat Darcy to the game's bot" in text_of(table.sent("Darcy")[-1])
    before = len(table.sent("Darcy"))
    table.order("Darcy", "attack Agatha")
    table.tick(at(0, 20, 5))
    assert len(table.sent("Darcy")) == before  # the old address gets nothing, not even a refusal
    book = load_workbook(table.root / "truce-1.xlsx")
    players = list(book["Players"].iter_rows(values_only=True))
    assert next(row for row in players if row[0] == "Darcy")[1] == "bot"
    ledger = list(book["Ledger"].iter_rows(values_only=True))
    assert any(row[0] == "Darcy (bot)" for row in ledger)
    journal = table.journal()
    try:
        submitted = journal.rounds("truce-1")[0]["submissions"]["Darcy"]["orders"]
    finally:
        journal.close()
    assert submitted and "attack Agatha" not in submitted  # the bot's own choice
    replays(table)


def test_a_later_extend_cancels_a_pending_process(table: Table) -> None:
    """Issue 27: `process now` then `extend` in one tick told the players a new deadline and resolved
    the round anyway. The later command wins: the round resolves at the deadline the players were told."""
    table.clock = at(0, 9)
    command(table, "process now")
    table.clock = at(0, 9, 30)
    command(table, "extend 24h")
    table.tick(at(0, 10))
    assert resolved(table) == [], "the players were told a new deadline"
    assert "moved the deadline for Round 1 of 3 to Wed 02 Dec 2026 20:00" in last(table, "Darcy", "notice")
    assert "`process now` given earlier is cancelled" in answer(table)
    table.tick(at(0, 20, 5))
    assert resolved(table) == []
    table.tick(at(1, 20, 5))
    assert resolved(table) == ["round-1"]
    replays(table)


def test_a_process_paused_then_resumed_by_cli_waits_for_the_new_deadline(table: Table) -> None:
    """`process`, then `pause` (same tick: the round waits), then `resume` a day later: the round
    resolved at once although the players had just been told its deadline."""
    assert cli(table, "process", "truce-1", "--now", at(0, 9).isoformat()) == 0
    assert cli(table, "pause", "truce-1", "--now", at(0, 9, 1).isoformat()) == 0
    table.tick(at(0, 9, 5))
    assert resolved(table) == []
    assert (
        "`process now` given earlier is cancelled: the round resolves at the deadline `resume` gives it"
        in (answer(table))
    )
    assert cli(table, "resume", "truce-1", "--now", at(1, 9).isoformat()) == 0
    table.tick(at(1, 9, 5))
    assert "The game resumes. The deadline for Round 1 of 3 is Wed 02 Dec 2026 20:00" in last(
        table, "Agatha", "notice"
    )
    assert resolved(table) == [], "resolved at the deadline the players were told, not now"
    table.tick(at(1, 20, 5))
    assert resolved(table) == ["round-1"]


def test_process_after_an_extend_resolves_the_round_now(table: Table) -> None:
    """The other order: the later `process now` wins over an earlier extend."""
    table.clock = at(0, 9)
    command(table, "extend 24h")
    table.clock = at(0, 9, 30)
    command(table, "process now")
    table.tick(at(0, 10))
    assert resolved(table) == ["round-1"]
