"""Players learn the game from its mail, and the mail reads well (issue 29): the welcome says which
power you play and what the game is about, `rules` mails the whole rules, a player with a Secret is
told how to carry it, receipts and reminders say what the default for absent players is, and no
mail says "the arbiter of Courier", "Next comes Finished.", folds its Subject right after the colon
or breaks a sentence in two."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

from courier.mail.render import make_environment
from courier.mail.rules import rules_summary, rules_text
from engine import RULESETS
from tests.conftest import Table, address, last_text, text_of
from tests.helpers.clock import at

ORGANISER = "organiser@courier.test"
DIPLOMACY = {"game": "diplomacy", "timezone": "UTC", "start": "2026-12-01 08:00", "deadlines": "20:00"}
POWERS = {
    "Agatha": "France",
    "Barney": "England",
    "Celeste": "Germany",
    "Darcy": "Italy",
    "Emmett": "Austria",
    "Fiona": "Russia",
    "Gus": "Turkey",
}


def test_every_game_ships_rules_whose_first_paragraph_is_the_welcomes_summary() -> None:
    env = make_environment()
    for game, ruleset in RULESETS.items():
        text = rules_text(env, game)
        assert len(text.splitlines()) > 8, game
        summary = rules_summary(text)
        assert summary.startswith(ruleset.title.removeprefix("The ")) or ruleset.title in summary, game
        assert "rules" in text  # the command that mails the rules is among the commands listed


def test_the_welcome_says_which_power_you_play_and_what_the_game_is(tmp_path: Path) -> None:
    t = Table(tmp_path, DIPLOMACY, [{"name": n, "email": address(n), "role": p} for n, p in POWERS.items()])
    t.tick(at(0, 8, 5))
    welcome = text_of(t.sent("Agatha")[0])
    assert "You play France." in welcome and "England" not in welcome.split("Players (7)")[0]
    assert "seven great powers fight for the 34 supply centres" in welcome
    assert "write `rules` in a mail for the whole rules" in welcome
    assert "You play England." in text_of(t.sent("Barney")[0])


def test_rules_mails_the_whole_rules_text(make_table: Callable[..., Table]) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    t.order("Barney", "Hi!\nrules\nThanks")
    t.tick(at(0, 9))
    answer = last_text(t, "Barney")
    for line in rules_text(make_environment(), "truce").splitlines():
        assert line in answer
    assert "the rules of Truce" in answer


def test_a_player_with_a_secret_is_told_to_carry_it(make_table: Callable[..., Table]) -> None:
    t = make_table(secrets={"Agatha": "opensesame"})
    t.tick(at(0, 8, 5))
    assert "must carry a line `secret: …`" in text_of(t.sent("Agatha")[0])
    assert "secret: …" not in text_of(t.sent("Barney")[0])  # only players with a Secret
    assert "opensesame" not in text_of(t.sent("Agatha")[0])  # never the secret itself
    t.order("Agatha", "loot")
    t.tick(at(0, 9))
    told = last_text(t, "Agatha")
    assert "Add a line `secret: …` with the secret the organiser gave you" in told
    assert "and send it again" in told


def test_receipts_and_reminders_say_what_the_default_is(make_table: Callable[..., Table]) -> None:
    t = make_table({"reminders": "1h"})
    t.tick(at(0, 8, 5))
    t.order("Agatha", "Hello, what do I do?")  # nothing readable: no orders stand
    t.tick(at(0, 9))
    receipt = last_text(t, "Agatha")
    assert "the default for absent players applies: you pass." in receipt
    t.tick(at(0, 19, 5))
    reminder = last_text(t, "Barney")
    assert "the default for absent players applies: you pass." in reminder


def test_a_bot_seat_is_told_the_bot_plays_it(make_table: Callable[..., Table]) -> None:
    t = make_table({"absent": "bot"})
    t.tick(at(0, 8, 5))
    t.order("Agatha", "Hello, what do I do?")
    t.tick(at(0, 9))
    assert "the default for absent players applies: the game's bot plays your seat." in last_text(t, "Agatha")


def test_an_organiser_mail_never_says_the_arbiter_of_courier(make_table: Callable[..., Table]) -> None:
    t = make_table({"game": "chess"})  # a game Courier does not know: one mail to the organiser
    t.tick(at(0, 8, 5))
    told = [text_of(m) for m in t.sent(ORGANISER)]
    assert told and not any("arbiter of Courier" in m for m in told)
    assert all("Courier, the play-by-mail arbiter (truce-1)." in m for m in told)


def test_the_last_report_never_says_next_comes_finished(make_table: Callable[..., Table]) -> None:
    t = make_table({"rounds": "1"})
    t.tick(at(0, 8, 5))
    t.tick(at(0, 20, 5))  # the only round: the game ends
    mails = t.sent()
    assert any(m["X-Courier-Kind"] == "game_over" for m in mails)
    assert not [m["To"] for m in mails if "Next comes Finished" in text_of(m)]


def raw_subject(message: EmailMessage) -> str:
    head = bytes(message).split(b"\n\n", 1)[0].decode("ascii")
    match = re.search(r"^Subject:(.*(?:\n[ \t].*)*)", head, re.MULTILINE)
    assert match is not None
    return match.group(1)


def test_a_long_subject_is_folded_after_its_first_words(tmp_path: Path) -> None:
    players = [{"name": n, "email": address(n)} for n in ("Agatha", "Barney", "Charles")]
    config = {"game": "veneer", "timezone": "UTC", "start": "2026-12-01 08:00", "duration": "6h"}
    t = Table(tmp_path, config, players)
    t.tick(at(0, 8, 5))
    t.tick(at(0, 14, 5))  # factions by default; turn 1 (Agatha) flips a card
    t.mail(address("Agatha"), "vote yes")
    t.tick(at(0, 14, 10))
    subjects = [raw_subject(m) for m in t.sent()]
    assert any("\n" in s for s in subjects)  # some subject is long enough to fold
    assert all(s.startswith(" [truce-1]") for s in subjects)  # never "Subject:" alone on its line
    assert all(str(m["Subject"]).startswith("[truce-1] ") for m in t.sent())


def test_no_text_mail_breaks_a_sentence_across_lines(make_table: Callable[..., Table]) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    t.order("Agatha", "Hello, what do I do?")
    t.tick(at(0, 9))
    for message in t.sent():
        lines = text_of(message).splitlines()
        for line, after in itertools.pairwise(lines):
            broken = line and not line.startswith((" ", "#")) and after[:1].islower()
            assert not broken, f"{message['Subject']}: {line!r} / {after!r}"
