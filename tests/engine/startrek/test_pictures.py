"""The Star Trek map pictures (the core, and hyperspace): well-formed SVG with every system once,
units in faction colours, under the fog of war nothing of what the viewer may not see; and the
geometry that keeps them honest (issue 30): no lane passes through a system it does not join, no
name runs into another or into a system, the key's boxes never overlap, a phone's shape."""

from __future__ import annotations

import math
import random
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

from courier.mail.pictures import render_png
from engine.diplomacy import DislodgedUnit, Unit
from engine.diplomacy.maps.startrek import STARTREK as DATA
from engine.startrek import MAP, STARTREK, StarTrekState, visible_systems
from engine.startrek._factions import COLOURS, FACTIONS
from engine.startrek._svg import WIDTH, _tint, centre, in_picture

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
    return {g.attrib["id"]: g for g in root.iter(f"{SVG}g") if "id" in g.attrib}


def both(state: StarTrekState, viewer: str | None) -> dict[str, ET.Element]:
    """Every system drawn in the viewer's two pictures."""
    core, hyper = STARTREK.pictures(state, viewer)
    return {**systems(core.svg), **systems(hyper.svg)}


def unit_glyphs(group: ET.Element) -> list[ET.Element]:
    return [e for e in group.iter() if "unit" in e.attrib.get("class", "").split()]


def test_the_organisers_maps_have_every_system_once_every_unit_and_titles() -> None:
    state = game(fog=True)
    core, hyper = STARTREK.pictures(state, None)
    assert (core.title, hyper.title) == ("Spring 2370, all factions", "Spring 2370, all factions: hyperspace")
    assert (core.name, hyper.name) == ("map-S2370M", "map-S2370M-hyperspace")
    in_core, in_hyper = systems(core.svg), systems(hyper.svg)
    assert not set(in_core) & set(in_hyper) and len(in_core) + len(in_hyper) == 67 == len(MAP.provinces)
    assert {k for k in MAP.provinces if MAP.provinces[k].layer == 2} == set(in_core)
    drawn = {**in_core, **in_hyper}
    assert all(g.attrib["class"] == "seen" for g in drawn.values())
    glyphs = {key: unit_glyphs(g) for key, g in drawn.items()}
    assert sum(map(len, glyphs.values())) == len(state.position.units) + 1  # and the dislodged ship
    [troop] = glyphs["organia"]
    assert "troop" in troop.attrib["class"] and troop.attrib["fill"] == COLOURS["Klingon"]
    assert [g.attrib["data-faction"] for g in glyphs["qonos"]] == ["Romulan", "Klingon"]
    assert "Spring 2370, all factions" in core.svg and "Klingon 6" in core.svg  # title, legend


def test_a_unit_glyph_sits_in_its_system() -> None:
    drawn = both(game(fog=False), None)
    for unit in game(fog=False).position.units:
        [glyph] = [g for g in unit_glyphs(drawn[unit.province]) if "dislodged" not in g.attrib["class"]]
        x, y = centre(unit.province)
        gx, gy = _glyph_centre(glyph)
        assert abs(gx - x) < 3 and abs(gy - y) < 4, unit


def test_a_dislodged_unit_is_crossed_beside_its_system_with_the_attack_that_did_it() -> None:
    core, _ = STARTREK.pictures(game(fog=False), None)
    root = ET.fromstring(core.svg)
    [ship] = [g for g in unit_glyphs(systems(core.svg)["qonos"]) if "dislodged" in g.attrib["class"]]
    assert ship.attrib["data-faction"] == "Klingon"
    assert [
        e.attrib["class"] for e in systems(core.svg)["qonos"].iter() if "cross" in e.attrib.get("class", "")
    ]
    [attack] = [g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "attack"]
    assert (attack.attrib["data-from"], attack.attrib["data-to"]) == ("narendra", "qonos")
    assert "dislodged: must retreat (dashed: the attack)" in texts(root)
    calm = STARTREK.pictures(STARTREK.setup(list(ROLES), {"roles": ROLES}, random.Random(1)), None)[0]
    assert "dislodged" not in calm.svg


def test_a_players_map_is_titled_with_their_faction_and_unknown_viewers_get_none() -> None:
    state = game(fog=False)
    core, hyper = STARTREK.pictures(state, "Kor")
    assert core.title == "Spring 2370, Klingon" and core.name == "map-S2370M-klingon"
    assert hyper.name == "map-S2370M-klingon-hyperspace"
    assert all(g.attrib["class"] == "seen" for g in both(state, "Kor").values())  # no fog option
    assert STARTREK.pictures(state, "Nobody") == []


def test_fog_of_war_map_shows_nothing_out_of_sight() -> None:
    state = game(fog=True)
    faction_paint = {c for f in FACTIONS for c in (COLOURS[f], _tint(COLOURS[f]))}
    for player, faction in ROLES.items():
        seen = visible_systems(state.position, faction)
        drawn = both(state, player)
        hidden = {key for key, g in drawn.items() if g.attrib["class"] == "fog"}
        assert hidden == set(MAP.provinces) - seen
        assert any(state.position.unit_in(key) for key in hidden)  # there is something to hide
        for key in hidden:
            group = drawn[key]
            assert unit_glyphs(group) == [], f"{faction} sees a unit in {key}"
            paint = {e.attrib.get(a) for e in group.iter() for a in ("fill", "stroke")}
            assert not paint & faction_paint, f"{faction} sees who holds {key}"
        attacks = [p for p in STARTREK.pictures(state, player) if 'class="attack"' in p.svg]
        assert bool(attacks) == ("qonos" in seen), faction  # the dislodgement only where seen
    assert unit_glyphs(both(state, "Rom")["qonos"])  # its own ship is in sight


def test_the_maps_render_to_pngs_shaped_for_a_phone(tmp_path: Path) -> None:
    for picture in STARTREK.pictures(game(fog=True), "Kor"):
        root = ET.fromstring(picture.svg)
        assert root.attrib["width"] == str(WIDTH) == "600"  # names at 15 px: 10 px on a 400 px screen
        assert {t.attrib["font-size"] for t in root.iter(f"{SVG}text") if t.get("class") == "name"} == {"15"}
        png = render_png(picture.svg)
        assert png.startswith(b"\x89PNG")
        (tmp_path / f"{picture.name}.png").write_bytes(png)


# --- geometry ------------------------------------------------------------------------------------


def _glyph_centre(glyph: ET.Element) -> tuple[float, float]:
    if glyph.tag == f"{SVG}rect":
        x, y, w, h = (float(glyph.attrib[k]) for k in ("x", "y", "width", "height"))
        return x + w / 2, y + h / 2
    points = [tuple(map(float, p.split(","))) for p in glyph.attrib["points"].split()]
    return points[0][0], (min(p[1] for p in points) + max(p[1] for p in points)) / 2


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


def _distance(point: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """From a point to the segment a–b."""
    (px, py), (ax, ay), (bx, by) = point, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def test_no_lane_passes_through_a_system_it_does_not_join() -> None:
    """Issue 30: rigel–khitomer was drawn through starbase375, benzar–breen_gateway through
    freecloud and clarus. Every lane, as drawn, keeps clear of every other system's ring."""
    for picture in STARTREK.pictures(game(fog=False), None):
        root = ET.fromstring(picture.svg)
        rings = {
            key: (float(c.attrib["cx"]), float(c.attrib["cy"]), float(c.attrib["r"]))
            for key, g in systems(picture.svg).items()
            for c in g.iter(f"{SVG}circle")
        }
        lanes = [line for line in root.iter(f"{SVG}line") if line.attrib.get("class") == "lane"]
        assert lanes
        for line in lanes:
            a, b = line.attrib["data-lane"].split()
            ends = [(float(line.attrib[f"x{i}"]), float(line.attrib[f"y{i}"])) for i in (1, 2)]
            assert ends == [centre(a), centre(b)]
            for key, (x, y, r) in rings.items():
                if key not in (a, b):
                    assert _distance((x, y), *ends) > r + 4, f"{a}–{b} passes through {key}"
    drawn_lanes = {tuple(sorted((a, b))) for a, b in DATA["lanes"]}
    assert all(in_picture(a) == in_picture(b) for a, b in drawn_lanes)  # a lane never leaves its picture


def test_no_name_runs_into_another_or_into_a_system_and_all_fit() -> None:
    for picture in STARTREK.pictures(game(fog=False), None):
        root = ET.fromstring(picture.svg)
        kinds = ("name", "vertical-lane", "band-title")
        labels = [(t.text, _box(t)) for t in root.iter(f"{SVG}text") if t.attrib.get("class") in kinds]
        discs = [_disc(c) for c in root.iter(f"{SVG}circle") if c.attrib.get("class") in ("system", "centre")]
        clashes = [
            (a, b)
            for i, (a, box) in enumerate(labels)
            for b, other in labels[i + 1 :]
            if _overlap(box, other)
        ]
        clashes += [(a, "a system") for a, box in labels for disc in discs if _overlap(box, disc)]
        assert clashes == [], picture.name
        assert all(box[0] >= 0 and box[2] <= WIDTH for _, box in labels), picture.name


def test_the_keys_boxes_never_overlap_and_hold_their_words() -> None:
    """Issue 30: the key's lines printed over each other."""
    for state, viewer in ((game(fog=True), "Kor"), (game(fog=False), None)):
        for picture in STARTREK.pictures(state, viewer):
            root = ET.fromstring(picture.svg)
            boxes = [
                tuple(float(r.attrib[k]) for k in ("x", "y", "width", "height"))
                for r in root.iter(f"{SVG}rect")
                if r.attrib.get("class") == "legend-box"
            ]
            spans = [(x, y, x + w, y + h) for x, y, w, h in boxes]
            assert len(spans) >= 5
            assert not [(a, b) for i, a in enumerate(spans) for b in spans[i + 1 :] if _overlap(a, b)]
            assert all(s[0] >= 0 and s[2] <= WIDTH for s in spans)
            for text in (t for t in root.iter(f"{SVG}text") if t.attrib.get("class") == "legend"):
                box = _box(text)
                assert any(s[0] - 1 <= box[0] and box[2] <= s[2] + 1 and s[1] <= box[1] for s in spans), (
                    text.text
                )


def test_vertical_lanes_are_no_lines_but_both_ends_say_where_they_lead() -> None:
    drawn = both(game(fog=False), None)
    for a, b in DATA["vertical_lanes"]:
        core_end, far_end = (a, b) if MAP.provinces[a].layer == 2 else (b, a)
        [arrow] = [t.text for t in drawn[core_end].iter(f"{SVG}text") if t.attrib["class"] == "vertical-lane"]
        assert arrow == ("↑" if MAP.provinces[far_end].layer == 3 else "↓")
        [note] = [
            t.text or "" for t in drawn[far_end].iter(f"{SVG}text") if t.attrib["class"] == "vertical-lane"
        ]
        assert core_end in note.split(" ", 1)[1].split(", ")


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


# --- the phase on the map: moves and retreats (issue 30) -----------------------------------------


def fought(*, fog: bool) -> StarTrekState:
    """Spring 2370 with a Federation ship in organia: Klingon boreth - organia with qonos' support
    dislodges it, khitomer - rigel bounces, earth - tellar bounces too."""
    state = STARTREK.setup(
        list(ROLES), {"roles": ROLES, "fog_of_war": fog, "intelligence_window": "no"}, random.Random(1)
    )
    units = (*state.position.units, Unit("Federation", "F", "organia"))
    state = replace(state, position=replace(state.position, units=units))
    orders = {
        "Kor": "ship boreth - organia\nship qonos S ship boreth - organia\nship khitomer - rigel",
        "Fay": "ship earth - tellar",
    }
    submissions = {p: STARTREK.parse(state, p, text) for p, text in orders.items()}
    after: StarTrekState = STARTREK.resolve(state, submissions, random.Random(2)).state
    return after


def arrows(svg: str) -> set[tuple[str, str, str, str]]:
    """(kind, from, to, succeeded) of every move and retreat arrow drawn."""
    return {
        (g.attrib["class"], g.attrib["data-from"], g.attrib["data-to"], g.attrib["data-succeeded"])
        for g in ET.fromstring(svg).iter(f"{SVG}g")
        if g.attrib.get("class") in ("move", "retreat")
    }


def test_the_phases_moves_are_arrows_and_the_retreat_that_follows_too() -> None:
    state = fought(fog=False)
    assert state.position.phase.kind == "retreat"
    core, _ = STARTREK.pictures(state, "Fay")
    assert arrows(core.svg) == {
        ("move", "boreth", "organia", "true"),
        ("move", "khitomer", "rigel", "false"),
        ("move", "earth", "tellar", "false"),
    }
    assert 'class="attack"' not in core.svg  # the dislodging move is drawn once, as a move
    assert [g for g in unit_glyphs(systems(core.svg)["organia"]) if "dislodged" in g.attrib["class"]]
    retreat = STARTREK.parse(state, "Fay", "ship organia R starbase375")
    after = STARTREK.resolve(state, {"Fay": retreat}, random.Random(3)).state
    core, _ = STARTREK.pictures(after, "Kor")
    assert arrows(core.svg) == {("retreat", "organia", "starbase375", "true")}
    assert "a retreat" in texts(ET.fromstring(core.svg))
    assert STARTREK.from_json(STARTREK.to_json(after)).routes == after.routes  # kept in the journal


def test_under_fog_a_player_sees_only_the_arrows_of_lines_it_reads() -> None:
    state = fought(fog=True)
    hidden_somewhere = False
    for player in ROLES:
        readable = {
            ("move", r.origin, r.target, str(r.succeeded).lower())
            for r in state.routes
            if r.audience is None or player in r.audience
        }
        core, hyper = STARTREK.pictures(state, player)
        assert arrows(core.svg) | arrows(hyper.svg) == readable, player
        hidden_somewhere |= len(readable) < len(state.routes)
    assert hidden_somewhere  # the Romulan reads none of the Klingon's lines
    assert len(arrows(STARTREK.pictures(state, None)[0].svg)) == 3  # the organiser sees every one
