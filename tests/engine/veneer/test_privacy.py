"""Veneer privacy: no mail or sheet cell reveals another player's targets, orders stay with their
author until the phase resolves, and a secret ballot tells only the tally. (Action cards lie face up
in front of their holder: public since the rulings of 2026-11-24.)"""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import pytest
from openpyxl import load_workbook

from engine.core import visible_to
from engine.veneer import VENEER
from engine.veneer import _events as ev
from tests.conftest import text_of, write
from tests.helpers.clock import at
from tests.helpers.ledger import ledger_table
from tests.helpers.veneer import PLAYERS, current, orders_for, run, scene, table


def _cells(root: Path) -> list[str]:
    book = load_workbook(root / "truce-1.xlsx")
    return [
        str(c) for tab in ("Ledger", "History") for row in book[tab].iter_rows(values_only=True) for c in row
    ]


def test_targets_reach_only_their_owner(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    secrets: dict[str, set[str]] = {p: set() for p in PLAYERS}
    while True:
        state, deadline, finished = current(t)
        if finished or deadline is None:
            break
        for seat in state.seats:
            secrets[seat.name].add(f"your targets are {' and '.join(seat.targets)}")
        for player in sorted(VENEER.awaiting(state)):
            if text := orders_for(state, player) if state.stage != "setup" else "":
                write(t, player, text)
        t.tick(deadline + timedelta(minutes=1))
    mail = {p: "\n".join(text_of(m) for m in t.sent(f"{p.lower()}@players.test")) for p in PLAYERS}
    for owner, phrases in secrets.items():
        for phrase in phrases:
            assert phrase in mail[owner]
            assert all(phrase not in mail[p] for p in PLAYERS if p != owner), f"{owner}'s “{phrase}” leaked"
    cells = " ".join(_cells(tmp_path)).lower()  # a card's text may speak of targets; no cell names one
    assert "targets are" not in cells and "as a target" not in cells


@pytest.mark.parametrize("author", ["Agatha", "Darcy"])
def test_faction_choices_stay_with_their_author_until_the_deadline(tmp_path: Path, author: str) -> None:
    def play(root: Path, choice: int) -> tuple[list[str], dict[str, list[str]]]:
        t = table(root)
        t.tick(at(0, 8, 5))
        state, _, _ = current(t)
        write(t, author, f"choose faction {state.seat(author).dealt[choice]}")
        write(t, "Barney", f"choose faction {state.seat('Barney').dealt[1]}")
        t.tick(at(0, 9))
        return _cells(root), {
            p: [m.as_string() for m in t.sent(f"{p.lower()}@players.test")] for p in PLAYERS
        }

    cells_one, mail_one = play(tmp_path / "one", 1)
    cells_two, mail_two = play(tmp_path / "two", 2)
    assert cells_one == cells_two
    assert all(mail_one[p] == mail_two[p] for p in PLAYERS if p != author)
    assert mail_one[author] != mail_two[author]


def test_a_secret_ballot_looks_the_same_whoever_voted_how() -> None:
    state = scene(stage="vote", flipped="Tithe", laws=("Secret Ballot",))
    _, one = run(state, {"Agatha": "vote yes", "Barney": "vote no", "Charles": "vote yes"}, seed=3)
    _, two = run(state, {"Agatha": "vote no", "Barney": "vote yes", "Charles": "vote yes"}, seed=3)
    for viewer in (None, "Darcy"):
        assert visible_to(one, viewer) == visible_to(two, viewer)


def test_private_events_name_their_only_reader() -> None:
    state = VENEER.setup(PLAYERS, {}, random.Random(7))
    _, events = run(state, {})
    for event in events:
        if isinstance(event, (ev.TargetsDealt, ev.SecretLearned, ev.OrderRefused)):
            assert event.audience == frozenset({event.player})


def _orders_in(root: Path, player: str) -> str:
    ledger = ledger_table(list(load_workbook(root / "truce-1.xlsx")["Ledger"].iter_rows(values_only=True)))
    column = ledger[0].index("Orders in")
    return next(str(row[column]) for row in ledger[1:] if row[0] == player)


def test_a_card_played_unasked_does_not_show_on_the_ledger(tmp_path: Path) -> None:
    """The Ledger's "Orders in" says whom a phase waits for; a card holder who writes though not
    asked (an action card may be played in any phase) shows "—" as before: the play is theirs
    until the phase resolves."""
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    while True:
        state, deadline, finished = current(t)
        assert not finished and deadline is not None, "no phase had a card holder not asked to write"
        unasked = sorted(VENEER.writers(state) - VENEER.awaiting(state))
        if unasked:
            break
        for player in sorted(VENEER.awaiting(state)):
            if text := orders_for(state, player) if state.stage != "setup" else "":
                write(t, player, text)
        t.tick(deadline + timedelta(minutes=1))
    holder = unasked[0]
    card = state.seat(holder).hand[0]
    target = next(p for p in PLAYERS if p != holder)
    for text in (f"play {card}", f"play {card} on {target}"):
        write(t, holder, text)
    before = _orders_in(tmp_path, holder)
    t.tick(deadline - timedelta(minutes=30))

    journal = t.journal()
    try:
        row = journal.game("truce-1")
        assert row is not None and holder in journal.standing("truce-1", row.phase_key)
    finally:
        journal.close()
    assert before == _orders_in(tmp_path, holder) == "—"
