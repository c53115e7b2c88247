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


def form(mail: str) -> str:
    """The order form at the end of a mail, as a player copies it into a reply."""
    return mail[mail.index("# Orders for") :].split("\n\n")[0]


def test_a_form_sent_back_with_one_line_changed_changes_only_that_order(tmp_path: Path) -> None:
    """Issue 29's Diplomacy bullet, met again in Star Trek: the form listed every ship as holding, so
    a reply with the form, one line edited, silently turned the earlier moves into holds."""
    t = table(tmp_path, intelligence_window="0")
    t.tick(at(0, 8, 5))
    write(t, "Fez", "ship ferenginar - risa\nship clarus - freecloud\nally with klingon")
    t.tick(at(0, 9))
    sent = form(text_of(last(t, "Fez")))
    assert sent.splitlines()[2:6] == [
        "ship clarus - freecloud",
        "ship ferenginar - risa",
        "ship volchok H",
        "ally with klingon",
    ]

    write(t, "Fez", f"Hi,\n\n{sent.replace('ship volchok H', 'ship volchok - underspace_alpha')}\n\nFez")
    t.tick(at(0, 10))
    receipt = text_of(last(t, "Fez"))
    standing = receipt.split("Your orders that now stand for Spring 2370:\n")[1].split("\nTo change")[0]
    assert sorted(line.strip() for line in standing.splitlines()) == [
        "ally with klingon",
        "ship clarus - freecloud",
        "ship ferenginar - risa",
        "ship volchok - underspace_alpha",
    ]
    assert "replaces your earlier order" not in receipt

    write(t, "Fez", "ship clarus H")
    t.tick(at(0, 11))
    receipt = text_of(last(t, "Fez"))
    assert "“ship clarus H” replaces your earlier order “ship clarus - freecloud”." in receipt
    t.tick(at(0, 20, 5))
    results = text_of(last(t, "Fez"))
    assert "Ferengi: ship ferenginar - risa — succeeds" in results
    assert "Ferengi: ship volchok - underspace_alpha — succeeds" in results


def test_status_in_the_intelligence_window_shows_the_orders_that_stand(tmp_path: Path) -> None:
    """In the window the orders given at the deadline stand: `status` says so to the informed and
    the uninformed alike (it said "none yet"), and to one who may send nothing it says so instead
    of showing an empty form."""
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Fay", "ship earth - betazed\nship vulcan H")
    write(t, "Rom", "ship romulus - galorndon\ntal shiar klingon")
    t.tick(at(0, 9))
    t.tick(at(0, 20, 5))  # the window opens: the Romulan is informed, the Federation is not
    write(t, "Fay", "status")
    write(t, "Rom", "Hi\nstatus\nthanks")
    t.tick(at(0, 20, 30))
    fay, rom = text_of(last(t, "Fay")), text_of(last(t, "Rom"))
    assert "Your orders on file: ship earth - betazed; ship vulcan H" in fay
    assert "Nothing is asked of you now." in fay and "as the order form shows it" not in fay
    assert "Your orders on file: ship romulus - galorndon; tal shiar klingon" in rom
    assert "as the order form shows it:\n\n# Orders for the Romulan" in rom


def test_a_move_along_a_lane_that_does_not_exist_is_pointed_out_on_arrival(tmp_path: Path) -> None:
    """Issue 30's players ordered moves along lanes that do not exist and learnt it from the results;
    the receipt says so at once, as Diplomacy's does, while there is time to correct it."""
    t = table(tmp_path, intelligence_window="0")
    t.tick(at(0, 8, 5))
    write(t, "Fez", "ship ferenginar - bajor\nship clarus - freecloud")
    t.tick(at(0, 9))
    receipt = text_of(last(t, "Fez"))
    assert "ship ferenginar - bajor: illegal (not adjacent); the unit will hold" in receipt
    assert "ship clarus - freecloud: illegal" not in receipt
