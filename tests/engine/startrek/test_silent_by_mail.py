"""The top of a Star Trek report for a ship nobody ordered (issue 29/30 QA, as Diplomacy's 5a1f2c7):
the hold the rules gave it is no order of the player's to succeed or fail; the line says so."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import text_of, write
from tests.helpers.clock import at
from tests.helpers.startrek import table


def test_an_unordered_ships_default_hold_is_not_counted_among_the_players_orders(tmp_path: Path) -> None:
    t = table(tmp_path, intelligence_window="0")
    t.tick(at(0, 8, 5))
    write(t, "Kor", "ship khitomer - rigel\nrage on")  # +1: the Federation's unordered rigel is dislodged
    write(t, "Fay", "ship vulcan H")
    t.tick(at(0, 20, 5))
    text = text_of(t.sent("fay@players.test")[-1])
    top = text.split("\n\n")[1]
    assert top == (
        "You hold 5 centres and 4 units; dislodged: ship rigel; ship vulcan H succeeded;"
        " no order given: ship rigel H."
    ), top
    assert "Federation: ship rigel H (no order given) — fails" in text  # as Diplomacy marks it
