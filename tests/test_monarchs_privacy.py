"""Fog of war in the Game of Monarchs. A nation's mail carries regiment counts only for hexes it may
see (its own and their neighbours); battles reach only the nations that fought them; until the end,
nothing public carries counts. Proved twice: by the engine's events over random games, and through
the tick by playing twice with one nation's hidden moves changed."""

from __future__ import annotations

import random
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from engine.core import Event, Submission
from engine.monarchs import (
    MONARCHS,
    BorderBattleFought,
    GameEnded,
    HexBattleFought,
    HexTaken,
    MapShown,
    MonarchsState,
    TurnResolved,
    TurnScored,
)
from tests.test_monarchs_game import MONARCHS as PLAYERS
from tests.test_monarchs_game import at, table, write
from tests.test_monarchs_properties import random_orders

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
    else:
        assert isinstance(event, TurnScored) and nations == {event.nation}


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
