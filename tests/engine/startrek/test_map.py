"""The Star Trek map as the seed and map facts give it: 67 systems on three layers, 90 lanes and 23
vertical lanes, 48 supply centres (33 home, 15 neutral), seven factions with one ship per home."""

from __future__ import annotations

from collections import Counter

from engine.diplomacy import find_variant
from engine.diplomacy.maps.startrek import STARTREK as DATA
from engine.startrek import FACTIONS, MAP, SOLO_CENTRES, VARIANT


def test_systems_per_layer() -> None:
    assert len(MAP.provinces) == 67
    layers = Counter(p.layer for p in MAP.provinces.values())
    assert layers == {3: 10, 2: 49, 1: 8}


def test_lanes_and_vertical_lanes() -> None:
    assert len(DATA["lanes"]) == 90 and len(DATA["vertical_lanes"]) == 23
    undirected = {frozenset(edge) for edge in MAP.fleet_edges}
    assert len(undirected) == 113
    for a, b in DATA["vertical_lanes"]:
        assert MAP.provinces[a].layer != MAP.provinces[b].layer
    for a, b in DATA["lanes"]:
        assert MAP.provinces[a].layer == MAP.provinces[b].layer


def test_troops_move_only_in_the_core() -> None:
    for a, b in MAP.army_edges:
        assert MAP.provinces[a].layer == MAP.provinces[b].layer == 2
    assert all(p.kind == ("coast" if p.layer == 2 else "sea") for p in MAP.provinces.values())


def test_supply_centres() -> None:
    centres = [p for p in MAP.provinces.values() if p.supply_center]
    assert len(centres) == 48 and all(p.layer == 2 for p in centres)
    assert sum(1 for p in centres if p.home_of) == 33
    assert sum(1 for p in centres if not p.home_of) == 15


def test_factions_start_with_a_ship_on_every_home_system() -> None:
    assert VARIANT is find_variant("startrek")
    assert set(VARIANT.powers) == set(FACTIONS) and len(FACTIONS) == 7
    start = VARIANT.start()
    assert str(start.phase) == "Spring 2370 movement"
    assert len(start.units) == 33 and all(u.type == "F" for u in start.units)
    for unit in start.units:
        assert MAP.provinces[unit.province].home_of == unit.power
    assert SOLO_CENTRES == {
        "Federation": 10,
        "Klingon": 12,
        "Romulan": 8,
        "Cardassian": 14,
        "Ferengi": 9,
        "Breen": 18,
        "Gorn": 9,
    }
