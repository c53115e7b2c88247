"""One name matcher for orders, commands and press (issue 29): a seat answers to the beginning of
its player's name, a nickname, a substitute's own name and the role the Ledger shows it by, in
`replace`, `kick`, `press to …` as in `attack …`; a name that means nobody is refused with every
seat listed (those who left too), and a refused press is not called sent."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from openpyxl import load_workbook

from courier.journal.replay import replay_game
from tests.conftest import BASE_CONFIG, Table, text_of
from tests.helpers import monarchs_court as court
from tests.helpers import startrek
from tests.helpers.clock import at
from tests.helpers.confirm import TRUSTED_PASS, code_for, trust_the_mail_server
from tests.helpers.ledger import ledger_table

ORGANISER = "organiser@courier.test"
SEATS = {
    "Sophie Laurent": "sophie@players.test",
    "Tom Baker": "tom@players.test",
    "Priya Shah": "priya@players.test",
    "Hannah Berg": "hannah@players.test",
}


def answers(t: Table, to: str) -> list[str]:
    return [text_of(m) for m in t.sent(to) if m["X-Courier-Kind"] == "answer"]


def subjects(t: Table, to: str) -> list[str]:
    return [str(m["Subject"]) for m in t.sent(to) if m["X-Courier-Kind"] == "answer"]


def kinds(t: Table, to: str) -> list[str]:
    return [str(m["X-Courier-Kind"]) for m in t.sent(to)]


def organise(t: Table, body: str) -> None:
    trust_the_mail_server(t)
    t.mail(ORGANISER, body, subject="[truce-1] commands", headers=TRUSTED_PASS)


@pytest.fixture
def table(tmp_path: Path) -> Table:
    t = Table(tmp_path, BASE_CONFIG, [{"name": n, "email": a} for n, a in SEATS.items()])
    assert t.tick(at(0, 8, 5)) == []
    return t


def test_press_to_the_beginning_of_a_name_reaches_that_player(table: Table) -> None:
    table.mail(SEATS["Hannah Berg"], "press to Tom: shall we?")
    table.tick(at(0, 9))
    assert "shall we?" in text_of([m for m in table.sent(SEATS["Tom Baker"])][-1])
    assert "sent to Tom Baker." in answers(table, SEATS["Hannah Berg"])[-1]
    assert subjects(table, SEATS["Hannah Berg"])[-1].endswith("Press sent")


def test_a_refused_press_is_not_called_sent_and_names_nobody_it_did_not_reach(table: Table) -> None:
    table.mail(SEATS["Hannah Berg"], "press to Zed: shall we?")
    table.tick(at(0, 9))
    told = answers(table, SEATS["Hannah Berg"])[-1]
    assert "refused, no player 'Zed' in this game" in told and "sent to" not in told
    assert "Press sent" not in subjects(table, SEATS["Hannah Berg"])[-1]
    assert all("press" not in kinds(table, a) for a in SEATS.values())


def test_an_ambiguous_beginning_is_refused_with_the_names_it_could_be(
    make_table: Callable[..., Table],
) -> None:
    t = make_table(players=["Tom", "Tomas", "Agatha"])
    t.tick(at(0, 8, 5))
    t.order("Agatha", "press to To: hi")
    t.tick(at(0, 9))
    assert "refused, “To” could be Tom or Tomas" in answers(t, "agatha@players.test")[-1]


def test_replace_takes_the_beginning_of_a_name_as_attack_does(table: Table) -> None:
    table.mail(SEATS["Hannah Berg"], "attack Sophie")
    organise(table, "replace Sophie with emmett@players.test as Emmett")
    table.tick(at(0, 9))
    told = answers(table, ORGANISER)[-1]
    assert "replace Sophie with emmett@players.test as Emmett: done" in told
    receipt = [text_of(m) for m in table.sent(SEATS["Hannah Berg"]) if m["X-Courier-Kind"] == "receipt"]
    assert "attack Sophie Laurent" in receipt[-1]


def test_a_seat_that_left_is_listed_and_may_be_replaced_by_its_first_name(table: Table) -> None:
    table.mail(SEATS["Sophie Laurent"], "resign")
    table.tick(at(0, 9))
    code = code_for(table, SEATS["Sophie Laurent"])
    table.mail(SEATS["Sophie Laurent"], f"confirm {code}")
    table.tick(at(0, 10))
    organise(table, "kick Zed")
    table.tick(at(0, 11))
    assert (
        "the players are Sophie Laurent (left), Tom Baker, Priya Shah, Hannah Berg"
        in answers(table, ORGANISER)[-1]
    )
    organise(table, "replace sophie with emmett@players.test")
    table.tick(at(0, 12))
    assert "replace sophie with emmett@players.test: done" in answers(table, ORGANISER)[-1]


def test_press_to_a_faction_reaches_the_player_who_plays_it(tmp_path: Path) -> None:
    t = startrek.table(tmp_path)
    t.tick(at(0, 8, 5))
    t.order("Kor", "press to Federation, romulan: a truce?")
    t.tick(at(0, 9))
    assert "sent to Fay, Rom." in answers(t, "kor@players.test")[-1]
    assert "a truce?" in text_of(t.sent("Fay")[-1]) and "a truce?" in text_of(t.sent("Rom")[-1])


def ledger_players(t: Table) -> list[str]:
    rows = list(load_workbook(t.root / "truce-1.xlsx")["Ledger"].iter_rows(values_only=True))
    return [str(row[0]) for row in ledger_table(rows)[1:] if row and row[0]]


def test_a_substitute_is_greeted_welcomed_and_named_by_their_own_name(table: Table) -> None:
    table.tick(at(0, 20, 5))  # round 1 resolved: the game is under way
    organise(table, "replace Sophie Laurent with emmett@players.test as Emmett")
    table.tick(at(1, 9))
    emmett = "emmett@players.test"
    welcome = [text_of(m) for m in table.sent(emmett) if m["X-Courier-Kind"] == "welcome"][-1]
    assert "you take over the seat of Sophie Laurent in Round 2 of 3" in welcome
    assert "The game begins" not in welcome
    table.mail(SEATS["Hannah Berg"], "attack Emmett")
    table.mail(emmett, "defend")
    table.tick(at(1, 10))
    receipt = [text_of(m) for m in table.sent(SEATS["Hannah Berg"]) if m["X-Courier-Kind"] == "receipt"][-1]
    assert "attack Sophie Laurent" in receipt and "no player" not in receipt
    table.tick(at(1, 20, 5))
    mails = table.sent(emmett)
    assert {str(m["X-Courier-Kind"]) for m in mails} >= {"welcome", "answer", "receipt", "report"}
    assert all(text_of(m).startswith("Hello Emmett,") for m in mails)
    assert "Emmett (for Sophie Laurent)" in ledger_players(table)
    journal = table.journal()
    try:
        assert replay_game(journal, "truce-1")[1] == []
    finally:
        journal.close()


def test_a_secret_part_is_no_address_but_a_nation_on_the_ledger_is(tmp_path: Path) -> None:
    rows = [{"name": n, "email": f"{n.lower()}@players.test", "role": r} for n, r in court.ROLES.items()]
    t = Table(tmp_path, court.CONFIG, rows)
    t.tick(at(0, 8, 5))
    t.order("R1", "press to spy: I know who you are")
    t.tick(at(0, 9))
    told = answers(t, "r1@players.test")[-1]
    assert "refused, no player 'spy' in this game" in told and "R5 (" not in told
    assert all("press" not in kinds(t, f"{n.lower()}@players.test") for n in court.PLAYERS)
    t.order("R1", "press to Blue: a word, your majesty")
    t.tick(at(0, 10))
    assert "sent to Bly." in answers(t, "r1@players.test")[-1]
    assert "a word, your majesty" in text_of(t.sent("bly@players.test")[-1])
