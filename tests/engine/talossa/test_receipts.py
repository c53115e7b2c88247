"""Talossan RISK receipts and reports through the tick (issue 14): a failed leg of a Move is told,
which leg and why, in the receipt's warnings and in the step report; a receipt never announces the
6 random actions while an earlier plan stands."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import last_text, write
from tests.helpers.clock import at
from tests.helpers.talossa import table

PLAN = """R: Abbavilla, 6
Q: Abbavilla >> Benito Falls, 2
M: Abbavilla >> Benito Falls, 1; Abbavilla >> Downer, 1"""


def test_a_failed_leg_of_a_move_is_in_the_receipt_and_the_report(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Al", PLAN)
    for name, land in (("Bea", "Downer"), ("Cy", "Farwell"), ("Di", "Ankara Street")):
        write(t, name, f"R: {land}, 1")
    t.tick(at(0, 9))
    receipt = last_text(t, "Al")
    assert (
        "Action 3 (M: Abbavilla >> Benito Falls, 1; Abbavilla >> Downer, 1), leg 2 (Abbavilla >> Downer, 1) "
        "cannot succeed as written: Downer is not Alvania's; the other legs move."
    ) in receipt
    t.tick(at(0, 20, 5))
    report = last_text(t, "Bea")  # the report is public: everyone reads it
    assert (
        "Alvania, action 3: moved Abbavilla >> Benito Falls, 1; "
        "leg 2 (Abbavilla >> Downer, 1) failed: Downer is not Alvania's."
    ) in report


def test_an_unreadable_mail_after_a_plan_never_announces_random_actions(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Al", "R: Abbavilla, 3")
    t.tick(at(0, 9))
    write(t, "Al", "Thanks!\nR: Atlantis, 2")
    t.tick(at(0, 10))
    receipt = last_text(t, "Al")
    assert "No action could be read in this mail, so your earlier plan still stands." in receipt
    assert "Your orders that now stand for Step 1:\n  1. R: Abbavilla, 3" in receipt
    assert "random" not in receipt and "default for absent players" not in receipt
    write(t, "Bea", "Thanks!\nR: Atlantis, 2")  # no plan before: the random actions are announced
    t.tick(at(0, 11))
    receipt = last_text(t, "Bea")
    assert "6 random actions will be drawn for you" in receipt and "now stand" not in receipt
