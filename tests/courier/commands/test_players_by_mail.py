"""A player's commands by mail through the tick: status, help, resign (with its confirmation), away,
and press relayed by the arbiter (attributed, anonymous or refused), with replies going back to the
press's author. Answers go to the registered address; press never reaches the sheet."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from openpyxl import load_workbook

from courier.journal.replay import replay_game
from tests.conftest import PLAYERS, Table, address, text_of
from tests.helpers.clock import at
from tests.helpers.confirm import code_for


def last(t: Table, name: str, kind: str) -> str:
    mails = [m for m in t.sent(name) if m["X-Courier-Kind"] == kind]
    assert mails, f"{name} got no {kind}"
    return text_of(mails[-1])


def kinds(t: Table, name: str) -> list[str]:
    return [str(m["X-Courier-Kind"]) for m in t.sent(name)]


def deadline(t: Table) -> str:
    journal = t.journal()
    try:
        row = journal.game("truce-1")
    finally:
        journal.close()
    assert row is not None and row.deadline is not None
    return row.deadline.isoformat()


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    t = make_table()
    assert t.tick(at(0, 8, 5)) == []
    return t


def test_status_shows_orders_deadline_who_is_silent_and_the_own_view(table: Table) -> None:
    table.order("Agatha", "attack Barney")
    table.order("Celeste", "support Barney")
    table.tick(at(0, 9))
    table.order("Agatha", "status")
    table.tick(at(0, 10))
    text = last(table, "Agatha", "answer")
    assert "Phase: Round 1 of 3. Deadline: Tue 01 Dec 2026 20:00 GMT" in text
    assert "Your orders on file: attack Barney" in text
    assert "Not written yet: Barney, Darcy." in text
    assert "support Barney" not in text  # Celeste's orders are hers


def test_help_gives_the_syntax_from_the_players_own_position(table: Table) -> None:
    table.order("Barney", "help")
    table.tick(at(0, 9))
    text = last(table, "Barney", "answer")
    assert "press to Agatha: …   press to Agatha, Celeste: …" in text  # the table's own names
    assert "away until 2026-12-01" in text and "resign" in text
    assert "attack" in text  # the order form, filled in for Barney's position


def test_resign_asks_for_confirmation_then_the_seat_plays_the_default(table: Table) -> None:
    # Issue 27 changed the confirmation: `resign confirm` (which a forged From could send too) became
    # a code mailed to the registered address only, sent back as `confirm CODE`.
    table.order("Darcy", "resign")
    table.tick(at(0, 9))
    code = code_for(table, address("Darcy"))
    assert code and f"reply to this mail with the line `confirm {code}`" in last(table, "Darcy", "answer")
    assert "notice" not in kinds(table, "Agatha")  # nothing changed yet
    table.order("Darcy", f"confirm {code}")
    table.tick(at(0, 10))
    assert "You have left the game" in last(table, "Darcy", "answer")
    assert "notice" not in kinds(table, "Agatha")  # news: it waits for her next mail (issue 29)
    table.tick(at(0, 20, 5))
    assert "Darcy has left the game (resigned)" in last(table, "Agatha", "report")
    assert "report" not in kinds(table, "Darcy")
    journal = table.journal()
    try:
        _, problems = replay_game(journal, "truce-1")
    finally:
        journal.close()
    assert problems == []


def test_a_confirmation_without_its_code_is_refused(table: Table) -> None:
    table.order("Darcy", "resign confirm")  # the old second step now asks for the code, like `resign`
    table.tick(at(0, 9))
    assert "Nothing was done yet" in last(table, "Darcy", "answer")
    table.order("Darcy", "confirm ABCDEF")
    table.tick(at(0, 10))
    assert "confirm ABCDEF: refused, no command waits for the code 'ABCDEF'" in last(table, "Darcy", "answer")
    assert "notice" not in kinds(table, "Agatha")


def test_away_tells_everybody_only_that_a_player_is_away(table: Table) -> None:
    table.order("Celeste", "away until 2026-12-05")
    table.tick(at(0, 9))
    assert "noted" in last(table, "Celeste", "answer")
    table.tick(at(0, 13, 5))  # news waits for a mail going anyway, or `news_every` (4h) (issue 29)
    notice = last(table, "Agatha", "notice")
    assert "Celeste is away for a while." in notice and "12-05" not in notice and "5 Dec" not in notice
    ledger = list(load_workbook(table.root / "truce-1.xlsx")["Ledger"].iter_rows(values_only=True))
    column = ledger[0].index("Orders in")  # the headers are the tab's first row
    assert next(row for row in ledger if row[0] == "Celeste")[column] == "away"
    table.tick(at(0, 19, 30))  # the 1h reminder window: no reminder to someone away
    assert "reminder" not in kinds(table, "Celeste") and "reminder" in kinds(table, "Darcy")


def test_away_extends_the_deadline_within_the_limit_where_the_game_says_so(
    make_table: Callable[..., Table],
) -> None:
    t = make_table({"away": "extend", "away_limit": "2d"})
    t.tick(at(0, 8, 5))
    t.order("Celeste", "away until 2026-12-10")
    t.tick(at(0, 9))
    assert deadline(t) == "2026-12-03T20:00:00+00:00"  # two days at most
    assert "The deadline moves to Thu 03 Dec 2026 20:00 GMT" in last(t, "Agatha", "notice")


def test_away_limit_bounds_what_absences_move_a_round_in_all(make_table: Callable[..., Table]) -> None:
    """Issue 27: each `away until …` mail moved the deadline `away_limit` further, without end. The
    limit bounds the round's total; a player whose return it cannot wait for is told so."""
    t = make_table({"away": "extend", "away_limit": "2d"})
    t.tick(at(0, 8, 5))
    t.order("Celeste", "away until 2026-12-02")
    t.tick(at(0, 9))
    assert deadline(t) == "2026-12-02T23:59:00+00:00"  # her return (the end of the day): within the limit
    assert "That is as far" not in last(t, "Celeste", "answer")
    for hour, (name, until) in enumerate([("Celeste", "12-10"), ("Darcy", "12-12"), ("Celeste", "12-20")]):
        t.order(name, f"away until 2026-{until}")
        t.tick(at(0, 10 + hour))
        assert deadline(t) == "2026-12-03T20:00:00+00:00", "two days in all, however many mails"
    answer = last(t, "Celeste", "answer")
    assert "The deadline stays Thu 03 Dec 2026 20:00 GMT" in answer
    assert "as far as the game's `away_limit` (2d in all) allows" in answer
    assert "your seat plays the game's default" in answer
    darcy = [m for m in t.sent("Darcy") if m["X-Courier-Kind"] == "answer"]
    assert "stays Thu 03 Dec 2026 20:00 GMT" in text_of(darcy[-1])
    t.tick(at(2, 20, 5))
    journal = t.journal()
    row = journal.game("truce-1")
    journal.close()
    assert row is not None and row.phase_key == "round-2"
    assert deadline(t) == "2026-12-06T20:00:00+00:00", "round 2 waits two days for them, its own limit"
    t.order("Darcy", "away until 2026-12-31")
    t.tick(at(2, 21))
    assert deadline(t) == "2026-12-06T20:00:00+00:00", "and no more"


def test_press_reaches_only_its_addressees_signed_by_the_sender(table: Table) -> None:
    table.order("Agatha", "press to Barney, Darcy: Let us leave Celeste alone.\nTrust me.")
    table.tick(at(0, 9))
    for name in ("Barney", "Darcy"):
        text = last(table, name, "press")
        assert "Press from Agatha to Barney, Darcy:" in text and "Trust me." in text
    assert "press" not in kinds(table, "Celeste") and "press" not in kinds(table, "Agatha")
    assert "sent to Barney, Darcy." in last(table, "Agatha", "answer")


def test_press_to_all(table: Table) -> None:
    table.order("Barney", "press to all: Peace in our time.")
    table.tick(at(0, 9))
    assert all("Peace in our time." in last(table, n, "press") for n in PLAYERS if n != "Barney")


def test_a_reply_to_press_goes_back_to_its_author(table: Table) -> None:
    table.order("Agatha", "press to Barney: Alliance?")
    table.tick(at(0, 9))
    press = [m for m in table.sent("Barney") if m["X-Courier-Kind"] == "press"][-1]
    table.mail(
        address("Barney"),
        "Yes, gladly.\n\nOn Tue, Courier wrote:\n> Alliance?",
        subject=f"Re: {press['Subject']}",
        headers={"In-Reply-To": str(press["Message-ID"])},
    )
    table.tick(at(0, 10))
    reply = last(table, "Agatha", "press")
    assert "Barney answered your press" in reply and "Yes, gladly." in reply
    assert "receipt" not in kinds(table, "Barney")  # a reply to press is no orders


def test_press_none_is_refused(make_table: Callable[..., Table]) -> None:
    t = make_table({"press": "none"})
    t.tick(at(0, 8, 5))
    t.order("Agatha", "press to Barney: hello")
    t.tick(at(0, 9))
    assert "refused, this game allows no press" in last(t, "Agatha", "answer")
    assert "press" not in kinds(t, "Barney")


def test_press_to_an_unknown_player_is_refused(table: Table) -> None:
    table.order("Agatha", "press to Zed: hello")
    table.tick(at(0, 9))
    assert "refused, no player 'Zed' in this game" in last(table, "Agatha", "answer")


def test_press_never_reaches_the_sheet(table: Table) -> None:
    table.order("Agatha", "press to Barney: the secret plan")
    table.tick(at(0, 9))
    table.tick(at(0, 20, 5))
    book = load_workbook(table.root / "truce-1.xlsx")
    cells = " ".join(str(c) for ws in book.worksheets for row in ws.iter_rows(values_only=True) for c in row)
    assert "secret plan" not in cells


def test_a_command_with_a_mistake_is_answered_and_changes_nothing(table: Table) -> None:
    # "status please" reads as `status` since issue 27 (courtesy around a command is skipped).
    table.order("Agatha", "status of Barney")
    table.tick(at(0, 9))
    assert "`status` takes nothing after it here" in last(table, "Agatha", "answer")


def test_a_cry_for_help_gets_help(table: Table) -> None:
    table.order("Celeste", "Help! What do I write?")
    table.tick(at(0, 9))
    assert "Help! What do I write?: how to play by mail" in last(table, "Celeste", "answer")
