"""Fog of war in the Game of Monarchs. A nation's mail carries regiment counts only for hexes it may
see (its own and their neighbours); battles reach only the nations that fought them; until the end,
nothing public carries counts. Proved twice: by the engine's events over random games, and through
the tick by playing twice with one nation's hidden moves changed. In court mode, likewise, no
courtier can tell which other courtier carried its nation's orders: two games differing only in
the carrier look the same to every courtier not involved."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from engine.core import Event, Submission, visible_to
from engine.monarchs import (
    MONARCHS,
    NATIONS,
    BorderBattleFought,
    CarrierReported,
    GameEnded,
    HexBattleFought,
    HexLost,
    HexTaken,
    MapShown,
    MonarchsState,
    TurnResolved,
    TurnScored,
)
from tests.conftest import Table, address, text_of, write
from tests.helpers.clock import at
from tests.helpers.monarchs import MONARCHS as PLAYERS
from tests.helpers.monarchs import random_orders, table
from tests.helpers.monarchs_court import CONFIG as COURT_CONFIG
from tests.helpers.monarchs_court import PLAYERS as PLAYERS_COURT
from tests.helpers.monarchs_court import ROLES as ROLES_COURT
from tests.helpers.privacy import Seen, everyone_asks_status, sheet_cells

COUNTED = re.compile(r"\b([A-Q][1-9]) (?:red|green|blue) \d+")


def _check_private(event: Event, after: MonarchsState) -> None:
    nations = {after.monarchs[p] for p in event.audience or ()}
    if isinstance(event, MapShown):
        assert nations == {event.nation}
        assert {h for h, _, _ in event.hexes} == set(after.position.visible_to(event.nation))
    elif isinstance(event, (BorderBattleFought, HexBattleFought)):
        assert nations == set(event.regiments)
    elif isinstance(event, HexTaken):
        assert nations == {event.nation, event.previous} - {None}
    else:  # a turn's score, or a hex lost in a battle the owner had no part in (issue 29)
        assert isinstance(event, (TurnScored, HexLost)) and nations == {event.nation}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_every_count_reaches_only_a_nation_that_may_see_it(seed: int) -> None:
    rng = random.Random(seed)
    state = MONARCHS.setup(list(PLAYERS), {"roles": PLAYERS, "turns": 4}, rng)
    while not state.finished:
        for player, nation in state.monarchs.items():
            form = MONARCHS.order_template(state, player)
            assert set(COUNTED.findall(form)) <= set(state.position.visible_to(nation))
        submissions = {
            p: Submission(p, random_orders(state.position, n, rng).lines()) for p, n in state.monarchs.items()
        }
        resolution = MONARCHS.resolve(state, submissions, rng)
        for event in resolution.events:
            if event.public:
                assert isinstance(event, (TurnResolved, GameEnded)) or (
                    isinstance(event, MapShown) and resolution.state.finished
                )
            else:
                _check_private(event, resolution.state)
        state = resolution.state


ONE = "1 A5 B4\nboost B4"
TWO = "3 A5 B6\n1 A5 C5\nboost C7"  # red's heartland: nobody else can see these hexes


def play(root: Path, red: str) -> tuple[list[object], dict[str, list[str]]]:
    t = table(root)
    t.tick(at(0, 8, 5))
    write(t, "Rhea", red)
    write(t, "Bea", "boost E3\n1 F2 E3\n2 G3 E3")
    write(t, "Gus", "3 K5 I5")
    t.tick(at(0, 20, 5))
    book = load_workbook(root / "truce-1.xlsx")
    cells: list[object] = [
        c for tab in ("Ledger", "History") for row in book[tab].iter_rows(values_only=True) for c in row
    ]
    mail = {n: [m.as_string() for m in t.sent(f"{n.lower()}@players.test")] for n in PLAYERS}
    return cells, mail


def test_hidden_moves_reach_only_their_nation(tmp_path: Path) -> None:
    cells_one, mail_one = play(tmp_path / "one", ONE)
    cells_two, mail_two = play(tmp_path / "two", TWO)
    assert cells_one == cells_two
    assert mail_one["Gus"] == mail_two["Gus"] and mail_one["Bea"] == mail_two["Bea"]
    assert mail_one["Rhea"] != mail_two["Rhea"]


# --- court mode: what a courtier may deduce -------------------------------------------------------

COURTIER = re.compile(r"\b[RGB][1-5]\b")


def _court_turn(
    state: MonarchsState, carriers: dict[str, str], maps: dict[str, str], texts: dict[str, str]
) -> Any:
    """One court turn as the shell plays it: each monarch's choice, then its carrier's mail."""
    submissions = {}
    for nation, carrier in carriers.items():
        monarch = state.monarch_of(nation)
        submissions[monarch] = MONARCHS.parse(state, monarch, f"carrier {carrier}\nmap to {maps[nation]}")
        state, _ = MONARCHS.immediate(state, submissions[monarch])
        submissions[carrier] = MONARCHS.parse(state, carrier, texts[nation])
    return state, MONARCHS.resolve(state, submissions, random.Random(7))


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_who_carried_cannot_be_deduced_by_any_other_courtier(seed: int) -> None:
    """Two games that differ only in which courtier carries each nation's (same) orders look alike
    to every other courtier: its forms, its refusals and every event it sees."""
    rng = random.Random(seed)
    state = MONARCHS.setup(PLAYERS_COURT, {"mode": "court", "turns": 3, "roles": ROLES_COURT}, rng)
    assert state.court is not None
    while MONARCHS.phase(state).kind == "orders":
        court = state.court
        assert court is not None
        carriers, others, maps = {}, {}, {}
        for nation in NATIONS:
            eligible = court.eligible(nation)
            maps[nation] = rng.choice(eligible)
            carriers[nation], others[nation] = rng.sample(eligible, 2)
        texts = {n: "\n".join(random_orders(state.position, n, rng).lines()) or "hold" for n in NATIONS}
        before_a, one = _court_turn(state, carriers, maps, texts)
        before_b, two = _court_turn(state, others, maps, texts)
        involved = set(carriers.values()) | set(others.values())
        for event in one.events:
            if isinstance(event, CarrierReported):  # whether it delivered: only its monarch hears
                assert event.audience == frozenset({state.monarch_of(event.nation)})
        for c in court.courtiers:
            form = MONARCHS.order_template(one.state, c.name)
            prose = [line for line in form.splitlines() if not line.startswith("#   ")]  # not the map
            assert set(COURTIER.findall("\n".join(prose))) <= {c.name}, form  # nobody else is named
            if c.name in involved:
                continue
            assert MONARCHS.parse(before_a, c.name, texts[c.serves]) == MONARCHS.parse(
                before_b, c.name, texts[c.serves]
            )
            assert MONARCHS.order_template(before_a, c.name) == MONARCHS.order_template(before_b, c.name)
            assert visible_to(one.events, c.name) == visible_to(two.events, c.name)
            assert form == MONARCHS.order_template(two.state, c.name)
        state = one.state


def play_court(root: Path, carrier: str = "R1", *, blue_delivers: bool = True) -> Seen:
    """A court turn through the tick: every player asks `status` once the monarchs have named their
    carriers and again once the carriers have written, then reads the results and the sheet."""
    rows = [{"name": p, "email": address(p), "role": ROLES_COURT[p]} for p in PLAYERS_COURT]
    t = Table(root, COURT_CONFIG, rows)
    t.tick(at(0, 8, 5))
    t.mail(address("R5"), "3 H6 I5")  # the spy tries first, as in every game
    t.mail(address("Rex"), f"carrier {carrier}\nmap to R2")
    t.mail(address("Bly"), "carrier B2\nmap to B3")
    t.tick(at(0, 9))
    everyone_asks_status(t, PLAYERS_COURT, at(0, 9, 30))
    t.mail(address("R5"), "3 H6 I5")
    t.mail(address(carrier), "3 H6 I5\nboost I5")
    if blue_delivers:
        t.mail(address("B2"), "hold")  # moves nothing: only whether it delivered differs
    t.tick(at(0, 10))
    everyone_asks_status(t, PLAYERS_COURT, at(0, 11))
    t.tick(at(0, 20, 5))
    return sheet_cells(t), {n: [text_of(m) for m in t.sent(address(n))] for n in PLAYERS_COURT}


def test_a_courtier_cannot_tell_who_carried_through_the_tick(tmp_path: Path) -> None:
    """Mail, `status` answers and the sheet are alike for everyone but the monarch and the two
    courtiers it might have named (issue 29: `status` listed the carrier as not written yet)."""
    (cells_one, one), (cells_two, two) = play_court(tmp_path / "1", "R1"), play_court(tmp_path / "2", "R3")
    assert cells_one == cells_two
    for name in PLAYERS_COURT:
        if name not in ("Rex", "R1", "R3"):
            assert one[name] == two[name], name
    assert one["R1"] != two["R1"] and one["Rex"] != two["Rex"]
    assert "you are not carrying Red's orders this turn" in one["R5"][1]
    first_status = {n: next(m for m in one[n] if "Not written yet" in m) for n in ("Rex", "R5")}
    assert "Not written yet, of those this game lets you know about: R1." in first_status["Rex"]
    assert "Not written yet, of those this game lets you know about: nobody." in first_status["R5"]


def test_only_the_monarch_learns_whether_its_carrier_delivered(tmp_path: Path) -> None:
    """Blue's carrier delivers `hold` or nothing: only Bly (told privately) and B2 can tell, not the
    public results ("orders came from …"), the Ledger's "Orders last turn", nor anyone's `status`
    (issue 29)."""
    (cells_one, one), (cells_two, two) = (
        play_court(tmp_path / "one", blue_delivers=True),
        play_court(tmp_path / "two", blue_delivers=False),
    )
    assert cells_one == cells_two
    for name in PLAYERS_COURT:
        if name not in ("Bly", "B2"):
            assert one[name] == two[name], name
    assert "Your carrier B2 delivered Blue's orders for turn 1." in one["Bly"][-1]
    assert "Your carrier B2 delivered no orders for turn 1" in two["Bly"][-1]
    assert "Turn 1 of 2 was resolved." in one["G3"][-1] and "orders came from" not in one["G3"][-1]
