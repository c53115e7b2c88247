"""Court mode: loyalties dealt by the seed (or fixed by the organiser), told privately; the monarch
names its carrier and its map's recipient among the eligible courtiers; the monarchs' guesses; final
scores and the raffle. One game runs through the tick with a traitor carrying (and sabotaging) the
orders and a courtier who is not the carrier refused. Who carries: see test_delivery.py."""

from __future__ import annotations

import random
from pathlib import Path

from openpyxl import load_workbook

from courier.journal.replay import replay_game
from engine.core import Submission
from engine.monarchs import MONARCHS, NATIONS, GameEnded, LoyaltyRevealed, MapShown
from engine.monarchs._court import Court, Courtier
from engine.monarchs._final import final_scores
from engine.monarchs._position import Position
from tests.conftest import Table, address, last_text
from tests.helpers.clock import at
from tests.helpers.ledger import ledger_table
from tests.helpers.monarchs_court import CONFIG, KINGS, PLAYERS, ROLES


def setup(turns: int = 2) -> object:
    return MONARCHS.setup(PLAYERS, {"mode": "court", "turns": turns, "roles": ROLES}, random.Random("court"))


def test_loyalties_are_dealt_one_spy_for_each_other_nation_and_told_privately() -> None:
    state = MONARCHS.setup(PLAYERS, {"mode": "court", "turns": 2, "roles": ROLES}, random.Random("court"))
    court = state.court
    assert court is not None
    for nation in NATIONS:
        loyalties = sorted(c.loyal_to for c in court.of(nation))
        assert loyalties == sorted([nation] * 3 + [n for n in NATIONS if n != nation])
    assert court.courtier("R5") == Courtier("R5", "red", "blue")
    assert court.courtier("B1") == Courtier("B1", "blue", "blue")
    assert "you are its spy" in MONARCHS.order_template(state, "R5")
    assert "and loyal to Red" in MONARCHS.order_template(state, "R1") or "spy" in MONARCHS.order_template(
        state, "R1"
    )
    assert "R5" not in MONARCHS.order_template(state, "R1")
    again = MONARCHS.setup(PLAYERS, {"mode": "court", "turns": 2, "roles": ROLES}, random.Random("court"))
    assert again.court == court  # the seed decides


def test_carrier_and_map_go_only_to_eligible_courtiers() -> None:
    state = MONARCHS.setup(PLAYERS, {"mode": "court", "turns": 3, "roles": ROLES}, random.Random("court"))
    choice = MONARCHS.parse(state, "Rex", "carrier R1\nmap to R2")
    assert choice.orders == ("carrier R1", "map to R2")
    unknown = MONARCHS.parse(state, "Rex", "map to R9")
    assert "no courtier of Red is called that" in unknown.errors[0].reason
    state, _ = MONARCHS.immediate(state, choice)
    delivery = MONARCHS.parse(state, "R1", "5 A5 C5")
    assert delivery.orders == ("5 A5 C5",)
    after = MONARCHS.resolve(state, {"Rex": choice, "R1": delivery}, random.Random(1))
    maps = [e for e in after.events if isinstance(e, MapShown)]
    assert {e.nation: e.audience for e in maps}["red"] == frozenset({"R2"})
    state = after.state
    assert state.position.armies["C5"] == ("red", 5)
    for name, why in (("R1", "R1 delivered Red's previous orders"), ("R2", "R2 received Red's latest map")):
        barred = MONARCHS.parse(state, "Rex", f"carrier {name}")
        assert barred.orders == () and why in barred.errors[0].reason
        assert name not in MONARCHS.awaiting(state)
    assert "R2 received Red's latest map" in MONARCHS.parse(state, "Rex", "map to R2").errors[0].reason


def test_final_scores_follow_the_seed() -> None:
    court = Court(
        (
            *(Courtier(f"R{i}", "red", "red") for i in range(1, 4)),
            Courtier("R4", "red", "green"),
            Courtier("R5", "red", "blue"),
        ),
        guesses={"red": {"R4": "green", "R1": "blue"}},
    )
    scores = {"red": 150, "green": 140, "blue": 130}
    final = final_scores(court, scores, Position.start(), turns=8, constants=(18, 19), rng=random.Random(3))
    assert final.monarchs == {"red": 155, "green": 140, "blue": 130}  # one traitor rightly placed
    assert final.courtiers["R2"] == 155 - 18 * 9
    assert final.courtiers["R1"] == (155 - 18 * 9) // 2  # named disloyal, halved, rounded down
    assert final.courtiers["R4"] == (2 * 140 - 155 - 19 * 9) // 2
    assert final.courtiers["R5"] == 2 * 130 - 155 - 19 * 9
    assert final.nations == ["red", "green", "blue"]
    assert len(set(final.courtier_winners)) == 3


def test_a_court_game_through_the_tick(tmp_path: Path) -> None:
    rows = [{"name": p, "email": address(p), "role": ROLES[p]} for p in PLAYERS]
    t = Table(tmp_path, CONFIG, rows)
    t.tick(at(0, 8, 5))
    assert "secretly loyal to Blue" in last_text(t, "R5")
    # Everybody's welcome shows the starting map: the monarch's nation, the courtier's open one.
    for name in ("Rex", "R5"):  # R5 spies for Blue but sees Red's map, as Red's map holder would
        welcome = last_text(t, name)
        assert "Red's starting map" in welcome and "A5 red 5" in welcome and "M1 blue" not in welcome
    assert "M9 green 5" in last_text(t, "G4") and "A5 red" not in last_text(t, "G4")
    # Rex trusts R5, Blue's spy in his court, who carries Red's orders with the boost left out.
    t.mail(address("Rex"), "carrier R5\nmap to R1")
    t.mail(address("Gil"), "carrier G1\nmap to G2")
    t.tick(at(0, 9))
    ledger = ledger_table(
        list(load_workbook(tmp_path / "truce-1.xlsx")["Ledger"].iter_rows(values_only=True))
    )
    assert ledger[0][5] == "Orders in" and {row[5] for row in ledger[1:4]} == {"—"}  # who wrote: private
    t.mail(address("R5"), "5 A5 C5\n3 H6 I5")
    t.mail(address("G1"), "3 K5 I5\nboost I5")
    t.tick(at(0, 20, 5))
    assert "Battle on I5" in last_text(t, "R1") and "Battle on I5" not in last_text(t, "Rex")
    assert "Battle on I5" in last_text(t, "G2") and "Battle on" not in last_text(t, "G3")

    t.mail(address("Rex"), "carrier R5")  # R5 delivered last time: refused
    t.mail(address("R5"), "1 C5 E5")  # not the carrier: refused
    t.tick(at(1, 9))
    assert "R5 may not carry your orders this turn: R5 delivered Red's previous orders" in last_text(t, "Rex")
    assert "you are not carrying Red's orders this turn" in last_text(t, "R5")
    t.mail(address("Rex"), "carrier R2\nmap to R3")
    t.tick(at(1, 10))
    t.mail(address("R2"), "1 C5 E5")
    t.tick(at(1, 20, 5))
    assert "Battle" not in last_text(t, "R3")  # the last turn waits for the guesses

    t.mail(address("Rex"), "R5 serves blue\nR4 serves green")
    t.mail(address("R2"), "R5 serves blue")  # not a monarch: refused
    t.tick(at(2, 9))
    assert "No orders are needed from you in this phase" in last_text(t, "R2")
    t.tick(at(2, 20, 5))
    final = last_text(t, "R3")
    assert "Game over" in str(t.sent(address("R3"))[-1]["Subject"])
    assert "R5, courtier of Red, was a spy for Blue" in final and "(halved" in final
    assert "The monarch of Red named as traitors: R5 (serving Blue)" in final
    journal = t.journal()
    try:
        checked, problems = replay_game(journal, "truce-1")
    finally:
        journal.close()
    assert problems == [] and checked == 3  # two turns and the guesses, choices and carriers alike


def test_a_court_game_ends_with_one_monarch_and_three_courtiers() -> None:
    state = MONARCHS.setup(PLAYERS, {"mode": "court", "turns": 1, "roles": ROLES}, random.Random("x"))
    subs = {p: Submission(p) for p in MONARCHS.awaiting(state)}
    state = MONARCHS.resolve(state, subs, random.Random(1)).state
    assert MONARCHS.phase(state).kind == "guesses" and MONARCHS.awaiting(state) == frozenset(KINGS)
    resolution = MONARCHS.resolve(state, {"Rex": Submission("Rex", ("R5 serves blue",))}, random.Random(2))
    outcome = MONARCHS.outcome(resolution.state)
    assert outcome is not None and len(outcome.winners) == 4 and outcome.winners[0] in KINGS
    assert sum(isinstance(e, LoyaltyRevealed) for e in resolution.events) == 15
    assert any(isinstance(e, GameEnded) for e in resolution.events)
    back = MONARCHS.from_json(MONARCHS.to_json(resolution.state))
    assert back == resolution.state
