"""Court mode's last turn and end as the players met them by mail (issue 29): guesses sent too
early are told when to send them, the guesses phase tells the courtiers what is going on without
a form to fill in, and the final mail says how a monarch's score differs from its nation's."""

from __future__ import annotations

from pathlib import Path

from openpyxl import load_workbook

from tests.conftest import address, last_text, text_of
from tests.helpers.clock import at
from tests.helpers.monarchs_court import court_table


def ledger_row(root: Path, first: str) -> tuple[object, ...]:
    """The Ledger's row whose first cell is ``first`` (the headers: "Nation")."""
    rows = load_workbook(root / "truce-1.xlsx")["Ledger"].iter_rows(values_only=True)
    return next(r for r in rows if r and r[0] == first)


def test_the_last_turn_the_guesses_and_the_end_by_mail(tmp_path: Path) -> None:
    t = court_table(tmp_path)
    t.tick(at(0, 8, 5))
    t.mail(address("Rex"), "carrier R1\nmap to R2")
    t.tick(at(0, 9))
    t.mail(address("R1"), "3 H6 I5")
    t.tick(at(0, 20, 5))

    # Turn 2, the last: a guess in the monarch's mail is told when guesses are written.
    t.mail(address("Rex"), "carrier R3\nmap to R4\nR5 serves blue")
    t.tick(at(1, 9))
    receipt = last_text(t, "Rex")
    assert (
        "“R5 serves blue”: guesses are written after this last turn's orders are in: at its deadline "
        "Courier mails you a form for them; send this line again then." in receipt
    )
    assert "your orders reach Courier only in your carrier's mail" not in receipt
    t.mail(address("R3"), "hold")
    t.tick(at(1, 20, 5))

    # The guesses phase: everybody learns the last orders are in; only the monarchs get a form.
    courtier, monarch = last_text(t, "G3"), last_text(t, "Rex")
    for text in (courtier, monarch):
        assert "The orders for turn 2 of 2, the last, are in." in text
        assert "Nothing happened in public" not in text
    assert "Your orders for" not in courtier and "#" not in courtier
    assert "Name the two traitors in your court" in monarch
    assert "Next comes Monarchs' guesses." in monarch and "The monarchs' guesses" not in monarch

    t.mail(address("Rex"), "R5 serves blue")  # R5 is Blue's spy at Red's court: right
    t.tick(at(2, 20, 5))
    final = text_of(t.sent(address("G3"))[-1])
    red = next(line for line in final.splitlines() if "Red's monarch score" in line)
    score = int(str(ledger_row(tmp_path, "Red")[4]))  # the nation's, as the Ledger shows it
    assert f"Red's monarch score is {score + 5}: Red's nation score {score} + 5 for each traitor" in red
    assert "named with the nation it truly serves (R5)" in red
    green = next(line for line in final.splitlines() if "Green's monarch score" in line)
    assert "with no traitor named with the nation it truly serves" in green
    assert "Monarch scores: Red " in final and "; courtier scores: R1 " in final


def test_the_ledger_calls_the_nations_score_so_in_court_mode(tmp_path: Path) -> None:
    t = court_table(tmp_path)
    t.tick(at(0, 8, 5))
    headers = ledger_row(tmp_path, "Nation")
    assert headers[3:6] == ("Orders last turn", "Nation score", "Orders in")


def test_a_monarch_who_sees_no_map_is_told_its_carriers_deed_at_the_top(tmp_path: Path) -> None:
    """The top line of a court's monarch said "Red: 0 hexes taken, 0 lost" every turn, even in the
    guesses phase, though the map's events go only to the courtier holding it: it tells what the
    monarch does learn, whether its carrier delivered."""
    t = court_table(tmp_path)
    t.tick(at(0, 8, 5))
    t.mail(address("Rex"), "carrier R1\nmap to R2")
    t.mail(address("Gil"), "carrier G1\nmap to G2")
    t.tick(at(0, 9))
    t.mail(address("R1"), "3 H6 I5")  # Red takes the centre; Green's carrier stays silent
    t.tick(at(0, 20, 5))
    assert last_text(t, "Rex").splitlines()[2] == "Your carrier R1 delivered Red's orders for turn 1"
    assert last_text(t, "Gil").splitlines()[2] == "Your carrier G1 delivered no orders for turn 1"
    assert last_text(t, "Bly").splitlines()[2] == "You named no carrier for turn 1: Blue gave no orders"
    assert "hexes taken" not in last_text(t, "Rex") and "hex taken" not in last_text(t, "Rex")
    assert last_text(t, "R2").splitlines()[2] == "Here are the results of Turn 1 of 2."  # no line

    t.tick(at(1, 20, 5))  # the last turn: nobody named a carrier; the guesses are asked
    top = last_text(t, "Rex").splitlines()[2]
    assert top == "You named no carrier for turn 2: Red gave no orders"


def test_a_misspelt_carrier_or_hand_line_is_answered_with_the_word_meant(tmp_path: Path) -> None:
    """“carier G1” was answered as if the monarch had sent orders (“in court mode your orders reach
    Courier only in your carrier's mail…”): a typo in the word gets a “did you mean”."""
    t = court_table(tmp_path)
    t.tick(at(0, 8, 5))
    t.mail(address("Gil"), "carier G1\nmap to G2\nhnad 3 J6 I5\nHard choice, this one")
    t.tick(at(0, 9))
    receipt = last_text(t, "Gil")
    assert "“carier G1”: “carier” is not a word of a monarch's mail. Did you mean “carrier G1”?" in receipt
    assert "“hnad 3 J6 I5”: “hnad” is not a word of a monarch's mail. Did you mean “hand 3 J6 I5”?" in receipt
    assert "Did you mean “hand choice" not in receipt  # chit-chat is not taken for a hand line
