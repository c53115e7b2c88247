"""Public notes in a game's History tab (a pause, a substitute, a rollback), kept in the journal
beside the rounds they follow."""

from __future__ import annotations

from typing import Any

from courier.journal.interface import Journal, Transaction
from courier.journal.meta import HISTORY
from courier.state.context import Tick


def add_history_note(tick: Tick, db: Transaction, game_id: str, *texts: str) -> None:
    """Public lines in the History tab, placed after the rounds resolved so far (in ``db``'s
    transaction)."""
    notes = history_notes(tick.journal, game_id)
    done = tick.journal.round_count(game_id)
    notes.extend([done, text] for text in texts)
    HISTORY.put(db, game_id, notes)


def history_notes(journal: Journal, game_id: str) -> list[list[Any]]:
    """``[rounds resolved before it, text]`` for each note, oldest first."""
    return HISTORY.get(journal, game_id) or []
