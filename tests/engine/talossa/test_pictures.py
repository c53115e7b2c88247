"""The map picture in every Talossan RISK report: one box per land in its conqueror's colour, unit
counts, capitals and strongholds marked, given names shown; the same map for everyone (no fog)."""

from __future__ import annotations

import dataclasses
import itertools
import random
import xml.etree.ElementTree as ET

from courier.mail.pictures import render_png
from engine.talossa import TALOSSA, TALOSSA_MAP, Holding, TalossaState
from engine.talossa._colours import MIN_DISTANCE, country_fills, distance, fill_colour
from tests.helpers.talossa import position, step

SVG = "{http://www.w3.org/2000/svg}"


def scene() -> TalossaState:
    state = position(
        {
            "vuo-abbavilla": ("Al", 7),
            "ata-ankara": ("Al", 12),
            "vuo-downer": ("Al", 3, True),
            "cez-sud": ("Bea", 9),
            "mm-beach": ("Bea", 4),
            "flo-brady": ("Cy", 5),
            "fio-glenmor": ("Di", 1),
        },
        capitals={"Al": "ata-ankara", "Bea": "cez-sud"},
    )
    lands = {**state.lands, "vuo-abbavilla": Holding(owner="Al", units=7, given_name="Wellington")}
    colours = {"Al": "red", "Bea": "blue", "Cy": "Chartreuse-ish", "Di": "#2e7d32"}
    countries = tuple(dataclasses.replace(c, colour=colours[c.player]) for c in state.countries)
    return dataclasses.replace(state, lands=lands, countries=countries, step=4)


def drawn(state: TalossaState, viewer: str | None = None) -> ET.Element:
    (picture,) = TALOSSA.pictures(state, viewer)
    return ET.fromstring(picture.svg)  # raises on anything that is not well-formed XML


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def marked(root: ET.Element, mark: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == mark]


def test_one_box_per_land_in_its_conquerors_colour() -> None:
    root = drawn(scene())
    boxes = {e.get("id"): e.get("fill") for e in marked(root, "land")}
    assert len(boxes) == len(TALOSSA_MAP["lands"])
    assert boxes["land-vuo-abbavilla"] == fill_colour("red")
    assert boxes["land-cez-sud"] == fill_colour("blue")
    assert boxes["land-fio-glenmor"] == "#2e7d32"  # a #hex colour is used as given
    assert len({boxes["land-ben-mill"], boxes["land-cez-nord"], boxes["land-mar-ogden"]}) == 1  # free


def test_every_conquerors_colour_is_on_the_map_and_in_the_legend() -> None:
    state = scene()
    root = drawn(state)
    fills = {e.get("fill") for e in root.iter()}
    for country, fill in zip(
        state.countries, country_fills([c.colour for c in state.countries]), strict=True
    ):
        assert fill in fills
        legend = [t for t in texts(root) if t.startswith(country.name)]
        assert legend and (country.colour in legend[0]) == (fill_colour(country.colour) == fill)
    assert "Chartreuse-ish" not in "".join(texts(root))  # drawn in a palette colour: not named


def test_two_countries_never_look_alike_on_the_map() -> None:
    """Colours from before join checked them (or made by hand) are still drawn apart."""
    alike = ["red", "Red", "maroon", "#e57373", "white", "violet", "purple", "Chartreuse-ish"]
    state = scene()
    countries = tuple(
        dataclasses.replace(state.countries[0], player=f"P{i}", colour=c) for i, c in enumerate(alike)
    )
    root = drawn(dataclasses.replace(state, countries=countries, lands={}))
    swatches = [e.get("fill") or "" for e in root.iter(f"{SVG}rect") if e.get("width") == "22"]
    assert len(swatches) == len(alike) + 1  # one a country, and the free land's
    assert all(distance(a, b) >= MIN_DISTANCE for a, b in itertools.combinations(swatches, 2))


def test_given_names_unit_counts_capitals_and_strongholds_are_shown() -> None:
    root = drawn(scene())
    words = texts(root)
    assert "Wellington" in words and "Abbavilla" in words
    assert {"12", "9", "7", "3"} <= set(words)
    assert len(marked(root, "capital")) == 2  # Ankara Street and Cézembre Sud
    assert len(marked(root, "stronghold")) == 1  # Downer
    assert any(t.startswith("Talossa · Step 3") for t in words)  # step 4 is next: the map after step 3


def test_cezembre_is_linked_by_sea() -> None:
    root = drawn(scene())
    dashed = [e for e in root.iter(f"{SVG}line") if e.get("stroke-dasharray")]
    assert len(dashed) == 1 + 4  # the legend's sample and Cézembre's four sea links
    assert "Cézembre" in texts(root) and "Sud" in texts(root)  # the province, and Cézembre Sud wrapped


def test_player_text_is_escaped() -> None:
    state = scene()
    lands = {**state.lands, "mar-ogden": Holding(given_name="Tom & <Jo>")}
    root = drawn(dataclasses.replace(state, lands=lands))
    assert "Tom & <Jo>" in texts(root)


def test_no_fog_every_viewer_gets_the_same_map() -> None:
    state = scene()
    (everyone,) = TALOSSA.pictures(state, None)
    assert all(TALOSSA.pictures(state, p) == [everyone] for p in ("Al", "Bea", "Cy", "Di"))
    assert everyone.name == "map-step-3" and everyone.title == "Talossa after step 3"


def test_a_new_game_draws_and_renders_to_png() -> None:
    state = TALOSSA.setup(
        ["Al", "Bea", "Cy", "Di"], {"roles": {"Al": "Alvania; red; Abbavilla"}}, random.Random(3)
    )
    (picture,) = TALOSSA.pictures(state, "Al")
    assert picture.title == "Talossa at the start"
    assert len(marked(ET.fromstring(picture.svg), "land")) == len(TALOSSA_MAP["lands"])
    png = render_png(picture.svg)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000


# --- the step on the map and a legend that is never cut (issue 30) ---------------------------------


def fought() -> TalossaState:
    """Step 4 played: Alvania takes Farwell from Beatria, attacks Benito Falls (30 defenders: held)
    while Cyland conquers free Commerce."""
    state = scene()
    lands = {
        **state.lands,
        "vuo-farwell": Holding(owner="Bea", units=1),
        "ben-falls": Holding(owner="Bea", units=30),
    }
    state = dataclasses.replace(state, lands=lands)
    plans = {
        "Al": "Q: Abbavilla >> Farwell, 3\nQ: Abbavilla >> Benito Falls, 2",
        "Cy": "Q: Brady >> Commerce, 2",
    }
    after, _ = step(state, plans, seed=3)
    return after


def test_the_map_marks_the_steps_conquests_attacks_and_battles() -> None:
    state = fought()
    root = drawn(state)
    attacks = {(e.get("data-from"), e.get("data-land"), e.get("data-kind")) for e in marked(root, "attack")}
    assert attacks == {
        ("vuo-abbavilla", "vuo-farwell", "captured"),
        ("vuo-abbavilla", "ben-falls", "held"),
        ("flo-brady", "flo-commerce", "conquered"),
    }
    assert {e.get("data-land") for e in marked(root, "taken")} == {"vuo-farwell", "flo-commerce"}
    battles = {e.get("data-land"): (e.get("data-won"), e.get("fill")) for e in marked(root, "battle")}
    fills = dict(zip(["Al", "Bea"], country_fills([c.colour for c in state.countries][:2]), strict=True))
    assert battles == {"vuo-farwell": ("attacker", fills["Al"]), "ben-falls": ("defender", fills["Bea"])}
    assert "a battle, in its winner's colour" in texts(root) and "taken this step" in texts(root)
    (again,) = TALOSSA.pictures(TALOSSA.from_json(TALOSSA.to_json(state)), None)
    assert again == TALOSSA.pictures(state, None)[0]  # the marks survive the journal's JSON


def test_the_next_step_clears_the_marks_and_a_start_has_none() -> None:
    state, _ = step(fought(), {"Al": "R: Ankara Street, 1"}, seed=4)
    assert marked(drawn(state), "attack") == [] and "taken this step" not in texts(drawn(state))
    assert marked(drawn(scene()), "battle") == []


def test_the_legend_gives_each_country_its_whole_line() -> None:
    """Issue 30: “Miestrâ Schivâ, yellow): 1 land, 1 u…” was cut; a long line wraps instead."""
    state = scene()
    countries = tuple(
        dataclasses.replace(c, name="The Most Serene Republic of Miestrâ Schivâ and its Dependencies")
        if c.player == "Cy"
        else c
        for c in state.countries
    )
    root = drawn(dataclasses.replace(state, countries=countries))
    width = float(root.attrib["width"])
    lines = [t for t in root.iter(f"{SVG}text") if t.get("class") == "legend"]
    words = " ".join(t.text or "" for t in lines)
    assert "Miestrâ Schivâ and its Dependencies (Cy): 1 land, 5 units" in words
    assert "…" not in words
    for line in lines:
        assert (
            float(line.attrib["x"]) + len(line.text or "") * 0.62 * float(line.attrib["font-size"]) <= width
        )


def test_the_map_is_shaped_for_a_phone_in_two_halves_with_names_that_read() -> None:
    """Issue 30: the 900 px map shrank on a phone until no name could be read. Now 600 wide, the
    west half above the east half, each land drawn once and its name at 14 px or more (over
    9 px on a 400 px screen)."""
    root = drawn(fought())
    assert root.attrib["width"] == "600"
    panels = [e for e in root.iter(f"{SVG}svg") if e.get("class") == "panel-map"]
    assert len(panels) == 2
    assert [t.text for t in marked(root, "panel")] == [
        "West · the east half is below",
        "East · the west half is above",
    ]
    assert len(marked(root, "land")) == len(TALOSSA_MAP["lands"])  # drawn once, shown by both halves
    views = [tuple(map(float, p.attrib["viewBox"].split())) for p in panels]
    assert views[0][0] + views[0][2] == views[1][0]  # the halves meet: every land is in one of them
    scale = float(panels[0].attrib["width"]) / views[0][2]
    assert abs(scale - float(panels[1].attrib["width"]) / views[1][2]) < 0.01  # both at one scale
    smallest = min(float(t.attrib["font-size"]) for t in marked(root, "land-name"))
    assert smallest * scale >= 14
