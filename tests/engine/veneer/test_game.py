"""A five-player game of Veneer through the tick, by scripted mail, until somebody wins: each phase
waits only for the players with a choice, VOTE and RESPONSE run on their own short clocks, absent
players get the defaults, reports carry the ledger, and the journal replays."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from openpyxl import load_workbook

from courier.journal.replay import replay_game
from engine.veneer import VENEER, VeneerState
from engine.veneer._effects import troop_price
from tests.conftest import Table, text_of

PLAYERS = ["Agatha", "Barney", "Charles", "Darcy", "Emmett"]
CONFIG = {
    "game": "veneer",
    "timezone": "UTC",
    "start": "2026-12-01 08:00",
    "duration": "6h",
    "vote_duration": "1h",
    "response_duration": "1h",
    "reminders": "none",
}


def table(root: Path) -> Table:
    return Table(root, CONFIG, [{"name": n, "email": f"{n.lower()}@players.test"} for n in PLAYERS])


def write(t: Table, name: str, body: str) -> None:
    t.mail(f"{name.lower()}@players.test", body)


def current(t: Table) -> tuple[VeneerState, datetime | None, bool]:
    journal = t.journal()
    try:
        row = journal.game("truce-1")
    finally:
        journal.close()
    assert row is not None
    return VENEER.from_json(row.state), row.deadline, row.finished


def orders_for(state: VeneerState, player: str) -> str:
    """A warlike script: vote yes, spend everything on attackers, attack a living target."""
    seat = state.seat(player)
    if state.stage == "vote":
        return "vote yes" if player != "Emmett" else ""  # Emmett never votes: it counts as no
    if state.stage == "end" and player == state.active and state.turn == 1:
        return "ally with Barney"
    if state.stage == "end" and player == "Barney":
        return "ally with Agatha"
    if state.stage != "muster":
        return ""  # defaults: no veto, all defenders intercept, lent troops back in seating order
    price = troop_price(state, player)
    buy = (seat.coins - 1) // price
    lines = [f"buy {buy} attackers"] if buy else []
    if seat.defenders:
        lines.append(f"reassign {seat.defenders} to attackers")
    victims = [v for v in seat.targets if state.seat(v).alive] or [n for n in state.living if n != player]
    attackers = seat.attackers + seat.defenders + buy
    if attackers and "Ceasefire" not in state.laws:
        lines.append(f"attack {victims[0]} with {attackers}")
    return "\n".join(lines)


def test_five_players_play_until_one_wins(tmp_path: Path) -> None:
    t = table(tmp_path)
    assert t.tick(datetime(2026, 12, 1, 8, 5, tzinfo=UTC)) == []
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
    t.tick(datetime(2026, 12, 1, 8, 5, tzinfo=UTC))
    pick = current(t)[0].seat("Barney").dealt[1]
    write(t, "Barney", f"choose faction {pick}\nchose faction {pick}")
    t.tick(datetime(2026, 12, 1, 9, 0, tzinfo=UTC))
    receipt = text_of(t.sent("barney@players.test")[-1])
    assert f"choose faction {pick}" in receipt and "Did you mean" in receipt
