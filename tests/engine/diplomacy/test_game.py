"""A standard Diplomacy game through the tick: receipts per unit, default holds, a retreat and an
adjustment phase with their own shorter deadlines, reports with every order's result, the ledger
with centres, and a secret draw vote that only counts when unanimous."""

from __future__ import annotations

from pathlib import Path

from openpyxl import load_workbook

from courier.journal.replay import replay_game
from courier.journal.sqlite import SqliteJournal
from tests.conftest import Table, last_text, text_of, write
from tests.helpers.clock import at
from tests.helpers.diplomacy import CONFIG, POWERS, table
from tests.helpers.ledger import ledger_facts, ledger_table


def standing(t: Table, phase: str) -> dict[str, list[str]]:
    journal = t.journal()
    try:
        return {p: s["orders"] for p, (s, _) in journal.standing("truce-1", phase).items()}
    finally:
        journal.close()


def test_a_year_of_diplomacy_by_mail(tmp_path: Path) -> None:
    t = table(tmp_path)
    assert t.tick(at(0, 8, 5)) == []
    assert "Orders for Germany" in last_text(t, "Gerd") and "A mun H" in last_text(t, "Gerd")
    write(t, "Gerd", "A mun - bur\nF kie - hol\nA ber - kie")
    write(t, "Fran", "A par - pic\nA mar H\nF bre - mao\nA par - bru")  # the typo is answered, par-pic stands
    t.tick(at(0, 9))
    receipt = last_text(t, "Fran")
    assert "A par - pic" in receipt and "Did you mean “A par - bur”?" in receipt
    assert t.tick(at(0, 20, 5)) == []
    report = last_text(t, "Ed")
    assert "Germany: A mun - bur — succeeds" in report
    assert "England: F lon H" not in report or "succeeds" in report  # silent powers hold

    write(t, "Fran", "A mar - bur\nA pic S A mar - bur\ndraw")
    write(t, "Gerd", "F hol H\nA bur H\nA kie H")
    t.tick(at(1, 9))
    assert t.tick(at(1, 20, 5)) == []
    assert "dislodged" in last_text(t, "Ed").lower()
    assert "Fall 1901 retreats" in str(t.sent("gerd@players.test")[-1]["Subject"]) or "retreat" in last_text(
        t, "Gerd"
    )
    assert "22:00" in last_text(t, "Gerd")  # the retreat phase has its own 2 h clock

    write(t, "Gerd", "A bur R ruh")
    t.tick(at(1, 21))
    assert standing(t, "F1901R") == {"Gerd": ["A bur R ruh"]}
    assert t.tick(at(1, 22, 5)) == []
    write(t, "Gerd", "A mun B")
    t.tick(at(1, 22, 30))
    assert t.tick(at(2, 0, 5)) == []
    shown = list(load_workbook(tmp_path / "truce-1.xlsx")["Ledger"].iter_rows(values_only=True))
    assert ledger_facts(shown)[3] == "Spring 1902"
    rows = ledger_table(shown)
    centres = {r[0]: r[2] for r in rows[1:]}
    assert centres["Germany"] == 4 and centres["France"] == 3
    units = {r[0]: str(r[3]) for r in rows[1:]}
    assert "A mun" in units["Germany"] and "A ruh" in units["Germany"]
    journal = SqliteJournal(t.deployment.journal_path)
    try:
        checked, problems = replay_game(journal, "truce-1")
    finally:
        journal.close()
    assert problems == [] and checked == 4


def test_draw_votes_are_secret_until_unanimous(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    for name in list(POWERS)[:-1]:
        write(t, name, "draw")
    t.tick(at(0, 9))
    t.tick(at(0, 20, 5))
    for name in POWERS:
        assert "draw" not in str(t.sent(f"{name.lower()}@players.test")[-1]["Subject"]).lower()
        assert "A draw was agreed" not in last_text(t, name)
    for name in POWERS:
        write(t, name, "draw")
    t.tick(at(1, 9))
    t.tick(at(1, 20, 5))
    final = last_text(t, "Tur")
    assert "A draw was agreed" in final and "Game over" in str(t.sent("tur@players.test")[-1]["Subject"])


def test_receipts_echo_each_units_order_with_its_legality(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Ed", "F lon - nth\nA lvp - mun")
    t.tick(at(0, 9))
    receipt = last_text(t, "Ed")
    assert "F lon - nth" in receipt
    assert "A lvp - mun: illegal (" in receipt and "will hold" in receipt
    assert "F edi: no order" in receipt


def test_orders_in_plain_english_are_read(tmp_path: Path) -> None:
    """A player who has never seen a judge writes sentences around their orders; the game reads them
    (the receipt says how) and they stand as written."""
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(
        t,
        "Fran",
        "Hi everyone,\n\nMy army in Paris will hold.\nThe army in Marseilles moves to Burgundy\n"
        "Fleet in Brest goes to the Mid-Atlantic Ocean\n\nCheers,\nFran",
    )
    t.tick(at(0, 9))

    assert sorted(standing(t, "S1901M")["Fran"]) == ["A mar - bur", "A par H", "F bre - mao"]
    receipt = last_text(t, "Fran")
    assert "Did you mean" not in receipt and "Hi everyone" not in receipt


def test_a_role_cell_naming_two_powers_is_refused_not_read_as_its_first(tmp_path: Path) -> None:
    rows = [{"name": n, "email": f"{n.lower()}@players.test", "role": p} for n, p in POWERS.items()]
    rows[2]["role"] = "France, Germany"
    rows[3]["role"] = ""
    t = Table(tmp_path, CONFIG, rows)

    problems = t.tick(at(0, 8, 5))

    assert problems and "'France, Germany' names France and Germany" in problems[0]
    (notice,) = t.sent("organiser@courier.test")
    assert "France, Germany" in text_of(notice) and not t.sent("fran@players.test")
