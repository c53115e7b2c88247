"""Talossan RISK welcomes through the tick (issue 14): every conqueror's welcome carries the
starting map, and one who did not get the land or colour it asked for is told what it got and why."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

from courier.backends.workbook import write_config
from tests.conftest import Table, text_of
from tests.helpers.clock import at
from tests.helpers.talossa import CONFIG

ROLES = {
    "Al": "Alvania; red; Abbavilla",
    "Bea": "Beatria; blue; Abbavilla",  # Al asked for it first
    "Cy": "Cyland; green; Atlantis",  # no such land
    "Di": "Dilonia; maroon; Ankara Street",  # too like Al's red on the map
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
        assert parts(message) == {
            "map-step-0.png": "image/png",
            "map-step-0.svg": "image/svg+xml",
            "deadline.ics": "text/calendar",  # the deadline for the player's calendar (issue 30)
        }
        assert "Talossa at the start: see the picture in this mail (map-step-0.svg attached)." in text_of(
            message
        )
        html = message.get_body(("html",))
        assert html is not None and '<img src="cid:' in str(html.get_content())


def test_a_conqueror_denied_its_land_is_told_which_land_it_got_and_why(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    al, bea, cy = (text_of(welcome(t, n)) for n in ("Al", "Bea", "Cy"))
    assert "You lead Alvania (red) and start in Abbavilla." in al
    assert "You asked for" not in al and "Beatria" not in al  # nobody reads another's welcome line
    assert "You lead Beatria (blue) and start in " in bea
    assert (
        "You asked for Abbavilla, but Alvania had already taken it, so a free land was drawn for you." in bea
    )
    assert (
        "You asked for Atlantis, but no land of the map is called “Atlantis”, so a free land was drawn" in cy
    )
    start = bea.split("start in ")[1].split(".")[0]
    assert f"# {start}: 1 unit;" in bea  # the land named is the one its order form lists


def test_a_newcomer_denied_its_land_is_told_why_and_so_is_everyone(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    rows = [{"name": n, "email": f"{n.lower()}@players.test", "role": r} for n, r in ROLES.items()]
    rows.append({"name": "Ed", "email": "ed@players.test", "role": "Edonia; purple; Ankara Street"})
    write_config(tmp_path / "truce-1.xlsx", CONFIG, rows)
    before = {n: len(t.sent(f"{n.lower()}@players.test")) for n in ROLES}
    t.tick(at(0, 9))
    ed = text_of(welcome(t, "Ed"))
    assert "You asked for Ankara Street, but Dilonia had already taken it, so a free land was drawn" in ed
    t.tick(at(0, 20, 5))  # the others hear it as news, in their next mail (the step's report)
    told = "(Ankara Street was Dilonia's, so a free land was drawn)"
    for n in ROLES:
        assert any(told in text_of(m) for m in t.sent(f"{n.lower()}@players.test")[before[n] :]), n


def test_a_conqueror_whose_colour_looks_like_anothers_is_told_and_drawn_apart(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    di = text_of(welcome(t, "Di"))
    assert "You lead Dilonia (yellow) and start in Ankara Street." in di
    assert (
        "You asked for the colour maroon, but it would look too much like Alvania's on the map, "
        "so you are drawn in yellow."
    ) in di
    assert "the colour" not in text_of(welcome(t, "Al"))
