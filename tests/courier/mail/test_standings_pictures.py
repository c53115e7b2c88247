"""Truce and Veneer: a standings chart (coins per player over the rounds) in the report and the
game-over mail, built from public numbers only (the Ledger's), the same for every viewer."""

from __future__ import annotations

import dataclasses
import random
import xml.etree.ElementTree as ET
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

from engine.core import Submission
from engine.truce import TRUCE
from engine.veneer import VENEER
from tests.conftest import Table
from tests.helpers.clock import at
from tests.helpers.veneer import CONFIG as VENEER_CONFIG

SVG = "{http://www.w3.org/2000/svg}"


def series(svg: str) -> dict[str, list[int]]:
    """Each player's line in the chart: name → the values it plots."""
    root = ET.fromstring(svg)
    return {
        str(line.get("data-player")): [int(v) for v in str(line.get("data-values")).split(",")]
        for line in root.iter(f"{SVG}polyline")
    }


def attached_svg(message: EmailMessage) -> str | None:
    for part in message.walk():
        if part.get_content_type() == "image/svg+xml":
            content = part.get_content()
            return content if isinstance(content, str) else content.decode()
    return None


def kinds(message: EmailMessage) -> list[str]:
    return [part.get_content_type() for part in message.walk()]


TRUCE_CONFIG = {
    "game": "truce",
    "rounds": "2",
    "timezone": "UTC",
    "start": "2026-12-01 08:00",
    "deadlines": "20:00",
    "reminders": "none",
}


def test_truce_reports_and_the_game_over_mail_chart_supply_round_by_round(tmp_path: Path) -> None:
    players = ["Agatha", "Barney", "Celeste"]
    t = Table(tmp_path, TRUCE_CONFIG, [{"name": n, "email": f"{n.lower()}@players.test"} for n in players])
    t.tick(at(0, 8, 5))
    t.mail("agatha@players.test", "loot")  # the Stash (1) is hers: 4 coins after round 1
    t.mail("barney@players.test", "attack Celeste")  # Celeste defends alone: 0 vs 0, it fails
    t.mail("celeste@players.test", "defend")
    t.tick(at(0, 20, 5))
    report = t.sent("barney@players.test")[-1]
    assert report["X-Courier-Kind"] == "report"
    assert "image/png" in kinds(report)
    svg = attached_svg(report)
    assert svg is not None and "Supply after round 1 of 2" in svg
    assert series(svg) == {"Agatha": [3, 4], "Barney": [3, 3], "Celeste": [3, 3]}

    t.tick(at(1, 20, 5))  # round 2: everybody passes
    over = t.sent("celeste@players.test")[-1]
    assert over["X-Courier-Kind"] == "game_over"
    assert "image/png" in kinds(over)
    svg = attached_svg(over)
    assert svg is not None and series(svg) == {"Agatha": [3, 4, 4], "Barney": [3, 3, 3], "Celeste": [3, 3, 3]}


def test_a_truce_chart_shows_no_spoils_a_gift_put_aside_and_is_the_same_for_everybody() -> None:
    names = ["Agatha", "Barney", "Celeste"]
    state = TRUCE.setup(names, {"rounds": 3}, random.Random(1))
    after = TRUCE.resolve(state, {n: Submission(n, ("pass",)) for n in names}, random.Random(1)).state
    gifted, _ = TRUCE.immediate(after, TRUCE.parse(after, "Agatha", "gift 2 to Barney"))
    assert gifted.player("Barney").spoils == 2  # private until the round is banked
    pictures = [TRUCE.pictures(s, v) for s in (after, gifted) for v in names]
    assert all(p == pictures[0] for p in pictures) and len(pictures[0]) == 1
    assert TRUCE.pictures(after, None) == []  # no organiser report for a chart the Ledger already shows


def test_a_veneer_chart_shows_coins_per_turn_and_nothing_private() -> None:
    names = ["Agatha", "Barney", "Charles", "Darcy"]
    state = VENEER.setup(names, {}, random.Random(3))
    for step in range(60):  # every phase by default: turns go by
        awaited = sorted(VENEER.awaiting(state))
        submissions = {p: VENEER.default(state, p, random.Random(step)) for p in awaited}
        state = VENEER.resolve(state, submissions, random.Random(step)).state
        if state.turn >= 3:
            break
    picture, table = VENEER.pictures(state, "Agatha")  # the chart, then the table (issue 30)
    assert VENEER.pictures(state, None) == []
    lines = series(picture.svg)
    assert list(lines) == names
    assert [lines[n][-1] for n in names] == [state.seat(n).coins for n in names]
    assert all(len(v) == state.turn for v in lines.values())
    # hands, targets and dealt factions are private: two states differing only there draw alike
    other = dataclasses.replace(
        state,
        seats=tuple(dataclasses.replace(s, hand=(), targets=(), dealt=()) for s in state.seats),
    )
    for viewer in names:
        assert VENEER.pictures(other, viewer) == VENEER.pictures(state, viewer) == [picture, table]
    # the chosen faction is public (the Ledger's) and on the table, never on the chart
    faceless = dataclasses.replace(
        state, seats=tuple(dataclasses.replace(s, faction="") for s in state.seats)
    )
    assert VENEER.pictures(faceless, "Agatha")[0] == picture


def test_veneer_reports_carry_the_standings_chart(tmp_path: Path) -> None:
    players = ["Agatha", "Barney", "Charles", "Darcy"]
    t = Table(tmp_path, VENEER_CONFIG, [{"name": n, "email": f"{n.lower()}@players.test"} for n in players])
    when = at(0, 8, 5)
    charts: list[str] = []
    for _ in range(40):  # nobody writes: every phase falls to its default when its clock runs out
        t.tick(when)
        when += timedelta(hours=6, minutes=5)
        charts = [s for m in t.sent() if (s := attached_svg(m)) and "Veneer: coins" in s]
        if charts:
            break
    assert charts, "no report carried a chart"
    lines = series(charts[-1])
    assert set(lines) == set(players) and all(len(v) >= 2 for v in lines.values())
