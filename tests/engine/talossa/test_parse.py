"""Talossan RISK notation: the seed's examples and the variants players type, as data files
(tests/data/talossa/notation.txt and mistakes.txt); receipts number actions and flag doomed ones."""

from __future__ import annotations

import random

import pytest

from engine.core import LineError
from engine.talossa import TALOSSA
from engine.talossa._parse import _NUMBERING, Names, read_action, read_plan
from engine.talossa._state import Board
from tests.helpers.paths import DATA as TEST_DATA

DATA = TEST_DATA / "talossa"
NAMES = {n: n for n in ("London", "Bratislava", "Edinburgh", "Paris", "Berlin", "Atatürk Point")}


def cases(name: str) -> list[tuple[str, str]]:
    rows = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            written, expected = line.split("=>")
            rows.append((written.strip(), expected.strip()))
    return rows


@pytest.mark.parametrize(("written", "expected"), cases("notation.txt"))
def test_notation_reads_as_the_seed_means(written: str, expected: str) -> None:
    action = read_plan_line(written)
    assert str(action) == expected
    assert str(read_plan_line(expected)) == expected  # the canonical text reads back to itself


def read_plan_line(line: str) -> object:
    return read_action(_NUMBERING.sub("", line), Names(NAMES))


@pytest.mark.parametrize(("written", "suggestion"), cases("mistakes.txt"))
def test_mistakes_quote_the_line_and_suggest(written: str, suggestion: str) -> None:
    error = read_action(written, Names(NAMES))
    assert isinstance(error, LineError), f"{written!r} was read as {error}"
    assert error.line == written
    assert error.suggestion == (None if suggestion == "-" else suggestion)


def game() -> object:
    roles = {"Al": "Alvania; red; Abbavilla", "Bea": "Beatria; blue; Juneau", "Cy": "", "Di": ""}
    return TALOSSA.setup(list(roles), {"roles": roles}, random.Random(4))


def test_a_name_given_in_the_plan_can_be_used_by_its_later_actions() -> None:
    state = game()
    text = "Q: Abbavilla >> (north)\n[Wellington]\nR: Wellington, 3\nM: Abbavilla >> wellington, 1"
    submission = TALOSSA.parse(state, "Al", text)  # type: ignore[arg-type]
    assert submission.orders == (
        "1. Q: Abbavilla >> (north) [Wellington]",
        "2. R: Wellington, 3",
        "3. M: Abbavilla >> Wellington, 1",
    )
    assert not submission.errors


def test_receipts_number_actions_and_flag_those_that_cannot_succeed() -> None:
    state = game()
    text = "R: Abbavilla, 2\nQ: Abbavilla >> Juneau, 1\nC: Abbavilla\nS: +Abbavila\nR: Abbavilla, 40"
    submission = TALOSSA.parse(state, "Al", text)  # type: ignore[arg-type]
    assert submission.orders[:3] == ("1. R: Abbavilla, 2", "2. Q: Abbavilla >> Juneau, 1", "3. C: Abbavilla")
    notes = " ".join(submission.notes)
    assert "Action 2 (Q: Abbavilla >> Juneau, 1) cannot succeed as written: Juneau does not border" in notes
    assert (
        "Action 3 (C: Abbavilla) cannot succeed as written: Alvania has 1 land; a capital needs 10" in notes
    )
    assert "Action 4" not in notes  # R: 40 only takes what the stack holds: not a failure
    assert (
        str(submission.errors[0])
        == "“S: +Abbavila”: there is no land “Abbavila”. Did you mean “S: +Abbavilla”?"
    )


def test_a_plan_has_at_most_ten_actions() -> None:
    actions, errors = read_plan(Board(game()), "\n".join(["S: +Abbavilla"] * 12))  # type: ignore[arg-type]
    assert len(actions) == 10 and len(errors) == 2 and "at most 10" in errors[0].reason


def test_canonical_plans_read_back_to_themselves() -> None:
    state = game()
    first = TALOSSA.parse(state, "Al", "r: abbavilla 5\nq: abbavilla->ankara street,2 [Wellington]")  # type: ignore[arg-type]
    again = TALOSSA.parse(state, "Al", "\n".join(first.orders))  # type: ignore[arg-type]
    assert again.orders == first.orders
