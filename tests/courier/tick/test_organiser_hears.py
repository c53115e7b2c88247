"""The organiser hears what matters (issue 29): each round's results in every game (Truce's too),
a resignation, an absence, a mail from an address no player has but signed with a player's name
(the stranger still gets nothing), and a forged mail refused. Told in one mail a tick, never one
mail per event."""

from __future__ import annotations

from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

from tests.conftest import PLAYERS, Table, address, text_of
from tests.helpers import veneer
from tests.helpers.clock import at
from tests.helpers.confirm import code_for

ORGANISER = "organiser@courier.test"


def organiser_mail(t: Table) -> list[EmailMessage]:
    return t.sent(ORGANISER)


def test_a_truce_organiser_gets_each_rounds_results(make_table: Callable[..., Table]) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    t.order("Agatha", "attack Barney")
    t.tick(at(0, 20, 5))
    reports = [m for m in organiser_mail(t) if m["X-Courier-Kind"] == "report"]
    assert [str(m["Subject"]) for m in reports] == ["[truce-1] Round 1 of 3: results"]
    assert "Agatha" in text_of(reports[0])
    t.tick(at(1, 20, 5))
    assert len([m for m in organiser_mail(t) if m["X-Courier-Kind"] == "report"]) == 2


def digests(t: Table) -> list[EmailMessage]:
    return [m for m in organiser_mail(t) if "News of the game" in str(m["Subject"])]


def news_to_organiser(t: Table) -> str:
    """Every mail the organiser got, apart from the rounds' reports, as one text."""
    return "\n".join(text_of(m) for m in organiser_mail(t) if m["X-Courier-Kind"] != "report")


def test_a_resignation_and_an_absence_reach_the_organiser_in_one_mail(
    make_table: Callable[..., Table],
) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    t.order("Darcy", "resign")
    t.order("Barney", "away until 2026-12-05")
    t.tick(at(0, 9))
    code = code_for(t, address("Darcy"))
    assert code is not None
    t.order("Darcy", f"confirm {code}")
    t.tick(at(0, 9, 30))
    assert news_to_organiser(t) == ""  # it waits for the organiser's next mail (news_every 4h)
    t.tick(at(0, 13, 5))
    assert len(digests(t)) == 1
    text = text_of(digests(t)[0])
    assert "Darcy resigned" in text and "Barney is away until" in text
    t.tick(at(0, 17))
    assert len(digests(t)) == 1


def test_the_rounds_report_carries_what_waited(make_table: Callable[..., Table]) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    t.order("Barney", "away until 2026-12-05")
    t.tick(at(0, 18))
    t.tick(at(0, 20, 5))  # the round's report goes before the digest would: the news rides along
    report = next(m for m in organiser_mail(t) if m["X-Courier-Kind"] == "report")
    assert "News since your last mail" in text_of(report) and "Barney is away until" in text_of(report)
    t.tick(at(1, 2))
    assert news_to_organiser(t) == ""  # told once


def test_a_player_writing_from_another_address_is_told_to_the_organiser_only(
    make_table: Callable[..., Table],
) -> None:
    t = make_table({"news_every": "0"})
    t.tick(at(0, 8, 5))
    t.mail("agatha.work@elsewhere.test", "attack Barney", sender_name="Agatha Smith")
    t.mail("spam@elsewhere.test", "Buy now", subject="Offer")  # no name of ours, no tag: nothing
    t.tick(at(0, 9))
    assert t.sent("agatha.work@elsewhere.test") == [] and t.sent("spam@elsewhere.test") == []
    text = news_to_organiser(t)
    assert (
        "agatha.work@elsewhere.test" in text
        and "change address of Agatha to agatha.work@elsewhere.test" in text
    )
    assert "spam@" not in text
    assert not any("agatha.work" in text_of(m) for name in PLAYERS for m in t.sent(name))


def test_forged_mail_refused_is_told_to_the_organiser_once_however_many(
    make_table: Callable[..., Table],
) -> None:
    t = make_table({"news_every": "0"}, secrets={"Agatha": "opensesame"})
    t.tick(at(0, 8, 5))
    for n in range(40):
        t.order("Agatha", f"attack Barney {n}")  # without her secret
    t.tick(at(0, 9))
    assert len(digests(t)) == 1
    text = text_of(digests(t)[0])
    assert "A mail in Agatha's name" in text and "…and 10 more." in text


def test_a_game_of_many_short_phases_tells_the_organiser_in_digests(tmp_path: Path) -> None:
    """Veneer resolves a phase every hour or so: its organiser reads them in the news, one mail per
    `news_every` (4h), not a report a phase."""
    t = veneer.table(tmp_path)
    for hour in range(8, 21):
        t.tick(at(0, hour, 5))
    kinds = [str(m["Subject"]) for m in organiser_mail(t)]
    assert not any("results" in s for s in kinds)
    assert 1 <= len(digests(t)) <= 3
    text = "\n".join(text_of(m) for m in digests(t))
    assert "Faction choice: Agatha plays the" in text and "Turn 1 (Agatha)" in text


def test_a_private_line_the_organiser_reads_says_whose_it_is(tmp_path: Path) -> None:
    """Veneer deals each player's targets privately ("Your secret targets: …"): the organiser, who may
    know them, reads each one with whose it is, never five unattributed lines."""
    t = veneer.table(tmp_path)
    for hour in range(8, 21):
        t.tick(at(0, hour, 5))
    lines = [line for m in digests(t) for line in text_of(m).splitlines() if "Your secret targets" in line]
    assert len(lines) == len(veneer.PLAYERS)
    for player, line in zip(veneer.PLAYERS, lines, strict=True):
        assert line.startswith(f"Faction choice: Only for {player}: Your secret targets: ")
