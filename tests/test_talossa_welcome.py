"""Talossan RISK welcomes through the tick (issue 14): every conqueror's welcome carries the
starting map, and one who did not get the land (or colour) it asked for is told what it got and why."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

from tests.conftest import Table, text_of
from tests.test_talossa_game import CONFIG, at

ROLES = {
    "Al": "Alvania; red; Abbavilla",
    "Bea": "Beatria; blue; Abbavilla",  # Al asked for it first
    "Cy": "Cyland; green; Atlantis",  # no such land
    "Di": "Dilonia; yellow; Ankara Street",
}


def table(root: Path, roles: dict[str, str] = ROLES) -> Table:
    rows = [{"name": n, "email": f"{n.lower()}@players.test", "role": r} for n, r in roles.items()]
    return Table(root, CONFIG, rows)


def welcome(t: Table, name: str) -> EmailMessage:
    (first, *_) = t.sent(f"{name.lower()}@players.test")
    assert first["X-Courier-Kind"] == "welcome"
    return first


def parts(message: EmailMessage) -> dict[str, str]:
    return {str(p.get_filename()): p.get_content_type() for p in message.walk() if p.get_filename()}


def test_every_welcome_carries_the_starting_map(tmp_path: Path) -> None:
    t = table(tmp_path)
    assert t.tick(at(0, 8, 5)) == []
    for name in ROLES:
        message = welcome(t, name)
        assert parts(message) == {"map-step-0.png": "image/png", "map-step-0.svg": "image/svg+xml"}
        assert "Talossa at the start: see the picture in this mail (map-step-0.svg attached)." in text_of(
            message
        )
        html = message.get_body(("html",))
        assert html is not None and '<img src="cid:' in str(html.get_content())
