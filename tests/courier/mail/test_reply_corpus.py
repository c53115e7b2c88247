"""Real mail programs' replies through the tick (tests/data/replies, helpers in tests/helpers/replies.py).

Each reply carries one order as its new text and a different order inside its quote, and is mailed
by a player of Truce and of Diplomacy. The rule (issue 26): no quoted order is ever recorded or
applied; the new order is read in at least 97 % of mails; no receipt quotes the mail program's
furniture (attribution, header block, separator) back as "not understood".

Cases listed under `known_failures:` in cases.yaml are subtracted, and a listed case that now
passes fails the test too, so the list only shrinks (`python -m tests.helpers.replies` prints it).
"""

from __future__ import annotations

import re

import pytest

from tests.helpers.replies import (
    CHECKS,
    CORPUS,
    NEW,
    QUOTED,
    Outcome,
    cut_failures,
    failures,
    known_failures,
    load_cases,
    manifest,
    run_corpus,
)

CASES = load_cases()
KNOWN = known_failures()
SHAPES = {"gt", "attribution", "header", "separator", "html"}


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[Outcome]:
    """Every case, in Truce and in Diplomacy, in one deployment and one tick."""
    return run_corpus(tmp_path_factory.mktemp("corpus"), CASES)


def _listed(check: str, found: set[str]) -> tuple[list[str], list[str]]:
    """Failures not in known_failures, and listed ones that now pass."""
    return sorted(found - KNOWN[check]), sorted(KNOWN[check] - found)


def _stale(check: str, passing: list[str]) -> str:
    return f"now right, remove from known_failures.{check} in cases.yaml: {passing}"


def test_the_manifest_and_the_files_agree() -> None:
    files = sorted(str(p.relative_to(CORPUS)) for p in CORPUS.glob("*/*") if p.suffix in (".txt", ".html"))
    listed = [entry["file"] for entry in manifest()["cases"]]
    assert sorted(listed) == files, (
        "every reply file is listed once in cases.yaml, and every listed one exists"
    )
    assert len(set(listed)) == len(listed)
    sources = (CORPUS / "SOURCES.md").read_text(encoding="utf-8")
    for case in CASES:
        text = case.text()
        assert text.count(NEW) == 1 and text.count(QUOTED) == 1, case.name
        assert text.index(NEW) < text.index(QUOTED), case.name
        assert case.shape in SHAPES, case.name
        assert case.is_html == (case.shape == "html"), case.name
        assert case.path.parent.name == case.source and f"`{case.source}`" in sources, case.name
    names = {case.name for case in CASES}
    ids = {f"{name}@{game}" for name in names for game in ("truce", "diplomacy")}
    for check in CHECKS:
        assert KNOWN[check] <= (names if check == "cut" else ids), f"known_failures.{check} names no case"


def test_a_quoted_part_of_any_shape_is_marked_where_it_starts() -> None:
    """The quote's marker carries the quote's own prefix: `> {quoted}` in a `>` quote, bare otherwise."""
    for case in CASES:
        marker_line = next(line for line in case.text().split("\n") if QUOTED in line)
        prefix = marker_line[: marker_line.index(QUOTED)]
        if case.shape == "gt":
            assert prefix.strip().startswith(">"), case.name
        elif not case.is_html:
            assert not re.search(r"[>|]", prefix), case.name


def test_no_quoted_order_is_taken(outcomes: list[Outcome]) -> None:
    leaked, passing = _listed("leaked", failures(outcomes)["leaked"])
    assert not leaked, f"the quoted order was recorded in {len(leaked)} mails: {leaked}"
    assert not passing, _stale("leaked", passing)


def test_the_new_order_is_read_in_97_percent_of_mails(outcomes: list[Outcome]) -> None:
    missed, passing = _listed("missed", failures(outcomes)["missed"])
    counted = len(outcomes) - len(KNOWN["missed"])
    rate = 1 - len(missed) / counted
    assert rate >= 0.97, f"the new order was read in {rate:.1%} of {counted} mails; missed: {missed}"
    assert not passing, _stale("missed", passing)


def test_no_receipt_quotes_the_furniture_back(outcomes: list[Outcome]) -> None:
    found = failures(outcomes)["furniture"]
    quoted, passing = _listed("furniture", found)
    lines = {o.seat.id: o.quoted_back for o in outcomes if o.seat.id in quoted}
    assert not quoted, f"receipts calling the mail program's lines not understood: {lines}"
    assert not passing, _stale("furniture", passing)


def test_cut_reply_drops_the_quoted_order_from_every_text() -> None:
    """Known answers without the tick: `cut_reply` of each reply's text keeps no quoted order."""
    kept, passing = _listed("cut", cut_failures(CASES))
    assert not kept, f"cut_reply keeps the quoted order of {len(kept)} texts: {kept}"
    assert not passing, _stale("cut", passing)
