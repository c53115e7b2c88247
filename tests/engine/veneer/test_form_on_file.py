"""Issue 29 (QA, Veneer): the order form shows the orders on file. After a receipt for `vote yes` the
form below it still had `vote no` filled in, after `choose faction Garrison` still `choose faction
Guilds`: a player who copied the block back, as the mail says, reverted the order unsaid."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import text_of, write
from tests.helpers.clock import at
from tests.helpers.veneer import current, table


def order_lines(mail: str) -> list[str]:
    """The form's order lines (not comments), as a player copying the block back sends them."""
    form = mail[mail.index("# Veneer, ") :].split("\n\n")[0]
    return [line for line in form.splitlines() if line and not line.startswith("#")]


def test_the_form_below_a_receipt_shows_the_orders_on_file(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    dealt = current(t)[0].seat("Agatha").dealt
    assert len(dealt) > 1
    welcome = text_of(t.sent("agatha@players.test")[-1])
    assert f"(default: the first, the {dealt[0]})" in welcome
    assert order_lines(welcome) == [f"choose faction {dealt[0]}"]  # nothing on file: the default
    write(t, "Agatha", f"choose faction {dealt[1]}")
    t.tick(at(0, 9))
    receipt = text_of(t.sent("agatha@players.test")[-1])
    assert order_lines(receipt) == [f"choose faction {dealt[1]}"], receipt

    write(t, "Agatha", "\n".join(order_lines(receipt)))  # the block copied back: the choice stands
    t.tick(at(0, 9, 30))
    assert "replaces your earlier order" not in text_of(t.sent("agatha@players.test")[-1])
    t.tick(at(0, 14, 5))  # the deadline: Agatha plays what she chose
    state = current(t)[0]
    assert state.seat("Agatha").faction == dealt[1]
    assert state.stage == "vote" and not state.on_file

    voter = state.active
    write(t, voter, "vote yes")
    t.tick(at(0, 14, 10))
    receipt = text_of(t.sent(f"{voter.lower()}@players.test")[-1])
    assert order_lines(receipt) == ["vote yes"], receipt

    other = next(p for p in state.living if p != voter)
    write(t, other, "status")  # privacy: another voter's form shows the default, never the voter's line
    t.tick(at(0, 14, 15))
    assert order_lines(text_of(t.sent(f"{other.lower()}@players.test")[-1])) == ["vote no"]

    write(t, voter, "vote no")
    t.tick(at(0, 14, 20))
    receipt = text_of(t.sent(f"{voter.lower()}@players.test")[-1])
    assert "“vote no” replaces your earlier order “vote yes”." in receipt
    assert order_lines(receipt) == ["vote no"]
