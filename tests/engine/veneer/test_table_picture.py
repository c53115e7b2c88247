"""The Veneer table picture (issue 30): every seat with its faction, coins and troops, alliances as
lines between seats, the laws in force, whose turn; only what the Ledger shows everybody."""

from __future__ import annotations

import dataclasses
import random
import xml.etree.ElementTree as ET

from engine.veneer import VENEER, VeneerState

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ["Agatha", "Barney", "Charles", "Darcy", "Emmett Rowe"]


def played(turns: int = 2) -> VeneerState:
    state = VENEER.setup(NAMES, {}, random.Random(3))
    for step in range(80):
        subs = {p: VENEER.default(state, p, random.Random(step)) for p in sorted(VENEER.awaiting(state))}
        state = VENEER.resolve(state, subs, random.Random(step)).state
        if state.turn >= turns:
            break
    return dataclasses.replace(state, alliances=(("Agatha", "Charles"),), laws=("Conscription Act",))


def table(state: VeneerState, viewer: str = "Agatha") -> ET.Element:
    [svg] = [p.svg for p in VENEER.pictures(state, viewer) if p.name.startswith("table-")]
    return ET.fromstring(svg)


def test_the_table_shows_each_seat_its_faction_coins_and_the_law_in_force() -> None:
    state = played()
    root = table(state)
    seats = {str(g.get("data-player")): g for g in root.iter(f"{SVG}g") if g.get("class") == "seat"}
    assert list(seats) == NAMES
    for name, group in seats.items():
        seat = state.seat(name)
        words = [t.text for t in group.iter(f"{SVG}text")]
        assert group.get("data-coins") == str(seat.coins) and f"{seat.coins} coins" in words
        assert seat.faction and seat.faction in words
    laws = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "law"]
    assert laws == ["Conscription Act"]
    [alliance] = [e.get("data-between") for e in root.iter(f"{SVG}line") if e.get("class") == "alliance"]
    assert alliance == "Agatha | Charles"
    [ringed] = [
        g.get("data-player") for g in seats.values() if 'stroke="#d93025"' in ET.tostring(g, "unicode")
    ]
    assert ringed == state.active


def test_the_table_is_the_same_for_everybody_and_carries_nothing_private() -> None:
    state = played()
    pictures = VENEER.pictures(state, "Agatha")
    assert all(VENEER.pictures(state, n) == pictures for n in NAMES)
    private = dataclasses.replace(
        state, seats=tuple(dataclasses.replace(s, targets=(), dealt=(), hand=()) for s in state.seats)
    )
    assert VENEER.pictures(private, "Barney") == pictures  # targets, dealt factions, hands: not drawn
    assert VENEER.pictures(state, None) == []  # the organiser has the Ledger


def test_the_first_turn_has_a_table_before_there_is_a_chart() -> None:
    state = VENEER.setup(NAMES, {}, random.Random(3))
    assert VENEER.pictures(state, "Agatha") == []  # factions not chosen yet
    while state.stage == "setup":
        subs = {p: VENEER.default(state, p, random.Random(1)) for p in sorted(VENEER.awaiting(state))}
        state = VENEER.resolve(state, subs, random.Random(1)).state
    assert [p.name.split("-")[0] for p in VENEER.pictures(state, "Agatha")] == ["table"]
