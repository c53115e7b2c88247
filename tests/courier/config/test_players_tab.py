"""The organiser's Players tab: each problem refused with one mail naming the cell; names with line
breaks never reach the Ledger; a nickname never makes an order name the wrong player."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.conftest import PLAYERS, Table, address, text_of
from tests.helpers.clock import at

ORGANISER = "organiser@courier.test"


def _rows(**changes: dict[str, str]) -> list[dict[str, str]]:
    return [{"name": n, "email": address(n), **changes.get(n, {})} for n in PLAYERS]


@pytest.mark.parametrize(
    ("change", "cell", "says"),
    [
        ({"Barney": {"name": "Bar\r\nney"}}, "Players!A3", "line break"),
        ({"Barney": {"name": "Bar\tney"}}, "Players!A3", "tab"),
        ({"Celeste": {"email": "celeste at players.test"}}, "Players!B4", "not one mail address"),
        ({"Celeste": {"email": "celeste@players.test, other@players.test"}}, "Players!B4", "not one mail"),
        ({"Darcy": {"nickname": "Agatha"}}, "Players!C5", "already names Agatha"),
        ({"Darcy": {"nickname": "Dee"}, "Celeste": {"nickname": "dee"}}, "Players!C", "already names"),
        ({"Darcy": {"name": "agatha"}}, "Players!A5", "two players are called"),
    ],
    ids=[
        "crlf-name",
        "tab-name",
        "bad-address",
        "two-addresses",
        "nick-is-a-name",
        "shared-nick",
        "same-name",
    ],
)
def test_a_bad_players_tab_is_one_mail_naming_the_cell(
    make_table: Callable[..., Table], change: dict[str, dict[str, str]], cell: str, says: str
) -> None:
    table = make_table()
    from courier.backends.workbook import write_config
    from tests.conftest import BASE_CONFIG

    write_config(table.root / "truce-1.xlsx", BASE_CONFIG, _rows(**change))
    table.tick(at(0, 8, 5))
    table.tick(at(0, 8, 10))
    mails = [text_of(m) for m in table.sent(ORGANISER)]
    assert len(mails) == 1 and cell in mails[0] and says in mails[0]
    assert table.sent("Agatha") == []  # the game does not start on a tab that is wrong
