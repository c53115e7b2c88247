"""The maps mailed after each turn: well-formed SVG of the 61 hexes, fogged hexes grey with names
only, a title per nation and turn, the nation's battles and score under the map; in court mode the
map goes only to the courtier chosen to receive it; the organiser and the final report see it all."""

from __future__ import annotations

import dataclasses
import random
import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from courier.mail.pictures import render_png
from engine.core import Illustrated, Submission
from engine.monarchs import HEXES, MONARCHS, NATIONS, MonarchsState, Position
from engine.monarchs._svg import FOG
from tests.helpers.monarchs import random_orders
from tests.helpers.monarchs_court import PLAYERS, ROLES

SVG = "{http://www.w3.org/2000/svg}"
BOARD = {"Rex": "red", "Gil": "green", "Bly": "blue"}
ORDERS = {"Rex": "3 H6 I5\nboost I5\n2 E3 F2", "Gil": "3 K5 I5", "Bly": "2 F2 E3"}


def first_turn() -> MonarchsState:
    state = MONARCHS.setup(list(BOARD), {"roles": BOARD, "turns": 3}, random.Random(1))
    subs = {p: MONARCHS.parse(state, p, text) for p, text in ORDERS.items()}
    after: MonarchsState = MONARCHS.resolve(state, subs, random.Random(5)).state
    return after


def hexes_of(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {g.attrib["id"]: g for g in root.iter(f"{SVG}g") if "id" in g.attrib}


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def test_a_nation_map_shows_its_hexes_the_fog_and_its_turn() -> None:
    assert isinstance(MONARCHS, Illustrated)
    state = first_turn()
    (picture,) = MONARCHS.pictures(state, "Rex")
    assert picture.title == "Turn 1, Red" and picture.name == "map-turn-1-red"
    groups = hexes_of(picture.svg)
    assert list(groups) == list(HEXES) and len(groups) == 61
    seen = set(state.position.visible_to("red"))
    for name, group in groups.items():
        polygon = group.find(f"{SVG}polygon")
        assert polygon is not None
        if name in seen:
            army = state.position.armies.get(name)
            assert texts(group) == [name, *([str(army[1])] if army else [])]
        else:
            assert texts(group) == [name] and polygon.attrib["fill"] == FOG
    lines = texts(ET.fromstring(picture.svg))
    assert lines[0] == "Turn 1, Red"
    assert "Red won the battles at I5, E3 and lost the battle at E3–F2." in lines
    assert "Red scored 25 this turn, 25 in all." in lines


def test_the_organiser_sees_everything_and_the_start_is_drawn_for_the_welcome() -> None:
    state = first_turn()
    (picture,) = MONARCHS.pictures(state, None)
    assert picture.title == "Turn 1, all nations"
    groups = hexes_of(picture.svg)
    assert all(g.attrib["class"] == "seen" for g in groups.values())
    assert texts(groups["M1"]) == ["M1", "6"]
    lines = texts(ET.fromstring(picture.svg))
    assert "Blue won the battle at E3–F2 and lost the battle at E3." in lines
    assert "Green won no battle and lost the battle at I5." in lines
    start = MONARCHS.setup(list(BOARD), {"roles": BOARD}, random.Random(1))
    (welcome,) = MONARCHS.pictures(start, "Rex")  # issue 29/30: the welcome carries the start
    assert welcome.title == "The start, Red" and welcome.name == "map-start-red"
    assert texts(hexes_of(welcome.svg)["A5"]) == ["A5", "5"] and texts(hexes_of(welcome.svg)["M1"]) == ["M1"]
    assert [p.title for p in MONARCHS.pictures(start, None)] == ["The start, all nations"]
    assert MONARCHS.pictures(state, "a stranger") == [] and MONARCHS.pictures(start, "a stranger") == []


def test_the_map_renders_to_png() -> None:
    (picture,) = MONARCHS.pictures(first_turn(), "Gil")
    png = render_png(picture.svg)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000


def _hide_differently(position: Position, nation: str) -> Position:
    """The same map with every hex ``nation`` may not see changed: other owners and counts."""
    seen = set(position.visible_to(nation))
    others = [n for n in NATIONS if n != nation]
    owners = {h: (o if h in seen else others[HEXES.index(h) % 2]) for h, o in position.owners.items()}
    armies = {h: a for h, a in position.armies.items() if h in seen}
    for h in HEXES:
        owner = owners[h]
        if h not in seen and owner is not None:
            armies[h] = (owner, 7)
    return Position(owners, armies)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_no_map_carries_a_count_its_nation_may_not_see(seed: int) -> None:
    rng = random.Random(seed)
    state = MONARCHS.setup(list(BOARD), {"roles": BOARD, "turns": 3}, rng)
    while not state.finished:
        subs = {p: Submission(p, random_orders(state.position, n, rng).lines()) for p, n in BOARD.items()}
        state = MONARCHS.resolve(state, subs, rng).state
        if state.finished:
            break
        for player, nation in BOARD.items():
            (picture,) = MONARCHS.pictures(state, player)
            seen = set(state.position.visible_to(nation))
            for name, group in hexes_of(picture.svg).items():
                assert (group.attrib["class"] == "seen") == (name in seen)
                if name not in seen:
                    assert texts(group) == [name]
            # The SVG text does not depend on anything hidden: change it all, get the same bytes.
            hidden = dataclasses.replace(state, position=_hide_differently(state.position, nation))
            assert MONARCHS.pictures(hidden, player) == [picture]


def test_the_final_report_shows_everybody_the_whole_map() -> None:
    state = MONARCHS.setup(list(BOARD), {"roles": BOARD, "turns": 1}, random.Random(2))
    state = MONARCHS.resolve(state, {p: Submission(p) for p in BOARD}, random.Random(3)).state
    assert state.finished
    for viewer in (*BOARD, None):
        (picture,) = MONARCHS.pictures(state, viewer)
        assert picture.title == "Turn 1, the final map"
        assert all(g.attrib["class"] == "seen" for g in hexes_of(picture.svg).values())
        assert "Red scored 40 this turn (doubled: the last turn), 40 in all." in texts(
            ET.fromstring(picture.svg)
        )


def test_in_court_mode_only_the_chosen_courtier_gets_the_map() -> None:
    state = MONARCHS.setup(PLAYERS, {"mode": "court", "turns": 2, "roles": ROLES}, random.Random("court"))
    # The welcome: each its nation's starting map; R5, Blue's spy at Red's court, sees Red's.
    titles = [MONARCHS.pictures(state, p)[0].title for p in ("R5", "Bly")]
    assert titles == ["The start, Red", "The start, Blue"]
    delivery = MONARCHS.parse(state, "R1", "3 H6 I5\nmap to R2")
    state, _ = MONARCHS.immediate(state, delivery)
    state = MONARCHS.resolve(state, {"R1": delivery}, random.Random(1)).state
    court = state.court
    assert court is not None and court.map_holder["red"] == "R2"
    holders = {court.map_holder[n]: n for n in NATIONS}
    for player in PLAYERS:
        drawn = MONARCHS.pictures(state, player)
        if player in holders:
            (picture,) = drawn
            nation = holders[player]
            assert picture.title == f"Turn 1, {nation.title()}"
            seen = set(state.position.visible_to(nation))
            assert {n for n, g in hexes_of(picture.svg).items() if g.attrib["class"] == "seen"} == seen
        else:
            assert drawn == [], player  # the monarchs and every other courtier: no picture
    assert len(MONARCHS.pictures(state, None)) == 1
    # The last turn's orders wait for the guesses: no turn was played, so no new map.
    last = MONARCHS.resolve(state, {}, random.Random(2)).state
    assert all(MONARCHS.pictures(last, p) == [] for p in (*PLAYERS, None))


# --- the round on the map (issue 30): moves, the boost, battles; each viewer only its own orders ---


def marks(svg: str) -> tuple[set[tuple[str, str, str]], set[tuple[str, str]], dict[str, str]]:
    """(moves as (nation, origin-target, regiments), boosts as (nation, hex), battles place → winner)."""
    root = ET.fromstring(svg)
    found = [e.attrib for e in root.iter() if "class" in e.attrib]
    moves = {(a["data-nation"], a["data-move"], a["data-regiments"]) for a in found if a["class"] == "move"}
    boosts = {(a["data-nation"], a["data-hex"]) for a in found if a["class"] == "boost"}
    battles = {a["data-place"]: a["data-winner"] for a in found if a["class"] == "battle"}
    return moves, boosts, battles


def test_a_nations_map_shows_its_moves_its_boost_and_the_battles_it_fought() -> None:
    state = first_turn()  # Red 3 H6 I5, boost I5, 2 E3 F2; Green 3 K5 I5; Blue 2 F2 E3
    moves, boosts, battles = marks(MONARCHS.pictures(state, "Rex")[0].svg)
    assert moves == {("red", "H6-I5", "3"), ("red", "E3-F2", "2")}
    assert boosts == {("red", "I5")}
    assert battles == {"I5": "red", "E3": "red", "E3–F2": "blue"}  # each in its winner's colour
    moves, boosts, battles = marks(MONARCHS.pictures(state, "Gil")[0].svg)
    assert moves == {("green", "K5-I5", "3")} and boosts == set()  # not Red's orders
    assert battles == {"I5": "red"}  # lost to Red, as Green was told
    svg = MONARCHS.pictures(state, "Rex")[0].svg
    assert "a move; the badge: regiments sent" in svg and "the boosted hex" in svg  # the key


def test_the_organiser_sees_every_move_and_battle_and_the_final_map_keeps_orders_private() -> None:
    moves, boosts, battles = marks(MONARCHS.pictures(first_turn(), None)[0].svg)
    assert {m[1] for m in moves} == {"H6-I5", "E3-F2", "K5-I5", "F2-E3"} and boosts == {("red", "I5")}
    assert battles == {"I5": "red", "E3": "red", "E3–F2": "blue"}
    state = MONARCHS.setup(list(BOARD), {"roles": BOARD, "turns": 1}, random.Random(1))
    subs = {p: MONARCHS.parse(state, p, text) for p, text in ORDERS.items()}
    final = MONARCHS.resolve(state, subs, random.Random(5)).state
    assert final.finished
    moves, boosts, battles = marks(MONARCHS.pictures(final, "Gil")[0].svg)
    assert moves == {("green", "K5-I5", "3")} and boosts == set() and "I5" in battles


def test_a_start_map_has_no_marks_and_no_key() -> None:
    start = MONARCHS.setup(list(BOARD), {"roles": BOARD}, random.Random(1))
    svg = MONARCHS.pictures(start, "Rex")[0].svg
    assert marks(svg) == (set(), set(), {}) and "boosted hex" not in svg


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_no_map_carries_another_nations_orders(seed: int) -> None:
    """Change every other nation's moves and boost: a nation's map is the same bytes."""
    rng = random.Random(seed)
    state = MONARCHS.setup(list(BOARD), {"roles": BOARD, "turns": 3}, rng)
    subs = {p: Submission(p, random_orders(state.position, n, rng).lines()) for p, n in BOARD.items()}
    state = MONARCHS.resolve(state, subs, rng).state
    for player, nation in BOARD.items():
        recap = {
            n: r if n == nation else dataclasses.replace(r, moves=(("A5", "C5", 9),), boost="Q5")
            for n, r in state.recap.items()
        }
        changed = dataclasses.replace(state, recap=recap)
        assert MONARCHS.pictures(changed, player) == MONARCHS.pictures(state, player)


def test_in_court_mode_the_map_holder_sees_the_battles_but_not_the_orders() -> None:
    """The courtier receiving Red's map may be a spy: the monarch's moves and boost stay with the
    carrier, the map shows only what the holder is told (the battles)."""
    state = MONARCHS.setup(PLAYERS, {"mode": "court", "turns": 2, "roles": ROLES}, random.Random("court"))
    handing = MONARCHS.parse(state, "Rex", "carrier R1\nmap to R2\nhand 3 H6 I5\nhand boost I5")
    state, _ = MONARCHS.immediate(state, handing)
    delivery = MONARCHS.parse(state, "R1", "3 H6 I5\nboost I5")
    state, _ = MONARCHS.immediate(state, delivery)
    state = MONARCHS.resolve(state, {"Rex": handing, "R1": delivery}, random.Random(1)).state
    assert state.recap["red"].moves == (("H6", "I5", 3),) and state.recap["red"].boost == "I5"
    (picture,) = MONARCHS.pictures(state, "R2")
    moves, boosts, _ = marks(picture.svg)
    assert moves == set() and boosts == set()
    moves, boosts, _ = marks(MONARCHS.pictures(state, None)[0].svg)
    assert ("red", "H6-I5", "3") in moves and ("red", "I5") in boosts  # the organiser's
