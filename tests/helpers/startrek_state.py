"""A Star Trek game's state put in place between ticks, for tests of positions a few turns of mail
would take long to reach (a faction left with centres and no unit)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.startrek import STARTREK, StarTrekState
from tests.conftest import Table


def change_state(t: Table, change: Callable[[StarTrekState], StarTrekState]) -> None:
    """The game's current state, changed in the journal as if play had led there."""
    journal = t.journal()
    try:
        row = journal.game("truce-1")
        assert row is not None
        state: Any = change(STARTREK.from_json(row.state))
        with journal.transaction() as db:
            db.set_state("truce-1", STARTREK.to_json(state))
    finally:
        journal.close()
