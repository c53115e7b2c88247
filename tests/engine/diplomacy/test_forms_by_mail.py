"""Diplomacy's forms and reports by mail (issue 29): the order form shows the orders on file, so a
reply that sends the form back with one line changed changes that one order; a receipt says which
line replaced an earlier order; a retreat is checked as it arrives against where the unit may go,
and the retreat form lists those places; the winter form lists the free home centres; the report
lists what the rules did for units and builds nobody ordered."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import Table, last_text, write
from tests.helpers.clock import at
from tests.helpers.diplomacy import table


def standing(t: Table, phase: str, player: str) -> list[str]:
    journal = t.journal()
    try:
        return sorted(journal.standing("truce-1", phase)[player][0]["orders"])
    finally:
        journal.close()


def form(mail: str) -> str:
    """The order form at the end of a mail, as a player copies it into a reply."""
    return mail[mail.index("# Orders for") :].split("\n\n")[0]


def test_a_form_sent_back_with_one_line_changed_changes_only_that_order(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Fran", "A par - bur\nA mar S A par - bur")
    t.tick(at(0, 9))
    sent = form(last_text(t, "Fran"))
    assert sent.splitlines()[2:5] == ["A mar S A par - bur", "A par - bur", "F bre H"]

    write(t, "Fran", f"Hi,\n\n{sent.replace('F bre H', 'F bre - mao')}\n\nFran")
    t.tick(at(0, 10))
    assert standing(t, "S1901M", "Fran") == ["A mar S A par - bur", "A par - bur", "F bre - mao"]
    assert "replaces" not in last_text(t, "Fran")

    write(t, "Fran", "A par H")
    t.tick(at(0, 11))
    receipt = last_text(t, "Fran")
    assert "“A par H” replaces your earlier order “A par - bur”." in receipt
    assert "A mar: no order in this mail; “A mar S A par - bur” stands" in receipt
    assert "A par H\nA mar S A par - bur" not in receipt and "\nA par H\n" in form(receipt) + "\n"


def test_the_draw_vote_is_on_the_form_and_a_mail_without_it_says_it_is_withdrawn(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Ed", "F lon - nth\ndraw")
    t.tick(at(0, 9))
    assert "\ndraw\n" in form(last_text(t, "Ed")) + "\n"
    write(t, "Ed", "F edi - nwg")
    t.tick(at(0, 10))
    assert "Your draw vote is withdrawn: this mail has no `draw` line" in last_text(t, "Ed")
    assert standing(t, "S1901M", "Ed") == ["F edi - nwg", "F lon - nth"]
    write(t, "Ed", "Sorry, typo in the last one")  # nothing readable: everything on file stands
    write(t, "Ed", "draw")
    t.tick(at(0, 11))
    write(t, "Ed", "no draw")
    t.tick(at(0, 12))
    assert "Your draw vote is withdrawn." in last_text(t, "Ed")
    assert standing(t, "S1901M", "Ed") == ["F edi - nwg", "F lon - nth"]


def test_a_retreat_towards_the_attacker_is_refused_on_arrival_and_the_forms_list_what_may_be_done(
    tmp_path: Path,
) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Gerd", "A mun - ruh\nA ber - mun\nF kie - hol")
    write(t, "Fran", "A par - bur\nF bre H\nA mar H")
    t.tick(at(0, 9))
    t.tick(at(0, 20, 5))
    write(t, "Gerd", "A ruh - bur\nA mun S A ruh - bur\nF hol H")
    t.tick(at(1, 9))
    t.tick(at(1, 20, 5))  # France wrote nothing this season: its units held, one was dislodged

    report = last_text(t, "Ed")
    assert "France: A bur H (no order given) — fails (dislodged by the unit from ruh)" in report
    assert "England: F lon H (no order given) — succeeds" in report
    assert "A bur D   # or A bur R <province>, one of: bel, gas, par, pic" in form(last_text(t, "Fran"))

    write(t, "Fran", "A bur - ruh")
    t.tick(at(1, 21))
    receipt = last_text(t, "Fran")
    assert (
        "“A bur - ruh”: A bur cannot retreat to Ruhr: the attack came from there; it may retreat to "
        "bel, gas, par or pic, or disband. Did you mean “A bur R "
    ) in receipt
    assert "You have no orders standing" in receipt

    write(t, "Fran", "A bur - pic")
    t.tick(at(1, 21, 30))
    assert standing(t, "F1901R", "Fran") == ["A bur R pic"]
    assert "A bur R pic   # or A bur D, or A bur R <province>, one of:" in form(last_text(t, "Fran"))
    t.tick(at(1, 22, 5))

    winter = last_text(t, "Gerd")
    assert "# Builds due: 1 (A ber B / F <centre> B / waive). Free home centres: ber, kie." in winter
    assert "# Orders for" not in last_text(t, "Ed")  # England has nothing to build or disband
    t.tick(at(2, 0, 5))  # nobody builds
    report = last_text(t, "Ed")
    assert "Germany: waive (no order given) — succeeds" in report
