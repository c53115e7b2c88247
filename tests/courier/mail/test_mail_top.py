"""The top of a player's mail, played through the tick (issue 30): their own result of the round
first (the game's ``headline``), then what the game asks of them now (``asked``), which also leads
the subject; a player the game does not wait for is not told to send orders."""

from __future__ import annotations

import re
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

from tests.conftest import Table, address, text_of
from tests.helpers.clock import at

VENEER = ("Agatha", "Barney", "Charles")


def top(message: EmailMessage) -> str:
    """The block id="courier-now" of the HTML part, as words."""
    html = message.get_body(("html",))
    assert html is not None
    block = str(html.get_content()).split('id="courier-now"', 1)[1].split(">", 1)[1]
    block = re.split(r'<div class="picture"|<h3', block, maxsplit=1)[0]  # the details begin
    return " ".join(re.sub(r"<[^>]+>", "", block).split())


def last(t: Table, name: str, kind: str = "report") -> EmailMessage:
    return [m for m in t.sent(address(name)) if m["X-Courier-Kind"] == kind][-1]


def test_a_truce_report_leads_with_the_players_own_result(make_table: Callable[..., Table]) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    t.order("Agatha", "attack Barney")
    t.order("Barney", "loot")
    t.tick(at(0, 20, 5))
    agatha, barney = last(t, "Agatha"), last(t, "Barney")
    # Barney looted, so Agatha's attack succeeds automatically; the Supplies are public in Truce
    assert top(agatha).startswith("Your attack on Barney succeeded")
    assert re.search(r"supply \d+ \([+-]\d+|unchanged\)", top(agatha))
    assert top(barney).startswith("You looted the Stash")
    assert "Your attack on Barney" not in top(barney)
    text = text_of(agatha)
    assert text.index("Your attack on Barney succeeded") < text.index("Here are the results of Round 1")
    assert agatha["Subject"].startswith("[truce-1] Your action for Round 2 of 3 - by Wed 02 Dec 20:00 GMT")


def test_a_game_whose_bot_stands_in_for_the_silent_still_asks_each_player(
    make_table: Callable[..., Table],
) -> None:
    """`absent = bot` plays only a seat that sends nothing: every player is still asked for orders."""
    t = make_table({"absent": "bot"})
    t.tick(at(0, 8, 5))
    welcome = last(t, "Agatha", "welcome")
    assert welcome["Subject"].startswith("[truce-1] Welcome to Truce: Your action for Round 1 of 3 - by")
    assert "Your action for Round 1 of 3: fill in the form below" in top(welcome)


def veneer_vote(tmp_path: Path) -> Table:
    """Three Veneer players past the faction choice (their defaults), in Agatha's turn's vote."""
    players = [{"name": n, "email": address(n)} for n in VENEER]
    config = {"game": "veneer", "timezone": "UTC", "start": "2026-12-01 08:00", "duration": "6h"}
    t = Table(tmp_path, config, players)
    t.tick(at(0, 8, 5))
    t.tick(at(0, 14, 5))  # factions by default; turn 1 (Agatha) flips a card to vote on
    return t


def test_veneer_subjects_say_vote_now_and_by_when(tmp_path: Path) -> None:
    t = veneer_vote(tmp_path)
    report = last(t, "Barney")
    # what is asked leads, not the phase's label ("Turn 1 (Agatha): vote on …: your orders by …")
    assert re.fullmatch(
        r"\[truce-1\] Vote now: [^:]+ - by Wed 02 Dec 02:00 UTC \(Faction choice: results\)",
        str(report["Subject"]),
    )
    assert top(report).startswith("You have 3 coins")
    assert "Vote now: " in top(report) and "fill in the form below" in top(report)


def test_a_player_the_game_does_not_wait_for_is_not_told_to_send_orders(tmp_path: Path) -> None:
    """After the vote only Agatha musters: Barney and Charles hear the ballot's result with a form
    (an action card may be played at any time) but nothing is asked of them."""
    t = veneer_vote(tmp_path)
    for name in VENEER:
        t.mail(address(name), "vote yes")
    t.tick(at(0, 14, 10))
    t.tick(at(1, 2, 5))  # the vote's deadline: Agatha's muster opens
    agatha, barney = last(t, "Agatha"), last(t, "Barney")
    assert agatha["Subject"].startswith("[truce-1] Muster and attack - by Wed 02 Dec 08:00 UTC")
    assert "Muster and attack: fill in the form below" in top(agatha)
    assert re.fullmatch(r"\[truce-1\] Turn 1 \(Agatha\): vote on [^:]+: results", str(barney["Subject"]))
    assert "Send your orders" not in top(barney) and "Nothing is asked of you" in top(barney)
    assert "Nothing is asked of you in Turn 1 (Agatha): muster and attacks" in text_of(barney)
