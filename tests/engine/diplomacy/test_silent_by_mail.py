"""What the top of a Diplomacy report tells a power that sent no orders (issue 29/30 QA): the holds,
disbands and waived builds the rules made for it are no orders of its own that "succeeded"."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import last_text, write
from tests.helpers.clock import at
from tests.helpers.diplomacy import table


def top(mail: str) -> str:
    """The player's own result: the line after the greeting."""
    return mail.split("\n\n")[1]


def test_a_silent_power_reads_what_the_rules_did_not_that_its_orders_succeeded(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Ed", "Hi all\nF lon - nth\nF edi - nwg\nCheers, Ed")  # A lvp is left unordered
    write(t, "Ida", "A ven - tyr\nF nap - ion\nA rom - nap")
    t.tick(at(0, 20, 5))  # Turkey wrote nothing
    assert (
        top(last_text(t, "Tur"))
        == "You hold 3 centres and 3 units; no order given: A con H, A smy H and 1 more."
    )
    assert (
        top(last_text(t, "Ed"))
        == "You hold 3 centres and 3 units; all 2 orders succeeded; no order given: A lvp H."
    )

    write(t, "Ida", "F ion - tun\nA tyr H\nA nap H")
    t.tick(at(1, 20, 5))
    t.tick(at(1, 22, 5))  # Italy builds nothing: its build is waived
    assert top(last_text(t, "Ida")) == "You hold 4 centres and 3 units; no order given: waive."
