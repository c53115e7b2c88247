"""A substitute's seat as every mail names it (issue 29): once `replace Sophie Laurent with … as
Emmett` applied, the reports' ledger, the final ranking and winner, the welcome's list of players and
a player's `status` name the seat "Emmett (for Sophie Laurent)", as the Ledger tab does; the welcome
of a game under way says the seed was fixed (and its hash told) when the game began; `status` lists
as not written only those with no valid orders standing; Veneer's orders name the seat by the
substitute's own name, and so do a Monarchs court's (`carrier Zoe`): their nicknames amended
mid-game, journalled so `replay` makes it too."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Sequence
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from courier.journal.replay import replay_game
from engine.veneer import VENEER, Veneer, VeneerState
from tests.conftest import BASE_CONFIG, Table, address, text_of, write
from tests.helpers import monarchs_court as court
from tests.helpers import veneer
from tests.helpers.clock import at
from tests.helpers.confirm import TRUSTED_PASS, trust_the_mail_server

ORGANISER = "organiser@courier.test"
SEATS = {
    "Sophie Laurent": "sophie@players.test",
    "Tom Baker": "tom@players.test",
    "Priya Shah": "priya@players.test",
    "Hannah Berg": "hannah@players.test",
}
EMMETT = "emmett@players.test"
LABEL = "Emmett (for Sophie Laurent)"


def organise(t: Table, body: str, game: str = "truce-1") -> None:
    trust_the_mail_server(t)
    t.mail(ORGANISER, body, subject=f"[{game}] commands", headers=TRUSTED_PASS)


def of_kind(t: Table, to: str, kind: str) -> list[str]:
    return [text_of(m) for m in t.sent(to) if m["X-Courier-Kind"] == kind]


def old_name_alone(text: str) -> bool:
    """Whether ``text`` names the seat by the old name alone somewhere (not inside the label)."""
    return "Sophie Laurent" in text.replace(LABEL, "")


def ledger_of(text: str) -> str:
    """The ledger table of a report's text (event lines name seats as the game knows them)."""
    return text.split("The ledger:\n\n", 1)[1].split("\n\n", 1)[0]


def html_of(message: EmailMessage) -> str:
    body = message.get_body(("html",))
    assert body is not None
    return str(body.get_content())


@pytest.fixture
def table(tmp_path: Path) -> Table:
    """Truce, 3 rounds; Sophie Laurent's seat handed to Emmett during round 2."""
    t = Table(tmp_path, BASE_CONFIG, [{"name": n, "email": a} for n, a in SEATS.items()])
    t.tick(at(0, 8, 5))
    t.tick(at(0, 20, 5))  # round 1 resolved: the game is under way
    organise(t, "replace Sophie Laurent with emmett@players.test as Emmett")
    t.tick(at(1, 9))
    return t


def test_reports_and_the_final_mail_name_the_seat_by_its_substitute(table: Table) -> None:
    table.tick(at(1, 20, 5))  # round 2's report
    ledger = ledger_of(of_kind(table, EMMETT, "report")[-1])
    assert LABEL in ledger and not old_name_alone(ledger), ledger
    table.tick(at(2, 20, 5))  # round 3, the last: the game is over
    for to in (EMMETT, SEATS["Tom Baker"]):
        final = [m for m in table.sent(to) if m["X-Courier-Kind"] == "game_over"][-1]
        text = text_of(final)
        ranking = text.split("Final ranking:", 1)[1].split("The secret seed", 1)[0]
        assert LABEL in ranking and not old_name_alone(ranking), ranking
        winners = [line for line in text.splitlines() if line.startswith("Winner")]
        assert winners and not any(old_name_alone(line) for line in winners), winners
        ledger = ledger_of(text)
        assert LABEL in ledger and not old_name_alone(ledger), ledger
        html = html_of(final).split("The ledger", 1)[1]
        assert LABEL in html and not old_name_alone(html.split("The secret seed", 1)[0])


def test_the_organisers_end_names_the_seat_by_its_substitute(table: Table) -> None:
    organise(table, "end game")
    table.tick(at(1, 10))
    final = [text_of(m) for m in table.sent(SEATS["Priya Shah"]) if m["X-Courier-Kind"] == "game_over"][-1]
    ranking = final.split("Final ranking:", 1)[1].split("The secret seed", 1)[0]
    assert LABEL in ranking and not old_name_alone(ranking), ranking
    assert LABEL in ledger_of(final) and not old_name_alone(ledger_of(final))


def test_the_substitutes_welcome_lists_the_seat_and_the_seed_fixed_at_the_start(table: Table) -> None:
    welcome = of_kind(table, EMMETT, "welcome")[-1]
    players = next(line for line in welcome.splitlines() if line.startswith("Players ("))
    assert players == f"Players (4): {LABEL}, Tom Baker, Priya Shah, Hannah Berg"
    assert "fixed now" not in welcome
    assert "fixed when the game began" in welcome
    first_hash = of_kind(table, SEATS["Tom Baker"], "welcome")[0].split("Its SHA-256 is", 1)[1].split()[0]
    assert first_hash in welcome  # the hash every player was told at the start


def test_status_names_the_substitutes_seat_and_counts_only_orders(table: Table) -> None:
    table.mail(SEATS["Hannah Berg"], "Hello everyone, back tomorrow!")  # nothing readable: no orders
    table.mail(SEATS["Tom Baker"], "defend")
    table.tick(at(1, 10))
    table.mail(EMMETT, "status")
    table.tick(at(1, 11))
    status = of_kind(table, EMMETT, "answer")[-1]
    assert f"Not written yet: Hannah Berg, Priya Shah, {LABEL}." in status, status


def test_status_in_a_game_without_substitutes_skips_only_those_with_orders(tmp_path: Path) -> None:
    t = Table(tmp_path, BASE_CONFIG, [{"name": n, "email": a} for n, a in SEATS.items()])
    t.tick(at(0, 8, 5))
    t.mail(SEATS["Hannah Berg"], "give 1 to Tom")  # a gift takes effect on receipt: no orders stand
    t.mail(SEATS["Priya Shah"], "attack Tom")
    t.tick(at(0, 9))
    t.mail(SEATS["Tom Baker"], "status")
    t.tick(at(0, 10))
    status = of_kind(t, SEATS["Tom Baker"], "answer")[-1]
    assert "Not written yet: Hannah Berg, Sophie Laurent, Tom Baker." in status, status


# --- Veneer: orders name a substitute by their own name ------------------------------------------

PILE = ("Tithe", "Arson")  # turn 1: a law to vote on, then Agatha's muster


@pytest.fixture
def rigged(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seat dealt the Diplomats only (no surprises), Tithe then Arson on top of the pile."""

    dealt = Veneer.setup

    def setup(self: Veneer, players: Sequence[str], options: Any, rng: random.Random) -> VeneerState:
        state = dealt(self, players, options, rng)
        plain = tuple(dataclasses.replace(s, dealt=("Diplomats",)) for s in state.seats)
        rest = tuple(c for c in state.pile if c not in PILE)
        return dataclasses.replace(state, seats=plain, pile=PILE + rest)

    monkeypatch.setattr(Veneer, "setup", setup)


def step(t: Table, orders: dict[str, str] | None = None) -> VeneerState:
    _, deadline, _ = veneer.current(t)
    assert deadline is not None
    for player, text in (orders or {}).items():
        write(t, player, text)
    t.tick(deadline + timedelta(minutes=1))
    return veneer.current(t)[0]


def test_veneer_orders_name_a_substitute_by_their_own_name(tmp_path: Path, rigged: None) -> None:
    t = veneer.table(tmp_path)
    t.tick(at(0, 8, 5))
    step(t)  # every faction by default
    organise(t, "replace Darcy with newcomer@players.test as Zoe")
    state = step(t, {"Agatha": "vote no"})  # Tithe fails; the replace applies first
    assert (state.stage, VENEER.awaiting(state)) == ("muster", frozenset({"Agatha"}))
    write(t, "Agatha", "reassign 1 to attackers\nattack Zoe with 1")
    t.tick(t.clock + timedelta(minutes=5))
    receipt = text_of(t.sent(address("Agatha"))[-1])
    assert "attack Darcy with 1" in receipt and "no player called" not in receipt, receipt
    step(t)
    assert "Agatha attacks Darcy with 1 attacker." in text_of(t.sent("newcomer@players.test")[-1])
    journal = t.journal()
    try:
        assert replay_game(journal, "truce-1")[1] == []
    finally:
        journal.close()


def test_a_monarch_names_a_substitute_courtier_by_their_own_name(tmp_path: Path) -> None:
    rows = [{"name": p, "email": address(p), "role": court.ROLES[p]} for p in court.PLAYERS]
    t = Table(tmp_path, court.CONFIG, rows)
    t.tick(at(0, 8, 5))
    organise(t, "replace R1 with zoe@players.test as Zoe")
    t.tick(at(0, 9))
    t.mail(address("Rex"), "carrier Zoe\nmap to R2")
    t.tick(at(0, 10))
    receipt = text_of(t.sent(address("Rex"))[-1])
    assert "carrier R1" in receipt and "no courtier" not in receipt, receipt
    t.mail("zoe@players.test", "3 H6 I5")
    t.tick(at(0, 11))
    assert "3 H6 I5" in text_of(t.sent("zoe@players.test")[-1])  # she carries Red's orders
    t.tick(at(0, 20, 5))
    t.tick(at(1, 20, 5))  # the last turn: the monarchs' guesses next
    t.mail(address("Rex"), "Zoe serves blue")
    t.tick(at(1, 21))
    guesses = text_of(t.sent(address("Rex"))[-1])
    assert "R1 serves blue" in guesses and "no courtier" not in guesses, guesses
    journal = t.journal()
    try:
        assert replay_game(journal, "truce-1")[1] == []
    finally:
        journal.close()


def test_the_ledger_tab_and_the_mail_agree(table: Table) -> None:
    table.tick(at(1, 20, 5))
    rows = list(load_workbook(table.root / "truce-1.xlsx")["Ledger"].iter_rows(values_only=True))
    header = next(i for i, row in enumerate(rows) if row and row[0] == "Player")
    sheet = [str(row[0]) for row in itertools.takewhile(lambda r: r and r[0], rows[header + 1 :])]
    report = of_kind(table, SEATS["Hannah Berg"], "report")[-1]
    assert LABEL in sheet and all(name in report for name in sheet)
