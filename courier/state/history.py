"""The game's History tab, kept in the journal: what happened in public, round by round (each line
labelled with its round, as the game names it: "Round 3 of 8", "Spring 1901 Movement"), and public
notes between rounds (a pause, a substitute, a rollback). Lines are written when they happen (a
round's results in the transaction that records it, a Truce gift in the one that reads its mail),
so the tab is built from the journal without re-reading any round: a tick costs the same at round 50."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from courier.journal.interface import Journal, Transaction
from courier.journal.meta import HISTORY
from courier.mail.render import render_event
from courier.state.context import Tick
from engine.core import Event, OpenResults, Ruleset

NOTE_LABEL = "—"  # the Round cell of a note between rounds


def add_history_note(tick: Tick, db: Transaction, game_id: str, *texts: str, label: str = "") -> None:
    """Public notes in the History tab, placed after the rounds resolved so far (in ``db``'s
    transaction); ``label``: the round it happened in (a substitute takes a seat during "Step 2"),
    else the Round cell says "—". A note stays through a rollback either way."""
    notes = history_notes(tick.journal, game_id)
    done = tick.journal.round_count(game_id)
    notes.extend(([done, text, label, "note"] if label else [done, text]) for text in texts)
    HISTORY.put(db, game_id, notes)


def history_lines(tick: Tick, ruleset: Ruleset, events: Sequence[Event]) -> list[str]:
    """What History lists of a resolved round, or of mail read on receipt (a Truce gift): its public
    events, and those the game puts there though it tells them to some only (``open_results``:
    Veneer's votes, Star Trek's public alliances), one line each, in the order they happened."""
    listed = {id(e) for e in ruleset.open_results(events)} if isinstance(ruleset, OpenResults) else set()
    return [render_event(tick.mailer.env, ruleset.name, e) for e in events if e.public or id(e) in listed]


def add_history_lines(tick: Tick, db: Transaction, game_id: str, label: str, texts: Sequence[str]) -> None:
    """What happened in public during the round ``label`` (its results, a gift), one line each, in
    ``db``'s transaction; a rollback takes back those of the rounds it undoes (``forget_undone``)."""
    if not texts:
        return
    notes = history_notes(tick.journal, game_id)
    done = tick.journal.round_count(game_id)
    notes.extend([done, text, label] for text in texts)
    HISTORY.put(db, game_id, notes)


def forget_undone(tick: Tick, db: Transaction, game_id: str, *, kept: int) -> None:
    """A rollback kept the first ``kept`` rounds: what happened after them is undone, so it leaves
    History (the notes, such as the rollback's own, stay)."""
    notes = history_notes(tick.journal, game_id)
    HISTORY.put(db, game_id, [n for n in notes if len(n) != 3 or n[0] <= kept])


def history_rows(journal: Journal, game_id: str) -> list[list[Any]]:
    """The History tab: a header, then one row per line, oldest first."""
    rows = [[n[2] if len(n) > 2 else NOTE_LABEL, n[1]] for n in history_notes(journal, game_id)]
    return [["Round", "What happened"], *rows]


def history_notes(journal: Journal, game_id: str) -> list[list[Any]]:
    """``[rounds resolved before it, text]`` for each note (``[…, text, round label, "note"]`` for
    one told its round), ``[…, text, round label]`` for each line of what happened, oldest first."""
    return HISTORY.get(journal, game_id) or []
