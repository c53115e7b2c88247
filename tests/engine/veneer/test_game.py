"""A five-player game of Veneer through the tick, by scripted mail, until somebody wins: each phase
waits only for the players with a choice, VOTE and RESPONSE run on their own short clocks, absent
players get the defaults, reports carry the ledger, and the journal replays."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from openpyxl import load_workbook

from courier.journal.replay import replay_game
from engine.veneer import VENEER
from tests.conftest import text_of, write
from tests.helpers.clock import at
from tests.helpers.veneer import current, orders_for, table


def test_five_players_play_until_one_wins(tmp_path: Path) -> None:
    t = table(tmp_path)
    assert t.tick(at(0, 8, 5)) == []
    welcome = text_of(t.sent("agatha@players.test")[-1])
    assert "Only for you: your targets are" in welcome and "choose faction" in welcome
    pick = current(t)[0].seat("Barney").dealt[1]
    write(t, "Barney", f"choose faction {pick}\nchoose faction Nonsense")
    steps = 0
    while True:
        state, deadline, finished = current(t)
        if finished:
            break
        steps += 1
        assert steps < 300 and deadline is not None
        if state.stage in ("vote", "response"):
            assert deadline - t.clock <= timedelta(hours=1, minutes=1)
        for player in sorted(VENEER.awaiting(state)):
            text = orders_for(state, player) if state.stage != "setup" else ""
            if text:
                write(t, player, text)
        assert t.tick(deadline + timedelta(minutes=1)) == []
    final = text_of(t.sent("darcy@players.test")[-1])
    assert "The game is over:" in final
    rows = [list(r) for r in load_workbook(tmp_path / "truce-1.xlsx")["Ledger"].iter_rows(values_only=True)]
    flat = [str(c) for r in rows for c in r]
    assert "won" in flat and "eliminated" in flat
    assert ["Barney", pick] in [r[:2] for r in rows]  # his choice; the line naming no faction was refused
    assert state.winners and all(state.seat(w).alive for w in state.winners)
    journal = t.journal()
    try:
        checked, problems = replay_game(journal, "truce-1")
    finally:
        journal.close()
    assert problems == [] and checked == steps


def test_a_receipt_quotes_a_bad_line_with_a_suggestion(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    pick = current(t)[0].seat("Barney").dealt[1]
    write(t, "Barney", f"choose faction {pick}\nchose faction {pick}")
    t.tick(at(0, 9))
    receipt = text_of(t.sent("barney@players.test")[-1])
    assert f"choose faction {pick}" in receipt and "Did you mean" in receipt
