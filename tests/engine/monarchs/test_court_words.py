"""Court mode's wording as the organiser and the courtiers read it by mail (issue 29 QA): the
organiser's report tells each carrier's deed in the third person, and a courtier's welcome says
what it is in words, its secret loyalty told to it alone."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import address, last_text, text_of
from tests.helpers.clock import at
from tests.helpers.monarchs_court import court_table

ORGANISER = "organiser@courier.test"


def test_the_organiser_reads_each_carriers_deed_in_the_third_person(tmp_path: Path) -> None:
    t = court_table(tmp_path)
    t.tick(at(0, 8, 5))
    t.mail(address("Rex"), "carrier R1\nmap to R2")
    t.mail(address("Bly"), "carrier B2")
    t.tick(at(0, 9))
    t.mail(address("R1"), "3 H6 I5")
    t.tick(at(0, 20, 5))

    report = text_of(t.sent(ORGANISER)[-1])
    assert "Red's carrier R1 delivered its orders for turn 1." in report
    assert "Green's monarch named no carrier for turn 1: Green gave no orders." in report
    assert "Blue's carrier B2 delivered no orders for turn 1" in report
    assert "Your carrier" not in report and "You named" not in report
    # The monarch's own wording stays.
    assert "Your carrier R1 delivered Red's orders for turn 1." in last_text(t, "Rex")
    assert "You named no carrier for turn 1: Green gave no orders." in last_text(t, "Gil")


def test_a_courtiers_welcome_says_what_it_is_in_words_and_to_it_alone(tmp_path: Path) -> None:
    t = court_table(tmp_path)
    t.tick(at(0, 8, 5))
    spy, loyal, king = last_text(t, "R5"), last_text(t, "R1"), last_text(t, "Rex")
    for welcome in (spy, loyal, king):
        assert "You play Spy" not in welcome and "You play Loyal courtier" not in welcome
        assert "You play spy" not in welcome.lower().replace("you play red", "")
    assert "You, R5, are a courtier of Red, but secretly loyal to Blue: you are its spy." in spy
    assert "You, R1, are a courtier of Red, and loyal to Red." in loyal
    assert "You play Red." in king
    # Nobody else's welcome tells R5's secret, nor the organiser's mail.
    others = [last_text(t, p) for p in ("Rex", "Bly", "R1", "B1")]
    others += [text_of(m) for m in t.sent(ORGANISER)]
    assert not any("R5, are a courtier" in text or "spy for Blue" in text for text in others)


def test_the_map_reads_by_nation_and_the_final_mail_puts_the_winner_first(tmp_path: Path) -> None:
    """The map was a run-on string ("E9 R2 G9 G2 D8 R …") above the winner (issue 29/30 QA)."""
    t = court_table(tmp_path)
    t.tick(at(0, 8, 5))
    t.mail(address("Rex"), "carrier R1\nmap to R2")
    t.tick(at(0, 9))
    t.mail(address("R1"), "3 H6 I5")
    t.tick(at(0, 20, 5))
    held = next(line for line in last_text(t, "R2").splitlines() if "Red's map after turn 1" in line)
    assert "(regiments in brackets): Red: " in held and "I5 (3)" in held and "; Green: G9 (2)" in held
    assert "R/G/B" not in held

    t.mail(address("Rex"), "carrier R3")
    t.tick(at(1, 9))
    t.mail(address("R3"), "hold")
    t.tick(at(1, 20, 5))
    t.mail(address("Rex"), "R5 serves blue")
    t.tick(at(2, 20, 5))
    final = text_of(t.sent(address("G3"))[-1])
    ended = final.index("The game ended:")
    assert ended < final.index("Red's monarch score") < final.index("At the end Red holds")
    assert "At the end Green holds" in final and "At the end Blue holds" in final
    assert "(hex, owner R/G/B, regiments)" not in final
