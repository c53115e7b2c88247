"""Diplomacy privacy: until the phase is resolved a power's orders, and its draw vote until the
vote is unanimous, reach only its own player. Proved by playing twice with one power's orders
changed: every other mailbox and every sheet cell come out identical."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import write
from tests.helpers.clock import at
from tests.helpers.diplomacy import POWERS, table
from tests.helpers.privacy import Seen, assert_only_the_author_can_tell, what_everyone_sees

ONE = {"Fran": "A par - bur\nA mar S A par - bur", "Gerd": "A mun - bur", "Ed": "F lon - nth"}
TWO = {"Fran": "A par - pic\ndraw", "Gerd": "A mun - ruh\ndraw", "Ed": "F lon - eng\ndraw"}


def play(root: Path, orders: dict[str, str]) -> Seen:
    return what_everyone_sees(
        table(root), orders, names=POWERS, write=write, opening=at(0, 8, 5), before_deadline=at(0, 12)
    )


@pytest.mark.parametrize("author", list(ONE))
def test_orders_reach_only_their_author_before_resolution(tmp_path: Path, author: str) -> None:
    assert_only_the_author_can_tell(
        play(tmp_path / "one", ONE), play(tmp_path / "two", {**ONE, author: TWO[author]}), author
    )
