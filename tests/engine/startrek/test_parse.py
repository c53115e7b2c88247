"""Star Trek orders by mail: systems by key or full name, units as ship/troop, S/T or F/A, ability
and alliance lines, errors that quote the player's line with a suggestion, and JSON round trips."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.request import resolve_request
from engine.startrek import MAP, STARTREK, read_ability, to_diplomacy
from tests.helpers.startrek import PLAYERS, board, play


def test_systems_by_key_or_full_name_and_units_in_any_spelling() -> None:
    state = board([("Federation", "F", "earth"), ("Federation", "A", "tellar"), ("Federation", "F", "rigel")])
    text = "S Earth - Deep Space 9\ntroop Tellar Prime - andoria\nF rigel S T tellar - andoria"
    submission = STARTREK.parse(state, "fed", text)
    assert submission.orders == (
        "ship earth - ds9",
        "troop tellar - andoria",
        "ship rigel S troop tellar - andoria",
    )
    assert (
        to_diplomacy("S wormhole terminus a S S vulcan - earth") == "F wormhole_terminus_a S F vulcan - earth"
    )


def test_canonical_lines_read_back_to_themselves() -> None:
    state = board([("Ferengi", "F", "hyperspace_alpha"), ("Ferengi", "A", "earth")], latinum=50)
    text = "ship hyperspace_alpha C troop earth - qonos\ntroop earth - qonos\nbuy bajor\nally with gorn"
    first = STARTREK.parse(state, "fer", text + "\nally openly with breen")
    assert len(first.orders) == 5
    assert STARTREK.parse(state, "fer", "\n".join(first.orders)).orders == first.orders


def test_errors_quote_the_line_and_suggest() -> None:
    state = board([("Federation", "F", "earth")])
    submission = STARTREK.parse(state, "fed", "ship earth - vulcn\nimmunity erth\nfreeze earth")
    lines = {e.line: e for e in submission.errors}
    assert lines["ship earth - vulcn"].suggestion == "ship earth - vulcan"
    assert lines["immunity erth"].suggestion == "immunity earth"
    assert "only the Breen" in lines["freeze earth"].reason


def test_ability_lines() -> None:
    assert str(read_ability("Tal Shiar Klingons")) == "tal shiar klingon"
    assert str(read_ability("sabotage klingon Qo'noS")) == "sabotage klingon qonos"
    assert str(read_ability("freeze Frozen Passage")) == "freeze frozen_passage"
    assert str(read_ability("Rage ON")) == "rage on"
    assert str(read_ability("Ally openly with Klingons")) == "ally openly with klingon"
    assert str(read_ability("break with the klingon")) == "break with klingon"
    assert read_ability("ship earth H") is None


def test_a_later_mail_replaces_only_what_it_orders() -> None:
    state = board([("Klingon", "F", "qonos"), ("Klingon", "F", "boreth")])
    first = STARTREK.parse(state, "kli", "ship qonos - organia\nship boreth H\nrage on")
    later = STARTREK.parse(state, "kli", "ship qonos H\nrage off")
    assert STARTREK.combine(first, later).orders == ("ship boreth H", "ship qonos H", "rage off")


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_random_openings_keep_units_and_round_trip(seed: int) -> None:
    """Every faction orders each ship to a random neighbour: no unit is duplicated or lost without
    a dislodgement, and the state reads back from its JSON."""
    rng = random.Random(seed)
    state = STARTREK.setup(list(PLAYERS), {"roles": PLAYERS, "intelligence_window": 0}, rng)
    orders = {}
    for faction in PLAYERS.values():
        lines = []
        for unit in state.position.units_of(faction):
            targets = sorted(b for a, b in STARTREK_MAP_EDGES if a == unit.province)
            lines.append(f"ship {unit.province} - {rng.choice(targets)}")
        orders[faction] = "\n".join(lines)
    done = play(state, orders, seed=seed)
    position = done.state.position
    provinces = [u.province for u in position.units]
    assert len(provinces) == len(set(provinces))
    assert len(position.units) + len(position.dislodged) == 33
    data = STARTREK.to_json(done.state)
    assert STARTREK.to_json(STARTREK.from_json(json.loads(json.dumps(data)))) == data


def test_resolve_json_answers_with_the_next_state() -> None:
    request = {"setup": {"players": list(PLAYERS), "options": {"roles": PLAYERS}}, "orders": {}, "seed": 1}
    answer = resolve_request(STARTREK, request)
    assert answer["phase"] == "Spring 2370 intelligence window"
    again = resolve_request(STARTREK, {"state": answer["state"], "orders": {"car": "ship cardassia - bajor"}})
    assert again["phase"] == "Fall 2370"


STARTREK_MAP_EDGES = sorted(MAP.fleet_edges)


def test_a_role_cell_naming_two_factions_is_refused() -> None:
    with pytest.raises(ValueError, match="names Klingon and Romulan: a player plays one"):
        STARTREK.setup(["Ann", "Bob"], {"roles": {"Ann": "Klingons / Romulans"}}, random.Random(1))
    state = STARTREK.setup(["Ann", "Bob"], {"roles": {"Ann": "Klingons"}}, random.Random(1))
    assert "Klingon" in STARTREK.to_json(state)["factions"].values()
