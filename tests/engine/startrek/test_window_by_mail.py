"""Star Trek's intelligence window by mail (issue 29/30 QA): the mail that opens it says so, not
"results", for nothing is resolved yet; History files the turn's results under the season, and has
no row that only says what comes next."""

from __future__ import annotations

from pathlib import Path

from openpyxl import load_workbook

from tests.conftest import text_of, write
from tests.helpers.clock import at
from tests.helpers.startrek import table


def test_the_window_opens_with_a_mail_saying_so_and_history_files_results_under_the_season(
    tmp_path: Path,
) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Fay", "ship earth - betazed")
    write(t, "Rom", "tal shiar klingon")
    t.tick(at(0, 9))
    t.tick(at(0, 20, 5))  # the movement deadline: the window opens for the informed
    mail = t.sent("Rom")[-1]
    assert mail["Subject"] == "[truce-1] Spring 2370 intelligence window open until Tue 01 Dec 22:00 UTC"
    text = " ".join(text_of(mail).split())
    assert "results" not in text.lower() and "Nothing happened in public" not in text
    assert "The Spring 2370 intelligence window is open: nothing has been resolved yet." in text
    assert "The informed may amend their orders until the window's deadline" in text
    assert "Deadline for Spring 2370 intelligence window: Tue 01 Dec 2026 22:00 UTC" in text

    t.tick(at(0, 22, 5))  # the window closes: the season's results
    report = t.sent("Fay")[-1]
    assert report["Subject"].endswith("(Spring 2370: results)")
    assert "Here are the results of Spring 2370." in text_of(report)
    history = list(load_workbook(tmp_path / "truce-1.xlsx")["History"].iter_rows(values_only=True))
    assert ("Spring 2370", "Federation: ship earth - betazed — succeeds") in history
    assert not [row for row in history if "intelligence window" in str(row[0])]
    assert not [row for row in history if str(row[1]).startswith("Next: ")]
