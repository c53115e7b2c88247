"""History a player can read (issue 29), through the tick and the published workbook: one row per
public event, labelled with its round as the game names it ("Round 1 of 3", "Spring 1901", "Turn 1
(Agatha): vote on …"), written once when it happens (Truce's gifts on receipt, a round's results when
it resolves) and never repeated; a rollback takes back what it undid. The Ledger's headers are its
first row (the game's facts sit under the table) and its columns are as wide as its names. History
shows public events only: nothing a player's own mail alone tells."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from openpyxl import load_workbook

from tests.conftest import BASE_CONFIG, Table, address, text_of, write
from tests.helpers import diplomacy, monarchs, veneer
from tests.helpers.clock import at
from tests.helpers.ledger import ledger_facts, ledger_table

LONG_NAME = "Maximiliana Featherstonehaugh"


def history(t: Table) -> list[tuple[object, ...]]:
    return list(load_workbook(t.root / "truce-1.xlsx")["History"].iter_rows(values_only=True))


def test_truce_history_lists_each_rounds_public_events_and_gifts_under_its_label(
    make_table: Callable[..., Table],
) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    t.order("Barney", "gift 1 to Celeste\ndefend")
    t.order("Agatha", "attack Barney")
    t.tick(at(0, 9))
    assert history(t)[1:] == [("Round 1 of 3", "Barney gave 1 coin to Celeste.")]  # on receipt
    t.tick(at(0, 20, 5))
    t.order("Celeste", "support Agatha")
    t.tick(at(1, 20, 5))
    rows = history(t)
    assert rows[0] == ("Round", "What happened")
    assert ("Round 1 of 3", "Agatha chose attack Barney.") in rows
    assert ("Round 2 of 3", "Celeste chose support Agatha.") in rows
    labels = [str(r[0]) for r in rows[1:]]
    assert labels == sorted(labels)  # round after round
    assert len(rows) == len(set(rows))  # nothing repeated after a later round
    assert not any(r[0] in ("Agatha", "Barney", "Celeste", "Darcy") for r in rows)  # no standings blocks


def test_the_ledger_starts_with_its_headers_its_facts_below_and_columns_fit_names(tmp_path: Path) -> None:
    names = ["Agatha", "Barney", "Celeste", LONG_NAME]
    t = Table(
        tmp_path, BASE_CONFIG, [{"name": n, "email": f"p{i}@players.test"} for i, n in enumerate(names)]
    )
    t.tick(at(0, 8, 5))
    sheet = load_workbook(t.root / "truce-1.xlsx")["Ledger"]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:2] == ("Player", "Supply")  # a filter or a frozen first row works on the table
    assert [r[0] for r in ledger_table(rows)[1:]] == names
    assert ledger_facts(rows)[:4] == ["Game", "truce-1", "Phase", "Round 1 of 3"]
    assert sheet.column_dimensions["A"].width >= len(LONG_NAME)
    t.tick(at(0, 20, 5))  # rewritten the quick way (only the tab's part of the file): still wide
    assert load_workbook(t.root / "truce-1.xlsx")["Ledger"].column_dimensions["A"].width >= len(LONG_NAME)


def test_diplomacy_history_has_every_order_and_its_result_per_phase(tmp_path: Path) -> None:
    t = diplomacy.table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Gerd", "A mun - bur")
    write(t, "Fran", "A par - bur\nA mar S A par - bur")
    t.tick(at(0, 9))
    assert history(t) == [("Round", "What happened")]  # orders are private until the phase resolves
    t.tick(at(0, 20, 5))
    rows = history(t)
    assert ("Spring 1901", "France: A par - bur — succeeds") in rows
    assert ("Spring 1901", "Germany: A mun - bur — fails: bounced (par)") in rows
    assert ("Spring 1901", "England: F lon H (no order given) — succeeds") in rows


def test_veneer_history_lists_events_by_phase_once(tmp_path: Path) -> None:
    t = veneer.table(tmp_path)
    for hour in range(8, 23):
        t.tick(at(0, hour, 5))
    rows = history(t)[1:]
    assert rows and len(rows) == len(set(rows))
    assert not any(r[0] in veneer.PLAYERS for r in rows)  # sentences sit in "What happened"
    assert any(str(r[0]).startswith("Turn 1") and "failed" in str(r[1]) for r in rows)


def test_a_rollback_takes_back_what_history_listed_of_the_rounds_it_undid(
    make_table: Callable[..., Table],
) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    t.order("Agatha", "attack Barney")
    t.tick(at(0, 20, 5))
    t.order("Agatha", "loot")
    t.tick(at(1, 20, 5))
    assert any(r[0] == "Round 2 of 3" for r in history(t))
    t.mail("organiser@courier.test", "rollback to round 2")
    t.tick(at(2, 8))
    rows = history(t)
    assert not any(r[0] == "Round 2 of 3" for r in rows)
    assert ("Round 1 of 3", "Agatha chose attack Barney.") in rows
    assert any("Rolled back to before Round 2 of 3" in str(r[1]) for r in rows)


def test_monarchs_history_holds_only_what_every_player_was_told(tmp_path: Path) -> None:
    """Battles are told to the nations that fought them: History lists only lines every player's
    report carries."""
    t = monarchs.table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Rhea", "boost F2\n2 D2 E3\n2 E3 F2")
    write(t, "Bea", "boost E3\n1 F2 E3\n2 G3 E3")
    t.tick(at(0, 9))
    t.tick(at(0, 20, 5))
    lines = [str(r[1]) for r in history(t)[1:]]
    assert lines
    reports = [text_of(t.sent(address(name))[-1]) for name in monarchs.MONARCHS]
    for line in lines:
        assert all(line in " ".join(report.split()) for report in reports), line
