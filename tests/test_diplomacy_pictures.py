"""Standard Diplomacy reports carry the board: units, dislodged units, supply-centre owners and
the phase's orders as arrows (inline PNG, SVG attached); it holds nothing private (draw votes are
never drawn) and is the same for every player."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path

from courier.pictures import render_png
from engine.core import play_phase
from engine.diplomacy import Phase, make_position
from engine.diplomacy._ruleset import DIPLOMACY, DiplomacyState
from tests.conftest import Table

SVG = "{http://www.w3.org/2000/svg}"
POWERS = {"Fran": "France", "Gerd": "Germany", "Ed": "England"}


def game() -> DiplomacyState:
    """Fall 1901: France can dislodge the German army in Burgundy; Belgium is German."""
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
        ],
        supply_centers={
            "France": ["par", "mar", "bre"],
            "Germany": ["ber", "kie", "mun"],
            "England": ["lon", "edi", "lvp", "bel"],
        },
    )
    return DiplomacyState("standard", position, POWERS)


ORDERS = {
    "Fran": "A par - bur\nA mar S A par - bur\nF spa/sc - wes\ndraw",
    "Gerd": "A bur H\nF hol - bel",
    "Ed": "A bel H\nF nth S A bel",
}


def drawn(texts: dict[str, str]) -> tuple[DiplomacyState, ET.Element]:
    _, resolution = play_phase(DIPLOMACY, game(), texts, "seed")
    state = resolution.state
    (picture,) = DIPLOMACY.pictures(state, None)
    return state, ET.fromstring(picture.svg)


def test_the_map_shows_units_dislodged_units_owners_and_orders_with_results() -> None:
    state, svg = drawn(ORDERS)
    assert state.position.phase.kind == "retreat"
    units = {
        (g.get("id"), u.get("class"), u.get("data-power"))
        for g in svg.iter(f"{SVG}g")
        for u in g
        if "unit" in (u.get("class") or "").split()
    }
    assert ("bur", "army unit", "France") in units and ("par", "army unit", "France") not in units
    assert ("wes", "fleet unit", "France") in units and ("nth", "fleet unit", "England") in units
    dislodged = [e.get("data-power") for e in svg.iter() if "dislodged" in (e.get("class") or "").split()]
    assert dislodged == ["Germany"]
    owners = {g.get("id"): g.get("data-owner") for g in svg.iter(f"{SVG}g") if g.get("data-owner")}
    assert owners["bel"] == "England" and owners["par"] == "France" and owners["ber"] == "Germany"
    assert "bur" not in owners  # not a supply centre
    arrows = {e.get("data-order"): (e.get("class"), e.get("data-result")) for e in svg.iter(f"{SVG}line")}
    assert arrows["A par - bur"] == ("order move", "succeeds")
    assert arrows["A mar S A par - bur"] == ("order support", "succeeds")
    assert arrows["F hol - bel"] == ("order move", "fails")
    assert arrows["F spa/sc - wes"] == ("order move", "succeeds")
    assert "A bur H" not in arrows  # a hold draws no arrow
    title = next(e.text for e in svg.iter(f"{SVG}text") if e.get("class") == "title")
    assert title == "Diplomacy after Fall 1901; now Fall 1901 retreats"
    assert render_png(ET.tostring(svg, encoding="unicode")).startswith(b"\x89PNG")


def test_the_map_is_public_the_same_for_every_viewer_and_never_shows_a_draw_vote() -> None:
    with_vote = DIPLOMACY.pictures(drawn(ORDERS)[0], "Gerd")
    without = {**ORDERS, "Fran": ORDERS["Fran"].replace("\ndraw", "")}
    state = drawn(without)[0]
    assert with_vote == DIPLOMACY.pictures(state, "Gerd")
    assert all(DIPLOMACY.pictures(state, v) == with_vote for v in (None, *POWERS))
    assert "draw" not in with_vote[0].svg.lower().replace("drawn", "")


def test_the_opening_map_has_no_arrows() -> None:
    start = DIPLOMACY.setup(list(POWERS), {}, random.Random(1))
    (picture,) = DIPLOMACY.pictures(start, None)
    assert picture.title == "Diplomacy at the start" and 'class="order' not in picture.svg


CONFIG = {
    "game": "diplomacy",
    "timezone": "UTC",
    "start": "2026-12-01 08:00",
    "deadlines": "20:00",
    "reminders": "none",
}


def test_a_report_by_mail_carries_the_map_inline_and_attached_and_the_organiser_gets_it_too(
    tmp_path: Path,
) -> None:
    rows = [{"name": n, "email": f"{n.lower()}@players.test", "role": p} for n, p in POWERS.items()]
    t = Table(tmp_path, CONFIG, rows)
    t.tick(datetime(2026, 12, 1, 8, 5, tzinfo=UTC))
    t.mail("gerd@players.test", "A mun - bur\nF kie - den")
    t.tick(datetime(2026, 12, 1, 20, 5, tzinfo=UTC))
    report = t.sent("ed@players.test")[-1]
    assert report["X-Courier-Kind"] == "report"
    parts = {p.get_content_type(): p for p in report.walk()}
    assert "image/png" in parts
    svg = parts["image/svg+xml"]
    assert svg.get_filename() == "map-F1901M.svg"
    content = svg.get_content()
    text = content if isinstance(content, str) else content.decode()
    assert 'data-order="A mun - bur"' in text and 'data-order="F kie - den"' in text
    (arbiter,) = [m for m in t.sent("organiser@courier.test") if m["X-Courier-Kind"] == "report"]
    assert any(p.get_content_type() == "image/svg+xml" for p in arbiter.walk())  # the same board
