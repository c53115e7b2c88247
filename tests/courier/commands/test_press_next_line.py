"""Press whose text starts on the line after `press to …` (issue 29 QA): a player who writes
"press to Germany" and the message below it, as mail is written, is relayed, not refused."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import last_text, text_of, write
from tests.helpers.clock import at
from tests.helpers.diplomacy import table


def test_press_with_its_text_on_the_next_lines_is_relayed(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Fran", "Hi,\npress to Germany\nLet's be friends.\nA DMZ in Burgundy?")
    t.tick(at(0, 9))
    assert "sent to Gerd." in last_text(t, "Fran")
    relayed = text_of(t.sent("Gerd")[-1])
    assert "Press from Fran to Gerd:" in relayed and "Let's be friends.\n  A DMZ in Burgundy?" in relayed

    write(t, "Fran", "press to Germany")  # and nothing more: nothing to send
    t.tick(at(0, 10))
    assert "nothing to send" in last_text(t, "Fran")
