"""Veneer's order lines: every form of the issue read to its canonical text (which reads back to
itself), typos answered with a quote and a suggestion, and legality per phase."""

from __future__ import annotations

from typing import Any

import pytest

from courier.mail.render import make_environment, render_event
from engine.veneer import VENEER, Offer
from engine.veneer import _events as ev
from engine.veneer._orders import Order, read_order
from engine.veneer._parse import names_of
from tests.helpers.paths import DATA
from tests.helpers.veneer import PLAYERS, scene

CASES = [
    line
    for line in (DATA / "veneer" / "orders.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]


@pytest.mark.parametrize("case", CASES)
def test_order_lines(case: str) -> None:
    written, expected = (part.strip() for part in case.split("->"))
    names = names_of(scene(n=5))
    read = read_order(written, names)
    if expected.startswith("!"):
        assert not isinstance(read, Order), read
        assert read.line == written and (read.suggestion or "") == expected[1:].strip()
    else:
        assert isinstance(read, Order), read
        assert str(read) == expected
        assert read_order(str(read), names) == read


def test_orders_of_another_phase_are_refused_and_the_good_lines_kept() -> None:
    state = scene(seats={"Agatha": {"attackers": 1, "coins": 4}})
    parsed = VENEER.parse(state, "Agatha", "vote yes\nbuy 1 defender\n# a comment\nattack Barney with 1")
    assert parsed.orders == ("buy 1 defender", "attack Barney with 1")
    assert parsed.errors[0].line == "vote yes" and "not an order of this phase" in parsed.errors[0].reason


def test_only_the_active_player_musters_and_nobody_attacks_themselves() -> None:
    state = scene(seats={"Agatha": {"attackers": 2}})
    assert "only Agatha" in VENEER.parse(state, "Barney", "buy 1 attacker").errors[0].reason
    assert "yourself" in VENEER.parse(state, "Agatha", "attack Agatha with 1").errors[0].reason


def test_the_last_vote_counts_and_the_receipt_says_so() -> None:
    parsed = VENEER.parse(scene(stage="vote", flipped="Tithe"), "Barney", "vote yes\nvote no")
    assert parsed.orders == ("vote no",) and parsed.notes == ("Only your last “vote” line counts.",)


def test_a_new_mail_replaces_the_earlier_unless_nothing_in_it_stands() -> None:
    state = scene(stage="vote", flipped="Tithe")
    first = VENEER.parse(state, "Barney", "vote yes")
    assert VENEER.combine(first, VENEER.parse(state, "Barney", "vote no")).orders == ("vote no",)
    assert VENEER.combine(first, VENEER.parse(state, "Barney", "vote perhaps")).orders == ("vote yes",)


def test_the_order_form_shows_only_ones_own_secrets() -> None:
    state = scene(n=5, seats={"Agatha": {"hand": ("Sabotage",)}})
    form = VENEER.order_template(state, "Agatha")
    assert "your targets are Barney and Charles" in form and "Sabotage" in form
    assert all("Sabotage" not in VENEER.order_template(state, n) for n in PLAYERS[1:])


def test_a_vote_in_a_sentence_or_with_a_word_after_it_counts() -> None:
    """Votes are no verbs, yet an attempt at an order: never skipped as chatter (issue 13)."""
    state = scene(stage="vote", flipped="Tithe")
    assert VENEER.parse(state, "Barney", "Hi all,\nI vote yes\nCheers").orders == ("vote yes",)
    assert VENEER.parse(state, "Barney", "nay, sorry").orders == ("vote no",)


def test_a_vote_neither_yes_nor_no_is_answered_with_both() -> None:
    error = VENEER.parse(scene(stage="vote", flipped="Tithe"), "Barney", "vote maybe").errors[0]
    assert (
        str(error) == "“vote maybe”: a vote is “vote yes” or “vote no”. Did you mean “vote yes” or “vote no”?"
    )


def test_numbers_agree_with_their_nouns() -> None:
    state = scene(
        laws=("Conscription Act",), seats={"Agatha": {"faction": "Smiths", "coins": 1, "attackers": 1}}
    )
    form = VENEER.order_template(state, "Agatha")
    assert "# You have 1 coin, 1 attacker, 1 defender; a troop costs 1 coin." in form
    refused = VENEER.parse(state, "Agatha", "attack Barney with 2\nbuy 1 defender").errors
    assert [e.reason for e in refused] == [
        "1 troop costs 1 coin; you have 1 and must keep one (or be out)",
        "you have only 1 attacker free",
    ]
    env = make_environment()
    vetoed = ev.AttackVetoed(attacker="Agatha", target="Barney", vetoers=("Charles",), price=1)
    assert render_event(env, "veneer", vetoed).endswith("(1 coin each).")
    changed = ev.TroopsChanged(player="Barney", attackers=-1, defenders=2, reason="Sabotage")
    assert render_event(env, "veneer", changed) == "Barney: -1 attacker, +2 defenders (Sabotage)."


def test_an_alliance_offer_is_shown_only_in_forms_that_take_ally_with() -> None:
    offered: dict[str, Any] = {"offers": (Offer("Agatha", "Barney", 1),), "active": "Barney"}
    muster = scene(stage="muster", seats={"Barney": {"attackers": 1}}, **offered)
    assert "ally with" not in VENEER.order_template(muster, "Barney")
    assert "not in a muster" in VENEER.parse(muster, "Barney", "ally with Agatha").errors[0].reason
    for stage in ("vote", "end"):
        form = VENEER.order_template(scene(stage=stage, flipped="Tithe", **offered), "Barney")
        assert "# Agatha offers you an alliance: ally with Agatha" in form
