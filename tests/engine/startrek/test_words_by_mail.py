"""Star Trek by mail in the game's own words, as a group met it (issue 29 and 30 QA): a dislodged
ship is a ship at the top of the mail and in its subject (not Diplomacy's `F rigel`), and the
welcome says once which faction the player plays."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

from tests.conftest import Table, text_of, write
from tests.helpers.clock import at
from tests.helpers.startrek import table


def last(t: Table, name: str) -> EmailMessage:
    return t.sent(f"{name.lower()}@players.test")[-1]


def test_a_dislodged_ship_is_called_a_ship_in_the_subject_and_at_the_top(tmp_path: Path) -> None:
    t = table(tmp_path, intelligence_window="0")
    t.tick(at(0, 8, 5))
    write(t, "Kor", "Qapla'\nship khitomer - rigel\nrage on")  # +1: the Federation's rigel is dislodged
    write(t, "Fay", "ship vulcan H")
    t.tick(at(0, 20, 5))
    mail = last(t, "Fay")
    assert "Retreats due: ship rigel" in str(mail["Subject"])
    top = text_of(mail).split("\n\n")[1]
    assert top.startswith("You hold 5 centres and 4 units; dislodged: ship rigel;"), top
    assert "F rigel" not in text_of(mail)


def test_the_welcome_says_once_which_faction_you_play(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    welcome = text_of(last(t, "Fay"))
    assert welcome.count("You play") == 1, welcome
    assert "Your ability: diplomatic immunity (once per game)." in welcome
