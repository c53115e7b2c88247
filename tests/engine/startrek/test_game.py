"""Star Trek Diplomacy through the tick: receipts per line, the intelligence window with its own
2 h clock, reports with results, private intelligence and the map, a solo and an allied victory,
the 2380 draw, a privacy test (one faction's secret ability changes nobody else's mail) and a
fog-of-war leak test (in the text and in the attached map)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from email.message import EmailMessage
from pathlib import Path

import pytest
from openpyxl import load_workbook

from engine.diplomacy import Position
from engine.startrek import MAP, STARTREK, visible_systems
from tests.conftest import Table, last_text, text_of, write
from tests.helpers.clock import at
from tests.helpers.startrek import FACTIONS, table


def test_a_turn_with_an_intelligence_window(tmp_path: Path) -> None:
    t = table(tmp_path)
    assert t.tick(at(0, 8, 5)) == []
    assert "ship qonos H" in last_text(t, "Kor")
    write(t, "Kor", "rage on\nship qonos - organia\nS tygokor - archanis")
    write(t, "Rom", "tal shiar klingon\nship romulus - galorndon")
    write(t, "Fez", "sabotage klingon qonos\nship ferenginar - risa")
    t.tick(at(0, 9))
    receipt = last_text(t, "Kor")
    assert "rage on" in receipt and "ship tygokor - archanis" in receipt
    assert "tal shiar klingon" in last_text(t, "Rom")
    assert "“sabotage klingon qonos”: sabotage costs 30 latinum; you have 0." in last_text(t, "Fez")
    assert t.tick(at(0, 20, 5)) == []
    assert "ship qonos - organia" in last_text(t, "Rom")  # the Tal Shiar's report
    assert "Klingon: a move into organia" in last_text(t, "Cat")  # the Obsidian Order
    assert "ship qonos - organia" not in last_text(t, "Fay")
    write(t, "Rom", "ship romulus - rator\nship rator - nimbus")
    write(t, "Fay", "ship earth - betazed")  # not informed: refused in the window
    t.tick(at(0, 21))
    assert "No orders are needed from you" in last_text(t, "Fay")
    assert t.tick(at(0, 22, 5)) == []
    report = last_text(t, "Fay")
    assert "Klingon: ship tygokor - archanis — succeeds" in report
    assert "Klingon: ship qonos - organia — succeeds" in report
    assert "sabotage" not in report and "ability “sabotage" not in last_text(t, "Fez")  # refused on receipt
    assert "Romulan: ship romulus - rator — succeeds" in report
    assert "galorndon" not in report  # the amendment replaced the deadline's order
    assert "Klingon ability “rage on”" in report
    assert "latinum" in last_text(t, "Fez").lower() and "Ferengi latinum" not in report
    rows = [list(r) for r in load_workbook(tmp_path / "truce-1.xlsx")["Ledger"].iter_rows(values_only=True)]
    assert any("Klingon" in [str(c) for c in row] for row in rows)


def test_allied_victory_through_the_tick(tmp_path: Path) -> None:
    t = table(tmp_path, allied_victory_centres="10", intelligence_window="0")
    t.tick(at(0, 8, 5))
    write(t, "Bre", "ally openly with cardassian")
    t.tick(at(0, 9))
    t.tick(at(0, 20, 5))
    registered = "Alliance of the Breen with the Cardassian: registered"
    pending = "declared openly: public once the Cardassian ally openly too"
    assert f"{registered} ({pending})" in last_text(t, "Bre")
    assert "alliance of" not in last_text(t, "Cat")
    write(t, "Cat", "ally openly with breen")
    t.tick(at(1, 9))
    t.tick(at(1, 20, 5))
    final = last_text(t, "Fay")
    assert "Public alliance of the Cardassian with the Breen: confirmed." in final  # both asked
    assert "Victory: Cardassian and Breen" in final


@pytest.fixture
def sketchy_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Long games skip the PNG rendering (a quarter second a map, eight maps a turn): the maps are
    still drawn and attached; test_pictures.py renders them for real."""
    monkeypatch.setattr("courier.mail.pictures.render_png", lambda svg: b"\x89PNG not rendered")
    monkeypatch.setattr("courier.mail.pictures._cores", lambda: 1)  # no helper processes either


@pytest.mark.usefixtures("sketchy_pictures")
def test_the_game_is_drawn_when_2380_begins(tmp_path: Path) -> None:
    t = table(tmp_path, intelligence_window="0")
    for day in range(21):
        t.tick(at(day, 20, 5))
    assert "drawn as 2380 begins" in last_text(t, "Gil")


@pytest.mark.parametrize("secret", ["tal shiar cardassian", "ship romulus H\nally with klingon"])
def test_a_factions_secret_lines_reach_only_its_player(tmp_path: Path, secret: str) -> None:
    def play(root: Path, romulan: str) -> tuple[list[object], dict[str, list[str]]]:
        t = table(root)
        t.tick(at(0, 8, 5))
        write(t, "Kor", "ship qonos - organia")
        write(t, "Rom", romulan)
        t.tick(at(0, 9))
        t.tick(at(0, 20, 5))
        book = load_workbook(root / "truce-1.xlsx")
        cells: list[object] = [
            c for tab in ("Ledger", "History") for row in book[tab].iter_rows(values_only=True) for c in row
        ]
        return cells, {n: [m.as_string() for m in t.sent(f"{n.lower()}@players.test")] for n in FACTIONS}

    cells_one, mail_one = play(tmp_path / "one", "tal shiar klingon")
    cells_two, mail_two = play(tmp_path / "two", secret)
    assert cells_one == cells_two
    for name in FACTIONS:
        if name != "Rom":
            assert mail_one[name] == mail_two[name], f"{name}'s mail depends on the Romulan's secret"
    assert mail_one["Rom"] != mail_two["Rom"]


def test_fog_of_war_mail_names_only_visible_systems(tmp_path: Path) -> None:
    """Every line, failure reasons included, and every attached map."""
    t = table(tmp_path, fog_of_war="yes", intelligence_window="0")
    t.tick(at(0, 8, 5))
    start = STARTREK.setup(list(FACTIONS), {"roles": FACTIONS}, __import__("random").Random(0)).position
    write(t, "Kor", "ship qonos - organia\nship khitomer - rigel\nship tygokor - archanis")
    write(t, "Fay", "ship earth - betazed\nship rigel - khitomer\nship andoria - archanis")
    write(t, "Gil", "ship gornar - cestus")
    t.tick(at(0, 9))
    t.tick(at(0, 20, 5))
    after = _position(t)
    for name, faction in FACTIONS.items():
        seen = visible_systems(start, faction) | visible_systems(after, faction)
        for message in t.sent(f"{name.lower()}@players.test"):
            text = "\n".join(line for line in text_of(message).splitlines() if "Intelligence (" not in line)
            named = set(re.findall(r"\b[a-z0-9_]+\b", text)) & set(MAP.provinces)
            assert named <= seen, f"{name} reads about {sorted(named - seen)}"
    assert "Gorn: ship gornar - cestus" not in last_text(t, "Fay")
    assert "Klingon: ship khitomer - rigel" in last_text(t, "Fay")
    assert "Federation: ship andoria - archanis — fails (bounced)" in last_text(t, "Fay")  # not by whom
    for name, faction in FACTIONS.items():  # the attached map of the new position shows no more
        shown = _units_on_map(t.sent(f"{name.lower()}@players.test")[-1])
        assert set(shown) <= visible_systems(after, faction), f"{name}'s map shows {sorted(shown)}"
        assert shown == {u.province for u in after.units if u.province in visible_systems(after, faction)}


def _units_on_map(message: EmailMessage) -> set[str]:
    """The systems where the message's attached SVG maps (the core, hyperspace) draw a unit."""
    svgs = [p.get_content() for p in message.walk() if p.get_content_type() == "image/svg+xml"]
    assert len(svgs) == 2
    shown = set()
    for svg in svgs:
        root = ET.fromstring(svg.decode() if isinstance(svg, bytes) else svg)
        groups = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "id" in g.attrib]
        shown |= {
            g.attrib["id"] for g in groups if any("unit" in e.attrib.get("class", "") for e in g.iter())
        }
    return shown


def _position(t: Table) -> Position:
    journal = t.journal()
    try:
        row = journal.game("truce-1")
        assert row is not None
        return STARTREK.from_json(row.state).position
    finally:
        journal.close()


ROMULAN_GAME = [  # (when the orders go in, the deadline tick, the Romulan's orders); everybody else holds
    (
        at(0, 9),
        at(0, 20, 5),
        "ship romulus - galorndon\nship rator - wormhole_terminus_b\n"
        "ship remus - underspace_gamma\nship abraxas - rator",
    ),
    (
        at(1, 9),
        at(1, 20, 5),
        "ship galorndon H\nship wormhole_terminus_b - ds9\nship rator - nimbus\n"
        "ship underspace_gamma - mycelial_south",
    ),
    (at(1, 21), at(1, 22, 10), "ship romulus B\nship rator B\ntroop abraxas B"),
    (at(2, 9), at(2, 20, 5), "ship ds9 - bajor\nship mycelial_south - underspace_gamma"),
    (at(3, 9), at(3, 20, 5), "ship bajor H\nship nimbus H"),
]


@pytest.mark.usefixtures("sketchy_pictures")
def test_a_full_game_to_a_romulan_solo_victory(tmp_path: Path) -> None:
    t = table(tmp_path, intelligence_window="0")
    t.tick(at(0, 8, 5))
    for mailed, deadline, orders in ROMULAN_GAME:
        t.clock = mailed
        write(t, "Rom", orders)
        t.tick(mailed)
        assert "not understood" not in last_text(t, "Rom").lower(), last_text(t, "Rom")
        t.tick(deadline)
    final = last_text(t, "Fay")
    assert "Victory: Romulan" in final, final
    position = _position(t)
    assert len(position.centres_of("Romulan")) == 8
    assert {"galorndon", "ds9", "nimbus", "bajor"} <= position.centres_of("Romulan")
    pictures = [p for p in t.sent("rom@players.test")[-1].walk() if p.get_content_type() == "image/png"]
    assert pictures, "the final report carries the map"
    journal = t.journal()
    try:
        row = journal.game("truce-1")
        assert row is not None and row.finished
    finally:
        journal.close()


def test_the_window_is_mailed_only_to_the_informed_and_their_deadline_orders_stand(tmp_path: Path) -> None:
    t = table(tmp_path, reminders="1h")
    t.tick(at(0, 8, 5))
    assert "You play Romulan.\n  - Your ability: Tal Shiar (once per game)." in last_text(t, "Rom")  # welcome
    files = {str(p.get_filename()) for p in t.sent("rom@players.test")[-1].walk() if p.get_filename()}
    maps = files - {"deadline.ics"}  # the calendar event of the deadline beside them (issue 30)
    assert len(maps) == 4 and all("-romulan" in f for f in maps)  # its own opening maps, PNG and SVG
    write(t, "Rom", "tal shiar klingon\nship romulus - galorndon\nship remus - underspace_gamma")
    write(t, "Fez", "ship ferenginar - risa")
    t.tick(at(0, 9))
    before = counts(t)
    t.tick(at(0, 20, 5))
    assert changed(t, before) == {"Rom", "Cat"}  # the uninformed, the Ferengi too, hear nothing yet
    window = last_text(t, "Rom")
    assert "Intelligence (Tal Shiar on the Klingon)" in window
    assert "#   ship romulus - galorndon" in window  # the form recalls the orders that stand
    write(t, "Rom", "ship romulus - hyperspace_gamma")
    write(t, "Fez", "ship ferenginar H")  # awaited (nobody may learn who was informed), not informed
    t.tick(at(0, 20, 30))
    amended = last_text(t, "Rom")
    standing = amended.split("now stand for")[1].split("To change them")[0]
    assert all(
        o in standing
        for o in ("ship romulus - hyperspace_gamma", "ship remus - underspace_gamma", "tal shiar klingon")
    )
    assert "galorndon" not in standing
    refused = last_text(t, "Fez")
    assert "you received no intelligence this turn" in refused
    assert "ship ferenginar - risa" in refused.split("now stand for")[1].split("To change them")[0]
    assert "default for absent players" not in refused and "Your orders for" not in refused  # no form
    write(t, "Cat", "ship cardassia - nowhere")  # informed, gave nothing at the deadline, writes nonsense
    t.tick(at(0, 20, 40))
    assert "The orders you gave before Spring 2370 intelligence window stand; there were none." in last_text(
        t, "Cat"
    )
    before = counts(t)
    t.tick(at(0, 21, 5))  # an hour before the window closes: nobody is reminded, their orders stand
    assert changed(t, before) == set()
    t.tick(at(0, 22, 5))
    report = last_text(t, "Fay")
    assert (
        "Romulan: ship romulus - hyperspace_gamma — succeeds" in report
        and "Romulan: ship remus - underspace_gamma" in report
    )
    assert "Ferengi: ship ferenginar - risa — succeeds" in report


def counts(t: Table) -> dict[str, int]:
    return {n: len(t.sent(f"{n.lower()}@players.test")) for n in FACTIONS}


def changed(t: Table, before: dict[str, int]) -> set[str]:
    return {n for n, count in counts(t).items() if count > before[n]}


def test_a_unit_dislodged_without_orders_is_reported_and_its_retreat_form_lists_the_way_out(
    tmp_path: Path,
) -> None:
    t = table(tmp_path, intelligence_window="0")
    t.tick(at(0, 8, 5))
    write(t, "Fez", "ship volchok - underspace_alpha")
    write(t, "Kor", "ship tygokor - archanis")
    t.tick(at(0, 9))
    t.tick(at(0, 20, 5))
    write(t, "Fez", "ship underspace_alpha - andoria")
    write(t, "Kor", "ship archanis S ship underspace_alpha - andoria")
    t.tick(at(1, 9))
    t.tick(at(1, 20, 5))  # the Federation never wrote
    report = last_text(t, "Fay")
    assert (
        "Federation: ship andoria H (no order given) — fails (dislodged by the unit from underspace_alpha)"
        in report
    )
    assert "ship andoria D   # or ship andoria R <system>, one of: benzar" in report
    assert "Your orders for" not in last_text(t, "Gil")  # nothing to retreat: no form
