"""The Star Trek map picture: well-formed SVG with every system on its layer's band, units in
faction colours, and under the fog of war nothing of what the viewer may not see."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

from courier.mail.pictures import render_png
from engine.diplomacy import DislodgedUnit, Unit
from engine.diplomacy.maps.startrek import STARTREK as DATA
from engine.startrek import MAP, STARTREK, StarTrekState, visible_systems
from engine.startrek._factions import COLOURS, FACTIONS
from engine.startrek._svg import _tint, band_tops

SVG = "{http://www.w3.org/2000/svg}"
ROLES = {"Fay": "Federation", "Kor": "Klingon", "Rom": "Romulan", "Fez": "Ferengi"}


def game(*, fog: bool) -> StarTrekState:
    """The opening, then a Klingon troop in organia (owned), a Romulan ship in qonos and the
    Klingon ship it pushed out waiting to retreat."""
    state = STARTREK.setup(list(ROLES), {"roles": ROLES, "fog_of_war": fog}, random.Random(1))
    position = state.position
    kept = [u for u in position.units if u.province != "qonos"]
    units = (*kept, Unit("Klingon", "A", "organia"), Unit("Romulan", "F", "qonos"))
    centres = {**position.supply_centers, "Klingon": position.centres_of("Klingon") | {"organia"}}
    position = replace(
        position,
        units=units,
        supply_centers=centres,
        dislodged=(DislodgedUnit(Unit("Klingon", "F", "qonos"), "narendra"),),
    )
    return replace(state, position=position)


def systems(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {g.attrib["id"]: g for g in root.iter(f"{SVG}g")}


def unit_glyphs(group: ET.Element) -> list[ET.Element]:
    return [e for e in group.iter() if "unit" in e.attrib.get("class", "").split()]


def test_the_organisers_map_has_every_system_unit_and_title() -> None:
    state = game(fog=True)
    [picture] = STARTREK.pictures(state, None)
    assert picture.title == "Spring 2370, all factions"
    drawn = systems(picture.svg)
    assert len(drawn) == 67 == len(MAP.provinces)
    assert all(g.attrib["class"] == "seen" for g in drawn.values())
    glyphs = {key: unit_glyphs(g) for key, g in drawn.items()}
    assert sum(map(len, glyphs.values())) == len(state.position.units) + 1  # and the dislodged ship
    [troop] = glyphs["organia"]
    assert "troop" in troop.attrib["class"] and troop.attrib["fill"] == COLOURS["Klingon"]
    assert [g.attrib["data-faction"] for g in glyphs["qonos"]] == ["Romulan", "Klingon"]
    assert "Spring 2370, all factions" in picture.svg and "Klingon 6" in picture.svg  # title, legend


def test_a_players_map_is_titled_with_their_faction_and_unknown_viewers_get_none() -> None:
    state = game(fog=False)
    [picture] = STARTREK.pictures(state, "Kor")
    assert picture.title == "Spring 2370, Klingon" and picture.name == "map-S2370M-klingon"
    assert all(g.attrib["class"] == "seen" for g in systems(picture.svg).values())  # no fog option
    assert STARTREK.pictures(state, "Nobody") == []


def test_fog_of_war_map_shows_nothing_out_of_sight() -> None:
    state = game(fog=True)
    faction_paint = {c for f in FACTIONS for c in (COLOURS[f], _tint(COLOURS[f]))}
    for player, faction in ROLES.items():
        seen = visible_systems(state.position, faction)
        [picture] = STARTREK.pictures(state, player)
        drawn = systems(picture.svg)
        hidden = {key for key, g in drawn.items() if g.attrib["class"] == "fog"}
        assert hidden == set(MAP.provinces) - seen
        assert any(state.position.unit_in(key) for key in hidden)  # there is something to hide
        for key in hidden:
            group = drawn[key]
            assert unit_glyphs(group) == [], f"{faction} sees a unit in {key}"
            paint = {e.attrib.get(a) for e in group.iter() for a in ("fill", "stroke")}
            assert not paint & faction_paint, f"{faction} sees who holds {key}"
    romulan = systems(STARTREK.pictures(state, "Rom")[0].svg)
    assert unit_glyphs(romulan["qonos"])  # its own ship is in sight


def test_the_map_renders_to_a_png(tmp_path: Path) -> None:
    [picture] = STARTREK.pictures(game(fog=True), "Kor")
    png = render_png(picture.svg)
    assert png.startswith(b"\x89PNG")
    (tmp_path / f"{picture.name}.png").write_bytes(png)


def _box(text: ET.Element) -> tuple[float, float, float, float]:
    """A text's extent, with DejaVu Sans' average advance (0.6 em) for its width."""
    x, y, size = (float(text.attrib[k]) for k in ("x", "y", "font-size"))
    width = len(text.text or "") * 0.6 * size
    left = {"middle": x - width / 2, "end": x - width}.get(text.attrib.get("text-anchor", ""), x)
    return left, y - 0.8 * size, left + width, y + 0.25 * size


def _disc(circle: ET.Element) -> tuple[float, float, float, float]:
    x, y, r = (float(circle.attrib[k]) for k in ("cx", "cy", "r"))
    return x - r, y - r, x + r, y + r


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_no_label_runs_into_another_or_into_a_system() -> None:
    root = ET.fromstring(STARTREK.pictures(game(fog=False), None)[0].svg)
    kinds = ("name", "vertical-lane", "band-title")
    labels = [(t.text, _box(t)) for t in root.iter(f"{SVG}text") if t.attrib.get("class") in kinds]
    discs = [_disc(c) for c in root.iter(f"{SVG}circle") if c.attrib.get("class") in ("system", "centre")]
    clashes = [
        (a, b) for i, (a, box) in enumerate(labels) for b, other in labels[i + 1 :] if _overlap(box, other)
    ]
    clashes += [(a, "a system") for a, box in labels for disc in discs if _overlap(box, disc)]
    assert clashes == []
    names = {t.text: t for t in root.iter(f"{SVG}text") if t.attrib.get("class") == "name"}
    assert names["frozen_passage"].attrib["text-anchor"] == "end"  # left of it, clear of clarus


def test_vertical_lanes_cross_no_band_but_both_ends_say_where_they_lead() -> None:
    svg = STARTREK.pictures(game(fog=False), None)[0].svg
    tops = band_tops()
    core = (tops[2], tops[1])
    for line in ET.fromstring(svg).iter(f"{SVG}line"):
        ends = [float(line.attrib[k]) for k in ("y1", "y2")]
        assert len({core[0] <= y <= core[1] for y in ends}) == 1, f"a line leaves the core: {line.attrib}"
    drawn = systems(svg)
    for a, b in DATA["vertical_lanes"]:
        core_end, far_end = (a, b) if MAP.provinces[a].layer == 2 else (b, a)
        [arrow] = [t.text for t in drawn[core_end].iter(f"{SVG}text") if t.attrib["class"] == "vertical-lane"]
        assert arrow == ("↑" if MAP.provinces[far_end].layer == 3 else "↓")
        [note] = [
            t.text or "" for t in drawn[far_end].iter(f"{SVG}text") if t.attrib["class"] == "vertical-lane"
        ]
        assert core_end in note.split(" ", 1)[1].split(", ")
