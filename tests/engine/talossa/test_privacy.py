"""Talossan RISK privacy: an Action Plan reaches only its author until the step is resolved (IV.4:
"Do not make your Action Plan public until it's published"). Played twice with one conqueror's plan
changed: every other mailbox and every sheet cell come out identical."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import write
from tests.helpers.clock import at
from tests.helpers.privacy import Seen, assert_only_the_author_can_tell, what_everyone_sees
from tests.helpers.talossa import ROLES, table

ONE = {"Al": "R: Abbavilla, 12\nQ: Abbavilla >> Downer, 2", "Bea": "S: +Downer", "Cy": "R: Farwell, 3"}
TWO = {"Al": "M: Abbavilla >> Downer, 1", "Bea": "R: Downer, 12\nQ: Downer >> (east)", "Cy": "C: Farwell"}


def play(root: Path, orders: dict[str, str]) -> Seen:
    return what_everyone_sees(
        table(root), orders, names=ROLES, write=write, opening=at(0, 8, 5), before_deadline=at(0, 12)
    )


@pytest.mark.parametrize("author", list(ONE))
def test_orders_reach_only_their_author_before_resolution(tmp_path: Path, author: str) -> None:
    assert_only_the_author_can_tell(
        play(tmp_path / "one", ONE), play(tmp_path / "two", {**ONE, author: TWO[author]}), author
    )
