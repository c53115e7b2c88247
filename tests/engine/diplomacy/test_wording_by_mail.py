"""How a Diplomacy report words an order's result (issue 29 QA): a reason with its own parentheses
or one that repeats the result is not wrapped again ("fails (bounced (war))", "illegal (illegal:
not adjacent)")."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import last_text, write
from tests.helpers.clock import at
from tests.helpers.diplomacy import table


def test_a_bounce_and_an_illegal_move_read_once_each(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Fran", "A par - bur\nA mar - mun")  # mar is not next to mun
    write(t, "Gerd", "A mun - bur")
    t.tick(at(0, 20, 5))
    report = " ".join(last_text(t, "Ed").split())
    assert "France: A par - bur — fails: bounced (mun)" in report
    assert "Germany: A mun - bur — fails: bounced (par)" in report
    assert "France: A mar - mun — illegal: " in report
    assert "(bounced (" not in report and "illegal (illegal" not in report


def test_the_press_acknowledgement_does_not_repeat_the_message(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Fran", "press to Germany: Let's be friends.")
    t.tick(at(0, 9))
    answer = " ".join(last_text(t, "Fran").split())
    assert "press to Germany: sent to Gerd" in answer
    assert "friends.:" not in answer
    assert "Let's be friends." in last_text(t, "Gerd")


def test_a_suggestion_is_offered_only_for_a_line_that_names_a_unit_or_a_province(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Ida", "please hold\nA vnice - tyr\nA ven - tyr")
    t.tick(at(0, 9))
    receipt = " ".join(last_text(t, "Ida").split())
    assert "“please hold”: there is no province called “please”." in receipt
    assert "nap H" not in receipt.split("Notes:")[0]  # no guess: the line names no unit or province
    assert "Did you mean “A ven - tyr”?" in receipt  # a misspelt province in an order is still guessed
