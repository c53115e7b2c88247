"""Privacy of the new mail: press is seen by its addressees only (and never on the sheet); anonymous
press hides its author from the addressee even in the headers; a replaced player stops getting the
seat's private mail at once, and the substitute gets it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import BASE_CONFIG, PLAYERS, Table, address, text_of
from tests.helpers.clock import at
from tests.helpers.confirm import TRUSTED_PASS, trust_the_mail_server
from tests.helpers.privacy import Seen, what_everyone_sees


def _write(table: Table, name: str, text: str) -> None:
    table.order(name, text)


def _play(root: Path, orders: dict[str, str], config: dict[str, str] | None = None) -> Seen:
    rows = [{"name": n, "email": address(n)} for n in PLAYERS]
    table = Table(root, {**BASE_CONFIG, **(config or {})}, rows)
    return what_everyone_sees(
        table, orders, names=PLAYERS, write=_write, opening=at(0, 8, 5), before_deadline=at(0, 20, 5)
    )


def test_press_is_seen_by_its_addressees_only(tmp_path: Path) -> None:
    one = _play(tmp_path / "a", {"Agatha": "press to Barney: attack Celeste"})
    two = _play(tmp_path / "b", {"Agatha": "press to Barney: attack Darcy"})
    assert one[0] == two[0], "the sheet depends on press"
    assert one[1]["Celeste"] == two[1]["Celeste"] and one[1]["Darcy"] == two[1]["Darcy"]
    assert one[1]["Barney"] != two[1]["Barney"]


def test_anonymous_press_hides_its_author_even_in_the_headers(tmp_path: Path) -> None:
    anonymous = {"press": "anonymous"}
    one = _play(tmp_path / "a", {"Agatha": "press to Barney: watch Darcy"}, anonymous)
    two = _play(tmp_path / "b", {"Celeste": "press to Barney: watch Darcy"}, anonymous)
    assert one[1]["Barney"] == two[1]["Barney"], "Barney's mail (headers included) tells who wrote"
    assert one[1]["Darcy"] == two[1]["Darcy"]
    press = next(m for m in one[1]["Barney"] if "X-Courier-Kind: press" in m)
    assert "agatha" not in press.lower() and "someone (anonymous)" in press


def test_attributed_press_never_shows_the_authors_address(tmp_path: Path) -> None:
    one = _play(tmp_path, {"Agatha": "press to Barney: hello"})
    press = next(m for m in one[1]["Barney"] if "X-Courier-Kind: press" in m)
    assert "Press from Agatha" in press and address("Agatha") not in press


def test_a_replaced_player_gets_no_more_of_the_seats_mail(make_table: Callable[..., Table]) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    trust_the_mail_server(t)
    command = "replace Darcy with emmett@players.test"
    t.mail("organiser@courier.test", command, subject="[truce-1] c", headers=TRUSTED_PASS)
    t.tick(at(0, 9))
    before = t.sent("Darcy")
    assert "handed to a substitute" in text_of(before[-1])
    t.order("Agatha", "press to Darcy: are you there?")
    t.tick(at(0, 19, 30))  # reminders go
    t.tick(at(0, 20, 5))  # the round is resolved
    assert len(t.sent("Darcy")) == len(before)
    kinds = [str(m["X-Courier-Kind"]) for m in t.sent("emmett@players.test")]
    assert {"welcome", "press", "reminder", "report"} <= set(kinds)


def test_anonymous_press_to_all_names_nobody_by_its_addressees(tmp_path: Path) -> None:
    # Issue 27: the list of addressees left its author out, so every reader could tell who wrote.
    anonymous = {"press": "anonymous"}
    one = _play(tmp_path / "a", {"Agatha": "press to all: watch Darcy"}, anonymous)
    two = _play(tmp_path / "b", {"Celeste": "press to all: watch Darcy"}, anonymous)
    for reader in ("Barney", "Darcy"):
        assert one[1][reader] == two[1][reader], f"{reader}'s mail (headers included) tells who wrote"
    press = next(m for m in one[1]["Agatha"] if "X-Courier-Kind: press" in m)
    assert "to Agatha, Barney, Celeste, Darcy" in press  # the author's own copy, as everyone's


def test_a_reply_to_press_never_reaches_whoever_took_the_authors_seat(
    make_table: Callable[..., Table],
) -> None:
    t = make_table({"press": "anonymous"})
    t.tick(at(0, 8, 5))
    t.order("Darcy", "press to Barney: between us, I attack Agatha")
    t.tick(at(0, 9))
    press = [m for m in t.sent("Barney") if m["X-Courier-Kind"] == "press"][-1]
    trust_the_mail_server(t)
    command = "replace Darcy with emmett@players.test"
    t.mail("organiser@courier.test", command, subject="[truce-1] c", headers=TRUSTED_PASS)
    t.tick(at(0, 10))
    reply = {"In-Reply-To": str(press["Message-ID"])}
    t.order("Barney", "Count me in, Darcy.", subject=f"Re: {press['Subject']}", headers=reply)
    t.tick(at(0, 11))
    assert not any("Count me in" in text_of(m) for m in t.sent("emmett@players.test"))
    assert not any("Count me in" in text_of(m) for m in t.sent("Darcy"))
    told = text_of(t.sent("Barney")[-1])
    assert "Your reply was not relayed: the press you answered can no longer be answered" in told
    assert "no longer in the game" not in told and "Darcy" not in told and "Emmett" not in told.title()
