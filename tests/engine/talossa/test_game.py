"""Talossan RISK through the tick: four conquerors register by their Role, mail Action Plans,
get numbered receipts, a silent one gets 6 random actions, battles with every die in the report,
and one conqueror wins. Plus joining mid-game and the JSON request/answer."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from openpyxl import load_workbook

from courier.journal.replay import replay_game
from courier.journal.sqlite import SqliteJournal
from engine import Ruleset, find_ruleset
from engine.request import resolve_request
from engine.talossa import TALOSSA, ConquerorJoined
from engine.talossa._state import Board
from tests.conftest import last_text, write
from tests.helpers.clock import at
from tests.helpers.ledger import ledger_table
from tests.helpers.talossa import ROLES, table


def test_registered_and_follows_the_contract() -> None:
    assert find_ruleset("Talossa") is TALOSSA and isinstance(TALOSSA, Ruleset)


def test_four_conquerors_play_until_one_wins(tmp_path: Path) -> None:
    t = table(tmp_path)
    assert t.tick(at(0, 8, 5)) == []
    assert "Action Plan for Alvania, step 1. Force Stack: 12 units." in last_text(t, "Al")
    write(t, "Al", "r: abbavilla 12\nQ: Abbavilla -> Downer, 1\nQ: Abbavilla >> Farwell, 1\nC: Abbavilla")
    write(t, "Bea", "R: Downer, 1")
    write(t, "Cy", "R: Farwell, 1")
    write(t, "Di", "S: +Ankara Street")
    t.tick(at(0, 9))
    receipt = last_text(t, "Al")
    assert "1. R: Abbavilla, 12" in receipt and "3. Q: Abbavilla >> Farwell, 1" in receipt
    assert (
        "Action 4 (C: Abbavilla) cannot succeed as written: Alvania has 3 lands; a capital needs 10."
        in receipt
    )
    assert "number 1 in submission order" in receipt and "number 4 in submission order" in last_text(t, "Di")

    assert t.tick(at(0, 20, 5)) == []
    report = last_text(t, "Cy")
    assert "Plan 1: Alvania (Al): 1. R: Abbavilla, 12 · 2. Q: Abbavilla >> Downer, 1" in report
    assert "Alvania, action 2: battle from Abbavilla against Beatria's Downer: attack " in report
    assert "Beatria (Bea) fell: it lost its last land." in report and "Cyland (Cy) fell" in report
    assert "Dilonia, action 1: Ankara Street is now a stronghold." in report
    parts = {part.get_content_type() for part in t.sent("cy@players.test")[-1].walk()}
    assert {"image/png", "image/svg+xml"} <= parts  # the map after step 1, inline and attached

    t.tick(at(1, 8))
    write(t, "Al", "Q: Abbavilla >> Ankara Street, 1")  # Dilonia stays silent: its plan is drawn
    t.tick(at(1, 9))
    assert t.tick(at(1, 20, 5)) == []
    final = last_text(t, "Di")
    assert "Plan 2: Dilonia (Di), drawn at random (no plan came)" in final
    assert "with +2 a die (stronghold)" in final and "Alvania (Al) wins" in final
    assert "Game over" in str(t.sent("di@players.test")[-1]["Subject"])

    book = load_workbook(tmp_path / "truce-1.xlsx")
    rows = ledger_table(list(book["Ledger"].iter_rows(values_only=True)))
    assert rows[0][:10] == ["Player", "Country", "Colour", "Lands", "Units", "Borderlands", "Capital",
                            "Strongholds", "Force stack", "Status"]  # fmt: skip
    status = {r[0]: (r[3], r[9]) for r in rows[1:]}
    assert status == {"Al": (4, "won"), "Bea": (0, "fallen"), "Cy": (0, "fallen"), "Di": (0, "fallen")}
    history = [list(r) for r in book["History"].iter_rows(values_only=True)]
    assert history[0] == ["Round", "What happened"]  # each step's published plans and battles
    assert {row[0] for row in history[1:]} == {"Step 1", "Step 2"}
    assert any(str(row[1]).startswith("Plan 1: Alvania (Al)") for row in history if row[0] == "Step 1")
    journal = SqliteJournal(t.deployment.journal_path)
    try:
        checked, problems = replay_game(journal, "truce-1")
    finally:
        journal.close()
    assert problems == [] and checked == 2


def test_a_later_plan_replaces_the_earlier_and_moves_to_the_back_of_the_order(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Al", "R: Abbavilla, 3")
    write(t, "Bea", "R: Downer, 3")
    t.tick(at(0, 9))
    write(t, "Al", "R: Abbavilla, 4\nhello there\nR: Abavilla")
    t.tick(at(0, 10))
    receipt = last_text(t, "Al")
    assert "number 2 in submission order" in receipt and "1. R: Abbavilla, 4" in receipt
    assert "hello there" not in receipt  # no order attempt: skipped silently (issue 13)
    assert "“R: Abavilla”" in receipt  # an order attempt: quoted
    t.tick(at(0, 20, 5))
    report = last_text(t, "Al")
    assert "Plan 1: Beatria" in report and "Plan 2: Alvania" in report


def test_a_conqueror_joins_mid_game_on_a_free_land() -> None:
    state = TALOSSA.setup(list(ROLES), {"roles": ROLES}, random.Random(1))
    state, events = TALOSSA.join(state, "Eve", "Evania; purple; Downer", random.Random(2))
    (joined,) = events
    assert isinstance(joined, ConquerorJoined) and joined.asked == "Downer" and joined.land != "Downer"
    assert state.country("Eve").stack == 12 and "Eve" in TALOSSA.awaiting(state)
    state, events = TALOSSA.join(state, "Fay", "; ; Saguaro", random.Random(2))
    assert Board(state).owner("mar-saguaro") == "Fay" and state.country("Fay").colour == "orange"
    with pytest.raises(ValueError, match="already play"):
        TALOSSA.join(state, "Fay", "", random.Random(2))


def test_the_json_request_resolves_a_step_with_random_plans_for_the_silent() -> None:
    state = TALOSSA.setup(list(ROLES), {"roles": ROLES}, random.Random(1))
    request = {
        "state": TALOSSA.to_json(state),
        "orders": {"Bea": "R: Downer, 12", "Al": "R: Abbavilla, 12\nQ: Abbavilla >> Downer, 2"},
        "seed": "s",
    }
    answer = json.loads(json.dumps(resolve_request(TALOSSA, request)))
    assert answer == resolve_request(TALOSSA, request)  # seeded: the same request, the same answer
    published = [e for e in answer["events"] if e["event"] == "PlanPublished"]
    assert [(e["player"], e["drawn"]) for e in published] == [
        ("Bea", False),
        ("Al", False),
        ("Cy", True),
        ("Di", True),
    ]
    battle = next(e for e in answer["events"] if e["event"] == "BattleFought")
    assert len(battle["throws"][0]["attacker"]) == 13 and len(battle["throws"][0]["defender"]) == 13
    with pytest.raises(ValueError, match="lead no living country"):
        resolve_request(TALOSSA, {**request, "orders": {"Zed": "R: Downer, 1"}})
