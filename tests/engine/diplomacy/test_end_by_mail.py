"""An organiser's `end` in Diplomacy and Star Trek (issue 29 QA): by Diplomacy's convention it is a
draw among the surviving powers (every power still holding a centre), ranked by centres: no power
wins alone with 4 of 34 centres in 1901."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import Table, text_of, write
from tests.helpers import diplomacy, startrek
from tests.helpers.clock import at
from tests.helpers.confirm import TRUSTED_PASS, trust_the_mail_server

ORGANISER = "organiser@courier.test"


def end_in_1901(t: Table) -> None:
    t.tick(at(0, 8, 5))
    trust_the_mail_server(t)
    t.mail(ORGANISER, "end game", subject="[truce-1] commands", headers=TRUSTED_PASS)
    t.tick(at(0, 9))


@pytest.mark.parametrize(
    ("game", "seats", "first"),
    [(diplomacy, diplomacy.POWERS, "Rus (Russia, 4)"), (startrek, startrek.FACTIONS, None)],
)
def test_an_organisers_end_is_a_draw_among_the_surviving_powers(
    tmp_path: Path, game: object, seats: dict[str, str], first: str | None
) -> None:
    t = game.table(tmp_path)  # type: ignore[attr-defined]
    end_in_1901(t)
    for name in seats:
        (mail,) = [m for m in t.sent(name) if m["X-Courier-Kind"] == "game_over"]
        assert "wins" not in mail["Subject"] and "Game over: a draw among " in mail["Subject"]
        text = " ".join(text_of(mail).split())
        assert "(a draw among the surviving powers, ranked by centres: " in text
        assert "Winner:" not in text and "Winners: " in text
        for other in seats:  # every power still holds its home centres: all share the draw
            assert other in mail["Subject"]
        if first:
            assert f"ranked by centres: {first}" in text


@pytest.mark.parametrize(
    ("game", "asker", "named"), [(diplomacy, "Ed", "Anna, Fran"), (startrek, "Kor", "Fay, Rom")]
)
def test_help_names_this_tables_players_in_its_press_examples(
    tmp_path: Path, game: object, asker: str, named: str
) -> None:
    """Help's press examples are built from the game's own players (issue 29 QA), not Truce's."""
    t = game.table(tmp_path)  # type: ignore[attr-defined]
    t.tick(at(0, 8, 5))
    write(t, asker, "help")
    t.tick(at(0, 9))
    (answer,) = [m for m in t.sent(asker) if m["X-Courier-Kind"] == "answer"]
    text = text_of(answer)
    assert f"press to {named}: …" in text
    assert "Barney" not in text and "Darcy" not in text


def test_the_end_mail_says_no_phase_comes_now(tmp_path: Path) -> None:
    """The map's title in the end mail names the phase played, never "now Fall 1901" (issue 29 QA)."""
    t = diplomacy.table(tmp_path)
    t.tick(at(0, 8, 5))
    t.tick(at(0, 20, 5))  # Spring 1901 played
    trust_the_mail_server(t)
    t.mail(ORGANISER, "end game", subject="[truce-1] commands", headers=TRUSTED_PASS)
    t.tick(at(1, 9))
    (mail,) = [m for m in t.sent("Anna") if m["X-Courier-Kind"] == "game_over"]
    text = text_of(mail)
    assert "Diplomacy after Spring 1901: see the picture in this mail" in text
    assert "now Fall 1901" not in text
