"""The standard map as data: the counts every Diplomacy player knows, and edges that go both ways."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.diplomacy import STANDARD, Map, find_variant

MAP: Map = STANDARD.map


def test_provinces_by_kind() -> None:
    assert len(MAP.provinces) == 75
    assert Counter(p.kind for p in MAP.provinces.values()) == {"land": 14, "coast": 42, "sea": 19}


def test_supply_centres_and_homes() -> None:
    centres = [p for p in MAP.provinces.values() if p.supply_center]
    assert len(centres) == 34
    homes = Counter(p.home_of for p in centres if p.home_of)
    assert sum(homes.values()) == 22
    assert homes == {
        "Austria": 3,
        "England": 3,
        "France": 3,
        "Germany": 3,
        "Italy": 3,
        "Russia": 4,
        "Turkey": 3,
    }


def test_edge_counts_match_the_published_map() -> None:
    # Both directions are stored; the map counts each border once.
    assert len(MAP.army_edges) // 2 == 111
    assert len(MAP.fleet_edges) // 2 == 141


@pytest.mark.parametrize("edges", ["army_edges", "fleet_edges"])
def test_edges_are_symmetric_and_between_real_places(edges: str) -> None:
    pairs = getattr(MAP, edges)
    for a, b in pairs:
        assert (b, a) in pairs
        assert MAP.is_location(a) and MAP.is_location(b)


def test_armies_stay_on_land_and_fleets_on_water() -> None:
    for a, b in MAP.army_edges:
        assert MAP.can_hold("A", a) and MAP.can_hold("A", b)
    for a, b in MAP.fleet_edges:
        assert MAP.can_hold("F", a) and MAP.can_hold("F", b)


def test_split_coasts() -> None:
    split = {key: p.coasts for key, p in MAP.provinces.items() if p.coasts}
    assert split == {"bul": ("ec", "sc"), "spa": ("nc", "sc"), "stp": ("nc", "sc")}
    assert MAP.fleet_destinations("mao", "spa") == ("spa/nc", "spa/sc")
    assert MAP.fleet_destinations("gas", "spa") == ("spa/nc",)


def test_starting_position() -> None:
    start = find_variant("Standard").start()
    assert str(start.phase) == "Spring 1901 movement"
    assert len(start.units) == 22
    assert len({u.province for u in start.units}) == 22
    assert all(MAP.can_hold(u.type, u.location) for u in start.units)
    assert sum(len(scs) for scs in start.supply_centers.values()) == 22
    assert start.units_of("Russia") and len(start.units_of("Russia")) == 4


def test_unknown_variant() -> None:
    with pytest.raises(KeyError):
        find_variant("chaos")
