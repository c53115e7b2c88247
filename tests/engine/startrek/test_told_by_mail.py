"""Star Trek by mail, what players and the organiser are told (issue 29): a public alliance reaches
everyone and History, never called secret, and nothing reaches the uninformed when the intelligence
window opens; the form offers no ability already used; a faction with centres but no units is
heard (its abilities count); the organiser reads each line once; a dislodged ship says so."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml
from openpyxl import load_workbook

from engine.request import resolve_request
from engine.startrek import STARTREK, StarTrekState
from tests.conftest import last_text, text_of, write
from tests.helpers.clock import at
from tests.helpers.paths import DATA
from tests.helpers.startrek import FACTIONS, board, table
from tests.helpers.startrek_state import change_state


def mails(t: Any) -> dict[str, int]:
    return {n: len(t.sent(f"{n.lower()}@players.test")) for n in FACTIONS}


def test_a_public_alliance_is_told_to_everyone_and_kept_on_history(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Fay", "ally openly with klingon\nship earth - betazed")
    write(t, "Kor", "ally openly with federation")
    write(t, "Rom", "tal shiar klingon")
    t.tick(at(0, 9))
    before = mails(t)
    t.tick(at(0, 20, 5))  # the window opens: only the informed hear anything
    assert {n for n, count in mails(t).items() if count > before[n]} == {"Rom", "Cat"}
    assert "alliance of" not in last_text(t, "Cat").lower()

    t.tick(at(0, 22, 5))  # the window closes: the turn and the alliance, for everyone
    for name in FACTIONS:
        report = last_text(t, name)
        assert "Public alliance of the" in report and "with the Federation: confirmed." in report, name
        assert "Secret alliance" not in report and "Alliance of the" not in report, name
    history = load_workbook(tmp_path / "truce-1.xlsx")["History"]
    cells = [str(c) for row in history.iter_rows(values_only=True) for c in row if c]
    assert any("Public alliance of the" in c for c in cells)


def test_the_federation_form_offers_immunity_only_until_it_is_used(tmp_path: Path) -> None:
    t = table(tmp_path, intelligence_window="0")
    t.tick(at(0, 8, 5))
    assert "# Your ability: diplomatic immunity (once per game)\n" in last_text(t, "Fay")
    write(t, "Fay", "immunity earth\nship earth H")
    t.tick(at(0, 9))
    t.tick(at(0, 20, 5))
    form = last_text(t, "Fay")
    assert "# Your ability: diplomatic immunity (once per game): used already, no longer available" in form
    assert "# Your ability: Tal Shiar (once per game)\n" in last_text(t, "Rom")


def _ferengi_without_ships(state: StarTrekState) -> StarTrekState:
    position = state.position
    units = tuple(u for u in position.units if u.power != "Ferengi")
    return replace(state, position=replace(position, units=units), latinum=40)


def test_a_faction_with_centres_and_no_units_is_heard(tmp_path: Path) -> None:
    t = table(tmp_path, intelligence_window="0")
    t.tick(at(0, 8, 5))
    change_state(t, _ferengi_without_ships)
    write(t, "Fez", "sabotage federation tellar\nally with romulan")
    write(t, "Fay", "ship tellar - earth\nship earth - betazed")
    t.tick(at(0, 9))
    receipt = last_text(t, "Fez")
    assert "sabotage federation tellar" in receipt.split("now stand for")[1]
    assert "No orders are needed" not in receipt
    t.tick(at(0, 20, 5))
    report = last_text(t, "Fez")
    assert "Federation: ship tellar - earth — fails (sabotaged)" in report
    assert "Secret alliance of the Ferengi with the Romulan: registered." in report
    assert "Ferengi latinum: +3, now 13." in report
    assert "# Orders for the Ferengi, Fall 2370" in report  # its form: abilities to use, no unit


def test_the_organiser_reads_each_line_once(tmp_path: Path) -> None:
    t = table(tmp_path, fog_of_war="yes", intelligence_window="0")
    t.tick(at(0, 8, 5))
    write(t, "Kor", "ship qonos - organia\nship khitomer - rigel\nship tygokor - archanis")
    write(t, "Fay", "ship earth - betazed\nship rigel - khitomer\nship andoria - archanis")
    t.tick(at(0, 9))
    t.tick(at(0, 20, 5))
    report = text_of(t.sent("organiser@courier.test")[-1])
    lines = [line for line in report.splitlines() if line.startswith("  - ")]
    assert len(lines) == len(set(lines))
    assert "Federation: ship andoria - archanis — fails: bounced (tygokor)" in report
    assert "Federation: ship andoria - archanis — fails (bounced)\n" not in report
    assert "Federation: ship andoria - archanis — fails (bounced)\n" in last_text(t, "Fay")  # fogged


CASES: list[dict[str, Any]] = yaml.safe_load((DATA / "startrek" / "reasons.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_known_reasons_through_courier_resolve(case: dict[str, Any]) -> None:
    state = board([tuple(u) for u in case["units"]])
    players = {f: p for p, f in state.factions.items()}
    orders = {players[f]: text for f, text in case["orders"].items()}
    answer = resolve_request(STARTREK, {"state": STARTREK.to_json(state), "orders": orders, "seed": 1})
    told = {
        e["order"]: e["result"] + (f" ({e['reason']})" if e["reason"] else "")
        for e in answer["events"]
        if e["event"] == "OrderResolved"
    }
    assert {line: told[line] for line in case["expect"]} == case["expect"]
