"""Veneer as a group meets it by mail (issue 29): a faction the Role column fixes is nobody else's
choice, a nickname from the Players tab names its player in orders, `pass` is read as an order, the
form offers only purchases the player can make, and the coins chart agrees with the mail's Ledger."""

from __future__ import annotations

import dataclasses
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from engine.veneer import VENEER, VeneerState
from engine.veneer import _ruleset as ruleset
from engine.veneer._setup import new_game
from tests.conftest import Table, address, text_of, write
from tests.helpers.clock import at
from tests.helpers.veneer import CONFIG, PLAYERS, current

PILE = ("Tithe", "Arson")  # turn 1: a law to vote on, then Agatha's muster


def seated(root: Path, **columns: dict[str, str]) -> Table:
    """The five players, with Players-tab columns (``role={"Agatha": "Merchants"}``)."""
    rows = [{"name": n, "email": address(n)} for n in PLAYERS]
    for column, values in columns.items():
        for row in rows:
            row[column] = values.get(row["name"], "")
    return Table(root, CONFIG, rows)


@pytest.fixture
def rigged(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seat dealt the Diplomats only (no surprises), Tithe then Arson on top of the pile."""

    def setup(players: Sequence[str], options: Any, rng: random.Random) -> VeneerState:
        state = new_game(players, options, rng)
        plain = tuple(dataclasses.replace(s, dealt=("Diplomats",)) for s in state.seats)
        rest = tuple(c for c in state.pile if c not in PILE)
        return dataclasses.replace(state, seats=plain, pile=PILE + rest)

    monkeypatch.setattr(ruleset, "new_game", setup)


def step(t: Table, orders: dict[str, str] | None = None) -> VeneerState:
    _, deadline, _ = current(t)
    assert deadline is not None
    for player, text in (orders or {}).items():
        write(t, player, text)
    t.tick(deadline + timedelta(minutes=1))
    return current(t)[0]


def receipt(t: Table, player: str, text: str) -> str:
    """``text`` mailed by ``player`` before the deadline, and the receipt it gets."""
    write(t, player, text)
    t.tick(t.clock + timedelta(minutes=5))
    mail = t.sent(address(player))[-1]
    assert mail["X-Courier-Kind"] == "receipt"
    return text_of(mail)


def to_agathas_muster(t: Table) -> VeneerState:
    t.tick(at(0, 8, 5))
    step(t)  # every faction by default
    state = step(t, {"Agatha": "vote no"})  # Tithe fails
    assert (state.stage, VENEER.awaiting(state)) == ("muster", frozenset({"Agatha"}))
    return state


def test_a_faction_the_role_column_fixes_is_dealt_to_nobody_else(tmp_path: Path) -> None:
    t = seated(tmp_path, role={"Agatha": "Merchants"})
    t.tick(at(0, 8, 5))
    welcomes = {p: text_of(t.sent(address(p))[0]) for p in PLAYERS}
    assert "# Your faction: Merchants" in welcomes["Agatha"]
    assert [p for p in PLAYERS[1:] if "Merchants" in welcomes[p]] == []
    step(t)  # the others take their first faction: nobody else plays the Merchants
    merchants = [s.name for s in current(t)[0].seats if s.faction == "Merchants"]
    assert merchants == ["Agatha"]


@pytest.mark.parametrize("seed", range(40))
def test_a_fixed_faction_is_never_dealt_whatever_the_seed(seed: int) -> None:
    roles = {"Barney": "Merchants", "Emmett": "bankers"}
    state = VENEER.setup(PLAYERS, {"roles": roles}, random.Random(seed))
    dealt = {s.name: s.dealt for s in state.seats}
    assert dealt["Barney"] == ("Merchants",) and dealt["Emmett"] == ("Bankers",)
    others = [f for name in ("Agatha", "Charles", "Darcy") for f in dealt[name]]
    assert len(others) == len(set(others)) == 9 and not {"Merchants", "Bankers"} & set(others)


def test_a_nickname_names_its_player_in_orders(tmp_path: Path, rigged: None) -> None:
    t = seated(tmp_path, nickname={"Darcy": "Darce"})
    to_agathas_muster(t)
    read = receipt(t, "Agatha", "reassign 1 to attackers\nattack Darce with 1")
    assert "attack Darcy with 1" in read and "no player called" not in read
    step(t)
    assert "Agatha attacks Darcy with 1 attacker." in text_of(t.sent(address("Darcy"))[-1])


def test_pass_is_read_as_an_order_and_stands(tmp_path: Path, rigged: None) -> None:
    t = seated(tmp_path)
    to_agathas_muster(t)
    read = receipt(t, "Agatha", "Hi all,\npass\nAgatha")
    assert "No orders could be read" not in read
    assert re.search(r"Understood from this mail:\n\s+pass\n", read)
    assert re.search(r"orders that now stand for .*:\n\s+pass\n", read)
    state = step(t)
    assert (state.stage, state.seat("Agatha").attackers) == ("end", 0)  # nothing bought, no attack


def form_of(mail: EmailMessage) -> list[str]:
    return [line for line in text_of(mail).splitlines() if line.startswith("#")]


def suggested(form: Sequence[str]) -> list[str]:
    """The orders a form's purchase line offers: ``# buy 1 attacker | buy 1 defender   (…)``."""
    line = next((x for x in form if x.startswith("# buy ")), "#")
    return [o.strip() for o in line.removeprefix("#").split("(")[0].split("|") if o.strip()]


def test_the_form_offers_only_purchases_the_player_can_make(tmp_path: Path, rigged: None) -> None:
    t = seated(tmp_path)
    state = to_agathas_muster(t)
    assert (state.seat("Agatha").coins, state.seat("Agatha").defenders) == (4, 1)  # 1 troop at 3 coins
    form = form_of(t.sent(address("Agatha"))[-1])
    offers = suggested(form)
    assert offers == ["buy 1 attacker", "buy 1 defender", "reassign 1 to attackers"]
    for offer in offers:  # every one of them is taken as written
        assert VENEER.parse(state, "Agatha", offer).errors == ()
    step(t, {"Agatha": "buy 1 defender"})  # 1 coin left: her end phase offers no purchase
    form = form_of(t.sent(address("Agatha"))[-1])
    assert suggested(form) == []
    assert "# You cannot buy a troop now: it costs 3 coins and you must keep 1." in form


SVG = "{http://www.w3.org/2000/svg}"


def chart(mail: EmailMessage) -> dict[str, list[int]]:
    svg = next(p.get_content() for p in mail.walk() if p.get_content_type() == "image/svg+xml")
    root = ET.fromstring(svg if isinstance(svg, str) else svg.decode())
    return {
        str(line.get("data-player")): [int(v) for v in str(line.get("data-values")).split(",")]
        for line in root.iter(f"{SVG}polyline")
    }


def ledger_coins(mail: EmailMessage) -> dict[str, int]:
    rows = re.findall(r"^  (\w+)\s+\w+\s+(\d+)\s", text_of(mail), re.MULTILINE)
    return {name: int(coins) for name, coins in rows if name in PLAYERS}


def test_the_coins_chart_ends_with_the_coins_the_mail_reports(tmp_path: Path, rigged: None) -> None:
    t = seated(tmp_path)
    to_agathas_muster(t)
    step(t, {"Agatha": "buy 1 attacker"})  # 4 coins → 1, in the middle of her turn
    mail = t.sent(address("Agatha"))[-1]
    ledger = ledger_coins(mail)
    assert ledger["Agatha"] == 1
    assert {name: values[-1] for name, values in chart(mail).items()} == ledger
    assert chart(mail)["Agatha"] == [4, 1]  # as turn 1 began, and now


def _war_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seat dealt the Diplomats only, Declaration of War on top of the pile."""

    def setup(players: Sequence[str], options: Any, rng: random.Random) -> VeneerState:
        state = new_game(players, options, rng)
        plain = tuple(dataclasses.replace(s, dealt=("Diplomats",)) for s in state.seats)
        rest = tuple(c for c in state.pile if c != "Declaration of War")
        return dataclasses.replace(state, seats=plain, pile=("Declaration of War", *rest))

    monkeypatch.setattr(ruleset, "new_game", setup)


def test_an_attack_the_player_declared_under_a_forced_turn_is_not_called_forced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Declaration of War makes Agatha attack; she names Barney herself. Everyone's mail says she
    attacks Barney, not that she "was forced to attack" him (that is the attack the rule makes for a
    player who declares none); her report's top line is one sentence."""
    _war_first(monkeypatch)
    t = seated(tmp_path)
    t.tick(at(0, 8, 5))
    step(t)  # every faction by default; Agatha flips Declaration of War
    state = step(t, {p: "vote yes" for p in PLAYERS})
    assert (state.stage, state.forced) == ("muster", True)
    step(t, {"Agatha": "reassign 1 to attackers\nattack Barney with 1"})
    told = [text_of(t.sent(address(p))[-1]) for p in PLAYERS]
    assert all("Agatha attacks Barney with 1 attacker." in text for text in told)
    assert not any("was forced" in text for text in told)
    step(t)  # Barney's defender intercepts by default
    top = text_of(t.sent(address("Agatha"))[-1]).split("\n\n")[1]
    assert top.startswith("You have ") and "; your attack on Barney destroyed 0 coins" in top
