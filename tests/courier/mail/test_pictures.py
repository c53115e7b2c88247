"""Maps in mail: the engine's SVG becomes an inline PNG in the HTML part, with the SVG attached."""

from __future__ import annotations

import sys
from collections import OrderedDict
from datetime import UTC, datetime
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

import pytest

from courier.mail.compose import MailContext, MailPicture, ReportContext, compose, mail_bytes
from courier.mail.pictures import mail_pictures, render_png
from courier.mail.render import make_environment
from engine.core import Picture
from tests.conftest import Table
from tests.helpers.clock import at
from tests.helpers.monarchs import CONFIG as MONARCHS_CONFIG
from tests.helpers.monarchs import MONARCHS

SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60">'
    '<rect x="5" y="5" width="50" height="50" fill="#c33"/><text x="60" y="35">A5</text></svg>'
)


class Drawn:
    def pictures(self, state: object, viewer: str | None) -> list[Picture]:
        return [Picture("map-turn-1", f"Turn 1, {viewer or 'all'}", SVG)]


def test_svg_renders_to_png() -> None:
    png = render_png(SVG)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 100


def _context(*lines: str) -> ReportContext:
    mail = MailContext(
        game_id="g",
        game_title="Game",
        phase_label="Turn 1",
        recipient_name="Red",
        recipient_email="red@x.test",
    )
    return ReportContext(mail=mail, public_lines=list(lines))


def report(key: str) -> bytes:
    message = compose(
        make_environment(),
        "report",
        _context("Red won E3."),
        sender="c@x.test",
        reply_to=None,
        to="red@x.test",
        message_key=key,
        domain="x.test",
        date=datetime(2026, 12, 1, tzinfo=UTC),
        pictures=mail_pictures(Drawn(), None, "Red"),
    )
    return message.as_bytes()


def test_report_shows_the_map_inline_and_attaches_the_svg() -> None:
    message = message_from_bytes(report("k1"), policy=default)
    parts = {part.get_content_type(): part for part in message.walk()}
    png, html = parts["image/png"], parts["text/html"]
    cid = str(png["Content-ID"]).strip("<>")
    assert f"cid:{cid}" in html.get_content()
    assert parts["image/svg+xml"].get_filename() == "map-turn-1.svg"
    assert "Turn 1, Red" in html.get_content()
    assert "map-turn-1.svg attached" in parts["text/plain"].get_content()


def test_the_same_report_gives_the_same_bytes() -> None:
    assert report("k1") == report("k1")
    assert report("k1") != report("k2")


def test_the_report_is_written_as_the_standard_library_writes_it() -> None:
    """Pictures are attached and the mail flattened by quicker paths (base64 made once per picture,
    lines written at once); the bytes are those of ``add_related``/``add_attachment`` and
    ``as_bytes``, across several lines of base64 and either kind of line in the bodies."""
    big = Picture("map-big", "Big", SVG.replace("A5", "A5 " * 400))
    pictures = [
        MailPicture(p.name, p.title, render_png(p.svg), p.svg) for p in (big, *Drawn().pictures(0, "Red"))
    ]
    ctx = _context("Red won E3.", "a line\r\nwith a CR")
    arguments: dict[str, Any] = dict(
        sender="c@x.test",
        reply_to=None,
        to="r@x.test",
        message_key="k",
        domain="x.test",
        date=datetime(2026, 12, 1, tzinfo=UTC),
    )
    quick = compose(make_environment(), "report", ctx, pictures=pictures, **arguments)
    plain = compose(make_environment(), "report", ctx, **arguments)
    html = plain.get_body(("html",))
    assert isinstance(html, EmailMessage)
    for picture in pictures:
        cid = next(str(p["Content-ID"]) for p in quick.walk() if p.get_filename() == f"{picture.name}.png")
        html.add_related(
            picture.png,
            maintype="image",
            subtype="png",
            cid=cid,
            disposition="inline",
            filename=f"{picture.name}.png",
        )
    for picture in pictures:
        plain.add_attachment(
            picture.svg.encode(), maintype="image", subtype="svg+xml", filename=f"{picture.name}.svg"
        )
    bodies = [p for p in quick.walk() if p.get_content_maintype() == "text"]
    for mine, theirs in zip(
        bodies, (p for p in plain.walk() if p.get_content_maintype() == "text"), strict=True
    ):
        theirs.set_payload(mine.get_payload())  # the bodies name the pictures; the rest is the point
    for number, part in enumerate(p for p in plain.walk() if p.is_multipart()):
        part.set_boundary(str(list(p for p in quick.walk() if p.is_multipart())[number].get_boundary()))

    assert mail_bytes(quick) == plain.as_bytes() == quick.as_bytes() == quick.as_bytes(policy=default)
    odd = EmailMessage()
    odd.set_payload("a CRLF\r\na CR\ran LF\n")
    assert mail_bytes(odd) == odd.as_bytes() == b"\na CRLF\na CR\nan LF\n"
    assert message_from_bytes(mail_bytes(quick), policy=default).get_body(("html",)) is not None


def _monarchs(root: Path) -> Table:
    rows = [{"name": n, "email": f"{n.lower()}@players.test", "role": r} for n, r in MONARCHS.items()]
    table = Table(root, MONARCHS_CONFIG, rows)
    table.tick(at(0, 8, 5))
    return table


def test_a_due_rounds_maps_are_drawn_ahead_by_helpers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tick forecasts every map its rounds will mail (three nations' views and the organiser's)
    and helper processes draw them all: the tick draws none itself."""
    from courier.mail import pictures

    table = _monarchs(tmp_path)
    drawn_here: list[str] = []
    monkeypatch.setattr(pictures, "_cores", lambda: 2)
    handed: list[list[str]] = []

    def draw_here(svg: str) -> bytes:
        drawn_here.append(svg)
        return render_png(svg)

    def hand(svgs: list[str]) -> None:
        handed.append(svgs)
        pictures.predraw(svgs)

    monkeypatch.setattr(pictures, "render_png", draw_here)
    monkeypatch.setattr("courier.tick.rounds.predraw", hand)
    table.tick(at(0, 20, 5))

    reports = [m for m in table.sent() if m["X-Courier-Kind"] == "report"]
    pngs = {bytes(p.get_content()) for m in reports for p in m.walk() if p.get_content_type() == "image/png"}
    assert len(reports) == 4 and len(pngs) == 4 and all(png.startswith(b"\x89PNG") for png in pngs)
    assert drawn_here == []
    assert len(set(handed[0])) == 4  # the forecast, before the round was resolved


def test_the_organiser_gets_the_unfogged_map_each_turn(tmp_path: Path) -> None:
    table = _monarchs(tmp_path)
    table.tick(at(0, 20, 5))
    (report,) = [m for m in table.sent("organiser@courier.test") if m["X-Courier-Kind"] == "report"]
    kinds = [part.get_content_type() for part in report.walk()]
    assert "image/png" in kinds and "image/svg+xml" in kinds
    svg = next(p for p in report.walk() if p.get_content_type() == "image/svg+xml").get_content()
    assert "all nations" in (svg if isinstance(svg, str) else svg.decode())


def test_players_who_see_the_same_map_share_one_rendering(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str] = []

    def render(svg: str) -> bytes:
        drawn.append(svg)
        return b"\x89PNG " + svg.encode()

    class Fogged:  # Blue's map is fogged; everyone else (and the organiser) sees the same one
        def pictures(self, state: object, viewer: str | None) -> list[Picture]:
            text = "fogged for Blue" if viewer == "Blue" else "open map"
            return [Picture("map", "Turn 1", SVG.replace("A5", text))]

    monkeypatch.setattr("courier.mail.pictures.render_png", render)
    for viewer in ("Red", "Green", "Blue", None):
        (picture,) = mail_pictures(Fogged(), None, viewer)
        assert picture.png == b"\x89PNG " + picture.svg.encode()
    assert sorted(drawn) == [SVG.replace("A5", "fogged for Blue"), SVG.replace("A5", "open map")]


class ManyViews:
    """A game whose every viewer sees its own map (fog of war)."""

    def pictures(self, state: object, viewer: str | None) -> list[Picture]:
        return [Picture("map", "Map", SVG.replace("A5", f"A5 {viewer}"))]


@pytest.mark.parametrize("helper", ["courier.mail.render_worker", "no.such.module"])
def test_maps_are_drawn_ahead_by_helper_processes_and_read_the_same(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, helper: str
) -> None:
    """Helper processes draw a tick's maps ahead of its mail; a helper that fails leaves the mail to
    draw its maps itself. The pictures are the same either way, and no helper outlives the tick."""
    from courier.mail import pictures

    monkeypatch.setattr(pictures, "WORKER", [sys.executable, "-m", helper])
    monkeypatch.setattr(pictures, "_rendered", OrderedDict())
    monkeypatch.setattr(pictures, "_cores", lambda: 2)
    viewers: list[str | None] = ["Red", "Green", "Blue", None]
    try:
        pictures.predraw(pictures.map_svgs(ManyViews(), None, viewers))
        assert len(pictures._pending) == 4
        mailed = [mail_pictures(ManyViews(), None, viewer)[0] for viewer in viewers]
    finally:
        helpers = list(pictures._helpers)
        pictures.end_drawing()

    assert [m.png for m in mailed] == [render_png(m.svg) for m in mailed]
    assert ("did not draw a map" in caplog.text) == (helper == "no.such.module")
    assert len(helpers) == 2 and all(h.process.returncode is not None for h in helpers)
    assert not pictures._pending


def test_a_sent_reports_pictures_leave_the_journal_its_text_stays(tmp_path: Path) -> None:
    """Maps are most of a report's bytes: once sent, the journal's copy keeps the text (for a player's
    complaint) and says where each picture was; the mail that went out carried them whole."""
    from courier.tick.send import PICTURE_DROPPED

    table = _monarchs(tmp_path)
    table.tick(at(0, 20, 5))
    (sent,) = [m for m in table.sent("organiser@courier.test") if m["X-Courier-Kind"] == "report"]
    journal = table.journal()
    try:
        (kept,) = journal.db.execute(
            "SELECT raw FROM outbox WHERE kind = 'report' AND recipient LIKE '%organiser%'"
        ).fetchone()
    finally:
        journal.close()

    copy = message_from_bytes(kept, policy=default)
    parts = {p.get_content_type(): p for p in copy.walk()}
    assert parts["text/plain"].get_content() == next(
        p.get_content() for p in sent.walk() if p.get_content_type() == "text/plain"
    )
    assert PICTURE_DROPPED in kept and b"\x89PNG" not in kept and b"iVBORw0KGgo" not in kept
    assert [p.get_filename() for p in copy.walk() if p.get_content_maintype() == "image"] == [
        p.get_filename() for p in sent.walk() if p.get_content_maintype() == "image"
    ]
    assert len(kept) * 5 < len(sent.as_bytes())
