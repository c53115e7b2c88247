"""Star Trek's mail in plain words (issue 29 QA): the top line is a sentence, and the organiser's
report names whose abilities are left, never "Your abilities"."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import text_of, write
from tests.helpers.clock import at
from tests.helpers.startrek import table


def test_the_headline_is_a_sentence_and_the_organiser_reads_whose_abilities(tmp_path: Path) -> None:
    t = table(tmp_path, intelligence_window="0")
    t.tick(at(0, 8, 5))
    write(t, "Fay", "ship earth - betazed")
    t.tick(at(0, 20, 5))
    fay = text_of(t.sent("fay@players.test")[-1])
    assert fay.split("\n\n")[1] == "You hold 5 centres and 5 units; ship earth - betazed succeeded."
    assert "Abilities left to the Federation: immunity: available." in fay
    organiser = text_of(t.sent("organiser@courier.test")[-1])
    assert "Abilities left to the Klingon:" in organiser and "Your abilities" not in organiser
