"""Standard Diplomacy reports carry the board: units, dislodged units, supply-centre owners and
the phase's orders as arrows (inline PNG, SVG attached); it holds nothing private (draw votes are
never drawn) and is the same for every player."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from email import message_from_bytes
from email.policy import default
from pathlib import Path

from courier.mail.pictures import render_png
from courier.tick.runbook import run_tick
from courier.tick.send import PICTURE_DROPPED
from engine.core import play_phase
from engine.diplomacy import Phase, make_position
from engine.diplomacy._ruleset import DIPLOMACY, DiplomacyState
from tests.conftest import Table, text_of
from tests.helpers.clock import at

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
    state = play_phase(DIPLOMACY, game(), texts, "seed").resolution.state
    (picture,) = DIPLOMACY.pictures(state, None)
    return state, ET.fromstring(picture.svg)


def test_the_map_shows_units_dislodged_units_owners_and_orders_with_results() -> None:
    state, svg = drawn(ORDERS)
    assert state.position.phase.kind == "retreat"
    units = {
        (u.get("data-province"), u.get("class"), u.get("data-power"))
        for u in svg.iter(f"{SVG}g")
        if "unit" in (u.get("class") or "").split()
    }
    assert ("bur", "army unit", "France") in units and ("par", "army unit", "France") not in units
    assert ("wes", "fleet unit", "France") in units and ("nth", "fleet unit", "England") in units
    dislodged = [e.get("data-power") for e in svg.iter() if "dislodged" in (e.get("class") or "").split()]
    assert dislodged == ["Germany"]
    owners = {g.get("id"): g.get("data-owner") for g in svg.iter(f"{SVG}path") if g.get("data-owner")}
    assert owners["bel"] == "England" and owners["par"] == "France" and owners["ber"] == "Germany"
    assert "bur" not in owners  # not a supply centre
    arrows = {e.get("data-order"): (e.get("class"), e.get("data-result")) for e in svg.iter(f"{SVG}line")}
    assert arrows["A par - bur"] == ("order move", "succeeds")
    assert arrows["A mar S A par - bur"] == ("order support", "succeeds")
    assert arrows["F hol - bel"] == ("order move", "fails")
    assert arrows["F spa/sc - wes"] == ("order move", "succeeds")
    assert "A bur H" not in arrows  # a hold draws no arrow
    title = next(e.text for e in svg.iter(f"{SVG}text") if e.get("class") == "title")
    assert title == "Diplomacy after Fall 1901"  # the mail says what comes next
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
    t.tick(at(0, 8, 5))
    t.mail("gerd@players.test", "A mun - bur\nF kie - den")
    t.tick(at(0, 20, 5))
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


def _round_queued_not_sent(root: Path, *orders: tuple[str, str]) -> Table:
    """Round 1 resolved with these orders (sender, text), its reports queued, none sent yet."""
    rows = [{"name": n, "email": f"{n.lower()}@players.test", "role": p} for n, p in POWERS.items()]
    t = Table(root, CONFIG, rows)
    t.tick(at(0, 8, 5))
    for sender, text in orders:
        t.mail(sender, text)
    run_tick(t.deployment, now=at(0, 20, 5), send=False)
    return t


def test_a_rounds_map_is_journalled_once_however_many_it_goes_to(tmp_path: Path) -> None:
    """Every report carries one map: the journal holds its PNG and SVG once, each queued mail a line
    standing for them, and every mail that goes out carries them whole; once all are sent the
    journal keeps no picture."""
    t = _round_queued_not_sent(tmp_path, ("gerd@players.test", "A mun - bur\nF kie - den"))

    journal = t.journal()
    try:
        queued = [row for row in journal.queued() if row.kind == "report"]
        (stored,) = journal.db.execute("SELECT count(*) FROM outbox_pictures").fetchone()
        whole = [journal.with_pictures(row.raw) for row in queued]
    finally:
        journal.close()
    assert len(queued) == len(POWERS) + 1 and stored == 2  # and the organiser's; the PNG and the SVG
    assert all(len(row.raw) * 5 < len(mail) for row, mail in zip(queued, whole, strict=True))

    t.tick(at(0, 20, 10))
    reports = [m for m in t.sent() if m["X-Courier-Kind"] == "report"]
    assert sorted(m.as_bytes() for m in reports) == sorted(
        message_from_bytes(raw, policy=default).as_bytes() for raw in whole
    )
    pngs = {bytes(p.get_content()) for m in reports for p in m.walk() if p.get_content_type() == "image/png"}
    assert len(reports) == len(queued) and len(pngs) == 1 and pngs.pop().startswith(b"\x89PNG")
    journal = t.journal()
    try:
        assert journal.db.execute("SELECT count(*) FROM outbox_pictures").fetchone() == (0,)
    finally:
        journal.close()


def test_mail_queued_with_its_pictures_whole_is_still_sent_whole(tmp_path: Path) -> None:
    """A journal written before pictures were stored once holds each mail's maps in the mail."""
    t = _round_queued_not_sent(tmp_path)
    journal = t.journal()
    try:
        (row,) = [r for r in journal.queued() if r.kind == "report" and r.recipient.startswith("ed@")]
        old_style = journal.with_pictures(row.raw)
        with journal.transaction():
            journal.db.execute("UPDATE outbox SET raw = ? WHERE id = ?", (old_style, row.id))
            journal.db.execute("DELETE FROM outbox_pictures")
            journal.db.execute("DELETE FROM outbox WHERE status = 'queued' AND id != ?", (row.id,))
    finally:
        journal.close()

    t.tick(at(0, 20, 10))

    (sent,) = [m for m in t.sent("ed@players.test") if m["X-Courier-Kind"] == "report"]
    assert sent.as_bytes() == message_from_bytes(old_style, policy=default).as_bytes()
    journal = t.journal()
    try:
        (kept,) = journal.db.execute("SELECT raw FROM outbox WHERE id = ?", (row.id,)).fetchone()
    finally:
        journal.close()
    assert PICTURE_DROPPED in kept and len(kept) * 5 < len(old_style)


def test_a_mail_whose_picture_is_lost_is_refused_and_the_tick_goes_on(tmp_path: Path) -> None:
    t = _round_queued_not_sent(tmp_path)
    journal = t.journal()
    try:
        with journal.transaction():
            journal.db.execute("DELETE FROM outbox_pictures")
    finally:
        journal.close()

    problems = t.tick(at(0, 20, 10))

    assert problems and all("picture" in p and "missing from the journal" in p for p in problems)
    t.tick(at(0, 20, 15))
    assert not [m for m in t.sent("ed@players.test") if m["X-Courier-Kind"] == "report"]  # not tried again
    told = [m for m in t.sent("organiser@courier.test") if "cannot be delivered" in text_of(m)]
    assert len(told) == len(POWERS) + 1  # one for each report, the organiser's own too
