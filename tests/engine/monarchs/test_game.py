"""The Game of Monarchs (board mode) through the tick: the monarchs mail their orders, receipts
answer each line, each monarch's report shows only its fogged map, battles and score, the ledger
says who delivered, and the last turn ends the game with everything revealed."""

from __future__ import annotations

from pathlib import Path

from openpyxl import load_workbook

from courier.journal.replay import replay_game
from courier.journal.sqlite import SqliteJournal
from tests.conftest import last_text, write
from tests.helpers.clock import at
from tests.helpers.ledger import ledger_table
from tests.helpers.monarchs import table


def ledger(root: Path) -> list[list[object]]:
    return ledger_table(list(load_workbook(root / "truce-1.xlsx")["Ledger"].iter_rows(values_only=True)))


def test_two_turns_of_monarchs_by_mail(tmp_path: Path) -> None:
    t = table(tmp_path)
    assert t.tick(at(0, 8, 5)) == []
    welcome = last_text(t, "Rhea")
    assert "Orders for Red, turn 1 of 2" in welcome and "A5 red 5" in welcome
    assert "M1 blue" not in welcome  # blue's home is far beyond red's sight

    write(t, "Rhea", "boost F2\n2 D2 E3\n2 E3 F2\n2 E3 F5")
    write(t, "Bea", "boost E3\n1 F2 E3\n2 G3 E3\n1 E1 F2\n1 E1 D2")
    t.tick(at(0, 9))
    receipt = last_text(t, "Rhea")
    assert "2 D2 E3" in receipt and "boost F2" in receipt
    assert "F5 is not a hex — the hexes nearest that name are F4 and F6" in receipt

    assert t.tick(at(0, 20, 5)) == []
    red, blue, green = last_text(t, "Rhea"), last_text(t, "Bea"), last_text(t, "Gus")
    assert "Border battle between E3 and F2: Red (2" in red and "Border battle between E3 and F2" in blue
    assert "Battle on E3" in red and "Battle on F2" in blue
    assert "Battle on" not in green and "Border battle" not in green
    assert "Turn 1 of 2 was resolved; orders came from Red, Blue" in green
    assert "Green scored 20 for turn 1" in green and "Red scored" not in green
    rows = ledger(tmp_path)
    assert rows[0][:6] == ["Nation", "Player", "Turns played", "Orders last turn", "Score", "Orders in"]
    assert rows[2][:5] == ["Green", "Gus", 1, "no", None]  # scores stay secret until the end

    write(t, "Gus", "3 K5 I5")
    t.tick(at(1, 9))
    assert t.tick(at(1, 20, 5)) == []
    final = last_text(t, "Rhea")
    assert "Game over" in str(t.sent("rhea@players.test")[-1]["Subject"])
    assert "(doubled: the last turn)" in final and "The game ended:" in final
    # The winner first, then the whole map, one line per nation (issue 29 QA: no run-on string).
    assert final.index("The game ended:") < final.index("At the end Blue holds") < final.index("Only for you")
    assert "M1 (" in next(line for line in final.splitlines() if "At the end Blue holds" in line)
    assert "I5 (3)" in next(line for line in final.splitlines() if "At the end Green holds" in line)
    scores = {r[0]: r[4] for r in ledger(tmp_path)[1:4]}
    assert all(isinstance(s, int) for s in scores.values())
    journal = SqliteJournal(t.deployment.journal_path)
    try:
        checked, problems = replay_game(journal, "truce-1")
    finally:
        journal.close()
    assert problems == [] and checked == 2


def test_scores_published_every_turn_when_the_organiser_wants(tmp_path: Path) -> None:
    t = table(tmp_path, {"publish_scores": "yes"})
    t.tick(at(0, 8, 5))
    t.tick(at(0, 20, 5))
    assert "Red scored 20 for turn 1" in last_text(t, "Gus")
    assert [r[4] for r in ledger(tmp_path)[1:4]] == [20, 20, 20]


def test_a_stranger_to_the_game_gets_a_clear_refusal(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Rhea", "5 A5 C5\n5 A5 B4")
    t.tick(at(0, 9))
    receipt = last_text(t, "Rhea")
    assert "5 A5 C5" in receipt and "A5 holds 5 Red regiments and 5 already leave it" in receipt
