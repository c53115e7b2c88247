"""The fog of war in Star Trek reports: a player reads an order, a reason or a Gorn survivor's new
place only when they see every system it names; what they may see of a line comes without the rest."""

from __future__ import annotations

from engine.startrek._events import GornRolled, OrderResolved
from tests.helpers.startrek import PLAYER_OF, board, gorn_seed, named, play


def test_a_bounce_names_its_cause_only_to_those_who_see_it() -> None:
    units = [("Federation", "F", "andoria"), ("Klingon", "F", "tygokor")]
    state = board(units, {"Romulan": ["archanis"]}, fog=True)  # the Romulan see archanis and around
    done = play(state, {"Federation": "ship andoria - archanis", "Klingon": "ship tygokor - archanis"})
    told = {(e.faction, p): e.reason for e in named(done.events, OrderResolved) for p in e.audience or ()}
    fed, kli, rom = PLAYER_OF["Federation"], PLAYER_OF["Klingon"], PLAYER_OF["Romulan"]
    assert told[("Federation", fed)] == "bounced"  # tygokor is out of the Federation's sight
    assert told[("Klingon", kli)] == "bounced"  # and andoria out of the Klingon's
    assert told[("Federation", rom)] == "bounced (tygokor)"
    assert told[("Klingon", rom)] == "bounced (andoria)"
    assert ("Federation", kli) not in told and ("Klingon", fed) not in told


def test_a_gorn_survivors_new_place_is_told_only_to_those_who_see_it() -> None:
    units = [
        ("Gorn", "F", "cestus"),
        ("Klingon", "F", "kelvas"),
        ("Cardassian", "F", "gornar"),
        ("Romulan", "F", "seudath"),
    ]
    orders = {"Klingon": "ship kelvas - cestus", "Cardassian": "ship gornar S ship kelvas - cestus"}
    done = play(board(units, fog=True), orders, seed=gorn_seed(True))
    told = {p: e.place for e in named(done.events, GornRolled) for p in e.audience or ()}
    assert told[PLAYER_OF["Gorn"]] == "ssgaron"
    assert told[PLAYER_OF["Cardassian"]] == "ssgaron"  # gornar is next to ssgaron
    assert told[PLAYER_OF["Klingon"]] is None  # sees cestus, not ssgaron: "the ship cestus survives"
    assert PLAYER_OF["Federation"] not in told
