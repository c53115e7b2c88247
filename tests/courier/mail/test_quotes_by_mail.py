"""Quote patterns through the tick: an organiser's own file (quote_patterns in courier.toml) is read,
a broken one is told once and replaced by Courier's own, and a receipt never quotes furniture back."""

from __future__ import annotations

from collections.abc import Callable

from courier.config.deployment import load_deployment
from tests.conftest import Table, last_text, text_of, write
from tests.helpers.clock import at

ORGANISER = "organiser@courier.test"


def _with_patterns(table: Table, text: str) -> None:
    (table.root / "our-quotes.toml").write_text(text, encoding="utf-8")
    toml = table.root / "courier.toml"
    toml.write_text(
        'quote_patterns = "our-quotes.toml"\n' + toml.read_text(encoding="utf-8"), encoding="utf-8"
    )
    table.deployment = load_deployment(toml)


def test_an_organisers_attribution_cuts_the_quote(make_table: Callable[..., Table]) -> None:
    table = make_table()
    _with_patterns(table, '[[attribution]]\nlanguage = "Esperanto"\nverbs = ["skribis"]\nexamples = []\n')
    write(table, "Agatha", "attack Barney\n\nJe 2026-12-01 08:00, Courier skribis:\nloot\n")
    table.tick(at(0, 9))
    receipt = last_text(table, "Agatha")
    assert "Your orders that now stand for Round 1 of 3:\n  attack Barney" in receipt
    assert "loot" not in receipt.split("Deadline")[0]


def test_a_broken_pattern_file_is_told_once_and_mail_is_still_read(make_table: Callable[..., Table]) -> None:
    table = make_table()
    _with_patterns(table, "[[attribution]\n")
    write(
        table,
        "Agatha",
        "attack Barney\n\nOn Tue, 1 Dec 2026 at 08:00, Courier <o@courier.test> wrote:\nloot\n",
    )
    table.tick(at(0, 9))
    write(table, "Barney", "defend")
    table.tick(at(0, 10))
    told = [text_of(m) for m in table.sent(ORGANISER)]
    assert len([t for t in told if "our-quotes.toml" in t]) == 1
    assert "Courier's own quote patterns" in told[0]
    assert "now stand for Round 1 of 3:\n  attack Barney" in last_text(table, "Agatha")


def test_a_receipt_never_quotes_furniture_as_not_understood(make_table: Callable[..., Table]) -> None:
    table = make_table()
    write(table, "Agatha", "attack Barney\nSubject: Round 1 of 3\natack Celeste\n")
    table.tick(at(0, 9))
    receipt = last_text(table, "Agatha")
    assert "“atack Celeste”" in receipt  # a real mistake is still quoted
    assert "Subject: Round 1" not in receipt
