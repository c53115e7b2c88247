"""Who may act (issue 27): a forged From line cannot take a seat, remove a player or end a game.
A command that changes who holds a seat or ends the game (``guarded`` in the command table) applies
by mail only with a trusted DKIM/DMARC pass or the organiser's secret; otherwise it waits for a code
mailed to the registered address, which a forger never sees. The CLI applies at once. And an
organiser's mail that greets before its command is read, or answered, never dropped."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from courier.commands.table import COMMANDS
from courier.tools.cli import main
from tests.conftest import Table, address, count_fault, text_of
from tests.helpers.clock import at
from tests.helpers.confirm import MAIL_SERVER, TRUSTED_PASS, code_for, trust_the_mail_server

ORGANISER = "organiser@courier.test"
FORGER = "forger@evil.test"


def kinds(t: Table, who: str) -> list[str]:
    return [str(m["X-Courier-Kind"]) for m in t.sent(who)]


def answer(t: Table, who: str = ORGANISER) -> str:
    answers = [m for m in t.sent(who) if m["X-Courier-Kind"] == "answer"]
    assert answers, f"{who} got no answer"
    return text_of(answers[-1])


def kicked(t: Table) -> list[str]:
    journal = t.journal()
    try:
        row = journal.game("truce-1")
    finally:
        journal.close()
    assert row is not None
    return list(row.setup.get("kicked", []))


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    t = make_table()
    assert t.tick(at(0, 8, 5)) == []
    return t


def test_the_table_says_which_commands_need_more_than_a_from_line() -> None:
    # Every command that changes who holds a seat or ends the game, and no other.
    guarded = {"replace", "change", "kick", "bot", "end", "resign"}
    assert {spec.verb for spec in COMMANDS if spec.guarded} == guarded


def test_a_forged_replace_waits_for_the_code_mailed_to_the_real_organiser(table: Table) -> None:
    table.mail(ORGANISER, "replace Darcy with forger@evil.test", subject="[truce-1] x")
    table.tick(at(0, 9))
    assert table.sent(FORGER) == []  # the forger gets no seat, no position, no code
    assert "handed to a substitute" not in "".join(text_of(m) for m in table.sent("Darcy"))
    told = answer(table)
    assert "Nothing was done yet" in told and "Waiting: replace Darcy with forger@evil.test." in told
    code = code_for(table, ORGANISER)
    assert code is not None
    # A guess is refused with the same words as a wrong code; the real organiser's code works once.
    table.mail(ORGANISER, "confirm ZZZZZZ", subject="[truce-1] x")
    table.tick(at(0, 10))
    assert "confirm ZZZZZZ: refused, no command waits for the code" in answer(table)
    count_fault("forged commands", 2)  # the forged replace and the guessed code changed nothing
    table.mail(ORGANISER, f"confirm {code}", subject="Re: [truce-1] x")
    table.tick(at(0, 11))
    assert f"confirm {code}: confirmed. replace Darcy with forger@evil.test: done" in answer(table)
    assert "welcome" in kinds(table, FORGER)  # the organiser really meant it
    table.mail(ORGANISER, f"confirm {code}", subject="Re: [truce-1] x")
    table.tick(at(0, 12))
    assert "refused, no command waits for the code" in answer(table)  # used once


@pytest.mark.parametrize("line", ["kick Darcy", "bot Darcy", "end game"])
def test_a_forged_kick_bot_or_end_changes_nothing_until_confirmed(table: Table, line: str) -> None:
    table.mail(ORGANISER, line, subject="[truce-1] x")
    table.tick(at(0, 9))
    assert "Nothing was done yet" in answer(table)
    assert kicked(table) == [] and "notice" not in kinds(table, "Agatha")
    assert "game_over" not in kinds(table, "Agatha")
    count_fault("forged commands")


def test_a_forged_resign_and_resign_confirm_remove_nobody(table: Table) -> None:
    table.mail(address("Darcy"), "resign")
    table.tick(at(0, 9))
    table.mail(address("Darcy"), "resign confirm")
    table.tick(at(0, 10))
    assert kicked(table) == [] and "notice" not in kinds(table, "Agatha")
    # The real Darcy got the codes (and so learns of the attempt); another player cannot use them.
    code = code_for(table, address("Darcy"))
    assert code is not None and "If you did not send this" in answer(table, address("Darcy"))
    table.order("Agatha", f"confirm {code}")
    table.tick(at(0, 11))
    assert "refused, no command waits for the code" in answer(table, address("Agatha"))
    assert kicked(table) == []
    count_fault("forged commands", 3)  # resign, resign confirm, another's code


def test_the_organisers_secret_or_a_trusted_pass_applies_at_once(make_table: Callable[..., Table]) -> None:
    t = make_table({"organiser_secret": "open sesame"})
    t.tick(at(0, 8, 5))
    t.mail(ORGANISER, "secret: open sesame\nkick Darcy", subject="[truce-1] x")
    t.tick(at(0, 9))
    assert "kick Darcy: done" in answer(t) and kicked(t) == ["Darcy"]
    trust_the_mail_server(t)
    t.mail(ORGANISER, "secret: open sesame\nbot Celeste", subject="[truce-1] x", headers=TRUSTED_PASS)
    t.tick(at(0, 10))
    assert "bot Celeste: done" in answer(t)


def test_a_pass_counts_only_from_a_server_named_trusted(table: Table) -> None:
    # With no trusted_authserv_ids, any header a sender wrote would be believed: no proof at all.
    table.mail(ORGANISER, "kick Darcy", subject="[truce-1] x", headers=TRUSTED_PASS)
    table.tick(at(0, 9))
    assert "Nothing was done yet" in answer(table) and kicked(table) == []
    trust_the_mail_server(table)
    other = {"Authentication-Results": "mx.elsewhere.test; dmarc=pass header.from=courier.test"}
    table.mail(ORGANISER, "kick Darcy", subject="[truce-1] x", headers=other)
    table.tick(at(0, 10))
    assert "Nothing was done yet" in answer(table) and kicked(table) == []
    assert MAIL_SERVER in (table.root / "courier.toml").read_text()
    count_fault("forged commands", 2)  # a pass the sender wrote, a pass from another server


def test_the_cli_applies_a_guarded_command_at_once(table: Table) -> None:
    assert main(["kick", "--config", str(table.deployment.path), "truce-1", "Darcy"]) == 0
    table.tick(at(0, 9))
    assert "kick Darcy: done" in answer(table) and kicked(table) == ["Darcy"]


@pytest.mark.parametrize(
    "body",
    [
        "Hi Courier, pause…",
        "Please pause the game",
        "Hi Courier,\n\ncould you pause the game, please?\n\nThanks,\nJo",
    ],
)
def test_an_organisers_mail_that_greets_first_is_read(table: Table, body: str) -> None:
    table.mail(ORGANISER, body, subject="[truce-1] x")
    table.tick(at(0, 9))
    assert ": done. No deadline passes until you `resume`." in answer(table)


def test_an_organisers_mail_with_no_command_is_answered_not_dropped(table: Table) -> None:
    table.mail(ORGANISER, "Hi Courier,\n\nhow is the game going?\n\nJo", subject="[truce-1] x")
    table.tick(at(0, 9))
    told = answer(table)
    assert "Nothing was done: “how is the game going?” is no command; the commands are pause" in told


@pytest.mark.parametrize("by", ["mail", "cli"])
def test_a_substitute_may_not_take_another_players_name(table: Table, by: str) -> None:
    line = "replace Darcy with emmett@players.test as agatha"
    if by == "cli":
        argv = ["replace", "--config", str(table.deployment.path), "truce-1", "Darcy"]
        assert main([*argv, "emmett@players.test", "--as", "agatha"]) == 0
    else:
        trust_the_mail_server(table)
        table.mail(ORGANISER, line, subject="[truce-1] x", headers=TRUSTED_PASS)
    table.tick(at(0, 9))
    assert f"{line}: refused, agatha is the name of another seat (Agatha)" in answer(table)
    assert table.sent("emmett@players.test") == []
    table.tick(at(0, 10))  # the Players tab Courier keeps stays sound: no config error follows
    assert [str(m["Subject"]) for m in table.sent(ORGANISER) if m["X-Courier-Kind"] != "answer"] == []


def test_a_players_command_from_the_organiser_is_answered_not_dropped(table: Table) -> None:
    table.mail(ORGANISER, "status", subject="[truce-1] x")
    table.tick(at(0, 9))
    assert "status: refused, `status` is a player's command, not the organiser's" in answer(table)
