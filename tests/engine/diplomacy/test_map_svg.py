"""Known answers read from the map's SVG text (not its pixels): every province is a filled region,
a unit stands inside its own province's region (a fleet on a split coast at that coast), an arrow
runs from the ordering unit's region to its target, a dislodged unit is marked in its province,
supply centres are filled in their owner's colour, and Switzerland is drawn impassable."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Literal

import pytest

from courier.mail.pictures import render_png
from engine.core import play_phase
from engine.diplomacy import STANDARD, Phase, make_position
from engine.diplomacy._ruleset import DIPLOMACY, DiplomacyState
from engine.diplomacy._svg import COLOURS, _tint
from engine.diplomacy.maps.standard_regions import UNITS

SVG = "{http://www.w3.org/2000/svg}"
POWERS = {"Fran": "France", "Gerd": "Germany", "Ed": "England", "Tom": "Turkey"}
MAP = STANDARD.map
Played = tuple[DiplomacyState, ET.Element]


def autumn() -> DiplomacyState:
    """Fall 1901: France will dislodge the German army in Burgundy; a Turkish fleet on Bulgaria's
    east coast, a French fleet on Spain's south coast."""
    position = make_position(
        phase=Phase(1901, "fall", "movement"),
        units=[
            ("France", "A", "par"),
            ("France", "A", "mar"),
            ("France", "F", "spa/sc"),
            ("Germany", "A", "bur"),
            ("Germany", "F", "hol"),
            ("England", "F", "nth"),
            ("England", "A", "bel"),
            ("Turkey", "F", "bul/ec"),
        ],
        supply_centers={
            "France": ["par", "mar", "bre", "spa"],
            "Germany": ["ber", "kie", "mun"],
            "England": ["lon", "edi", "lvp", "bel"],
            "Turkey": ["con", "ank", "smy", "bul"],
        },
    )
    return DiplomacyState("standard", position, POWERS)


ORDERS = {"Fran": "A par - bur\nA mar S A par - bur", "Gerd": "F hol - bel", "Ed": "F nth S A bel"}


def board(state: DiplomacyState) -> ET.Element:
    (picture,) = DIPLOMACY.pictures(state, None)
    return ET.fromstring(picture.svg)


@pytest.fixture(scope="module")
def after_autumn() -> Played:
    state = play_phase(DIPLOMACY, autumn(), ORDERS, "seed").resolution.state
    return state, board(state)


def regions(svg: ET.Element) -> dict[str, ET.Element]:
    return {p.get("id", ""): p for p in svg.iter(f"{SVG}path") if "province" in (p.get("class") or "")}


def inside(path: ET.Element, x: float, y: float) -> bool:
    """Even-odd point in the path's polygons (the map draws ``M x,y x,y … Z`` subpaths)."""
    crossings = 0
    for sub in (path.get("d") or "").split("Z"):
        points = [tuple(map(float, pair.split(","))) for pair in sub.replace("M", " ").split()]
        for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1], strict=True):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                crossings += 1
    return crossings % 2 == 1


def unit_centres(svg: ET.Element, klass: str) -> dict[str, tuple[str, float, float]]:
    """province -> (power, x, y) of each unit glyph of this class (``unit`` or ``dislodged``)."""
    found = {}
    for g in svg.iter(f"{SVG}g"):
        if klass in (g.get("class") or "").split():
            circle = g.find(f"{SVG}circle")
            assert circle is not None
            found[g.get("data-province", "")] = (
                g.get("data-power", ""),
                float(circle.get("cx", 0)),
                float(circle.get("cy", 0)),
            )
    return found


def test_every_province_is_a_filled_region_and_switzerland_is_impassable() -> None:
    svg = board(autumn())
    drawn = regions(svg)
    assert set(drawn) == {*MAP.provinces, "swi"} and len(MAP.provinces) == 75
    assert all(p.get("fill") not in (None, "none") for p in drawn.values())
    assert {k for k, p in drawn.items() if "sea" in (p.get("class") or "").split()} == {
        k for k, p in MAP.provinces.items() if p.kind == "sea"
    }
    assert drawn["swi"].get("class") == "province impassable" and "swi" not in MAP.provinces
    assert not any(u[0] == "swi" for u in unit_centres(svg, "unit"))


def test_each_unit_stands_inside_its_provinces_region_and_a_fleet_at_its_coast(after_autumn: Played) -> None:
    state, svg = after_autumn
    drawn, units = regions(svg), unit_centres(svg, "unit")
    assert set(units) == {u.province for u in state.position.units}
    for province, (_power, x, y) in units.items():
        assert inside(drawn[province], x, y), province
    assert units["bur"][0] == "France" and "par" not in units  # the army moved in
    assert units["spa"][1:] == UNITS["spa/sc"] and units["bul"][1:] == UNITS["bul/ec"]
    assert UNITS["spa/sc"] != UNITS["spa/nc"] != UNITS["spa"]


def test_a_dislodged_unit_is_marked_in_its_province_apart_from_the_unit_that_took_its_place(
    after_autumn: Played,
) -> None:
    state, svg = after_autumn
    assert state.position.phase.kind == "retreat"
    (dislodged,) = unit_centres(svg, "dislodged").items()
    province, (power, x, y) = dislodged
    assert (province, power) == ("bur", "Germany") and inside(regions(svg)["bur"], x, y)
    mark = next(g for g in svg.iter(f"{SVG}g") if "dislodged" in (g.get("class") or ""))
    ring = mark.find(f"{SVG}circle")
    assert ring is not None and ring.get("stroke") == "#d00000"
    assert (x, y) != unit_centres(svg, "unit")["bur"][1:]


def arrows(svg: ET.Element) -> dict[str, ET.Element]:
    return {e.get("data-order", ""): e for e in svg.iter(f"{SVG}line") if e.get("data-order")}


def test_an_arrow_runs_from_the_units_region_towards_its_target(after_autumn: Played) -> None:
    _state, svg = after_autumn
    drawn, lines = regions(svg), arrows(svg)
    move = lines["A par - bur"]
    x1, y1, x2, y2 = (float(move.get(a, 0)) for a in ("x1", "y1", "x2", "y2"))
    assert inside(drawn["par"], x1, y1)
    tx, ty = UNITS["bur"]  # the arrow stops short of the unit standing there, aimed at it
    assert abs((x2 - x1) * (ty - y1) - (y2 - y1) * (tx - x1)) < 1.0 * ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
    assert (tx - x1) * (x2 - x1) + (ty - y1) * (y2 - y1) > 0 and ((tx - x2) ** 2 + (ty - y2) ** 2) ** 0.5 < 16
    assert (move.get("class"), move.get("data-result"), move.get("stroke-dasharray")) == (
        "order move",
        "succeeds",
        None,
    )
    failed = lines["F hol - bel"]
    assert (failed.get("data-result"), failed.get("stroke-dasharray")) == ("fails", "9 5")
    assert lines["A mar S A par - bur"].get("class") == "order support"


def test_a_retreat_is_drawn_as_an_arrow_and_the_unit_stands_where_it_went(after_autumn: Played) -> None:
    state, _svg = after_autumn
    after = play_phase(DIPLOMACY, state, {"Gerd": "A bur R mun"}, "seed").resolution.state
    svg = board(after)
    retreat = arrows(svg)["A bur R mun"]
    assert (retreat.get("class"), retreat.get("data-result")) == ("order move", "succeeds")
    assert inside(regions(svg)["bur"], float(retreat.get("x1", 0)), float(retreat.get("y1", 0)))
    assert unit_centres(svg, "unit")["mun"][0] == "Germany" and not unit_centres(svg, "dislodged")


def test_supply_centres_are_filled_in_their_owners_colour(after_autumn: Played) -> None:
    _state, svg = after_autumn
    drawn = regions(svg)
    for province, power in [("par", "France"), ("bel", "England"), ("bul", "Turkey"), ("ber", "Germany")]:
        assert drawn[province].get("data-owner") == power
        assert drawn[province].get("fill") == _tint(COLOURS[power], 0.45)
    dots = {c.get("data-owner") for c in svg.iter(f"{SVG}circle") if c.get("class") == "centre-dot"}
    assert {"France", "England", "Turkey", "Germany", ""} <= dots  # "" an unowned centre (white)
    assert drawn["hol"].get("data-owner") is None  # nobody owns Holland yet
    legend = [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "legend"]
    assert "France 4" in legend and "Turkey 4" in legend and "England 4" in legend


def test_a_crowded_board_stays_light_enough_for_mail() -> None:
    """34 units, every centre owned, an arrow per unit: the PNG the mail shows stays under 150 KB
    and is drawn 800 px wide (sharp at 400 px on a phone's 2x screen)."""
    rng = random.Random(4)
    provinces = sorted(MAP.provinces)
    rng.shuffle(provinces)
    powers = sorted(COLOURS)
    units: list[tuple[str, Literal["A", "F"], str]] = []
    for key in provinces[:34]:
        province = MAP.provinces[key]
        location = f"{key}/{province.coasts[0]}" if province.coasts else key
        units.append(
            (rng.choice(powers), "F" if province.kind == "sea" or province.coasts else "A", location)
        )
    centres: dict[str, list[str]] = {p: [] for p in powers}
    for key in sorted(k for k, p in MAP.provinces.items() if p.supply_center):
        centres[rng.choice(powers)].append(key)
    position = make_position(phase=Phase(1905, "spring", "movement"), units=units, supply_centers=centres)
    texts: dict[str, list[str]] = {}
    for power, kind, location in units:
        edges = MAP.fleet_edges if kind == "F" else MAP.army_edges
        near = sorted({b for a, b in edges if a == location} | {a for a, b in edges if b == location})
        texts.setdefault(power[:2], []).append(f"{kind} {location} - {rng.choice(near)}")
    state = DiplomacyState("standard", position, {p[:2]: p for p in powers})
    played = play_phase(
        DIPLOMACY, state, {k: "\n".join(v) for k, v in texts.items()}, "seed"
    ).resolution.state
    (picture,) = DIPLOMACY.pictures(played, None)
    assert picture.svg.count('class="order move"') == 34
    png = render_png(picture.svg)
    assert int.from_bytes(png[16:20], "big") == 800 and len(png) < 150_000
