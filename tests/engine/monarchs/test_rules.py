"""The Game of Monarchs: the board, the order reader, the seed's battle example and the odds table."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
import yaml

from engine.core import LineError
from engine.monarchs import (
    CENTRE,
    HEXES,
    HOMES,
    MONARCHS,
    NATIONS,
    Position,
    adjacent,
    distance,
    fight,
    neighbours,
    read_line,
    starting_map,
    win_chance,
)
from engine.monarchs._orders import check_orders
from engine.request import resolve_request
from tests.helpers.paths import DATA as TEST_DATA

DATA = TEST_DATA / "monarchs"
PARSE = yaml.safe_load((DATA / "parse.yaml").read_text(encoding="utf-8"))
EXAMPLE = yaml.safe_load((DATA / "battle_example.yaml").read_text(encoding="utf-8"))
LETTER = {"r": "red", "g": "green", "b": "blue"}


def test_the_board_has_61_hexes_and_its_rows_are_the_board_facts() -> None:
    assert len(HEXES) == len(set(HEXES)) == 61
    assert CENTRE == "I5" and "F5" not in HEXES
    rows = {row: [h for h in HEXES if int(h[1:]) == row] for row in range(1, 10)}
    assert " ".join(rows[9]) == "E9 G9 I9 K9 M9" and " ".join(rows[1]) == "E1 G1 I1 K1 M1"
    assert " ".join(rows[5]) == "A5 C5 E5 G5 I5 K5 M5 O5 Q5"
    assert [len(rows[r]) for r in range(1, 10)] == [5, 6, 7, 8, 9, 8, 7, 6, 5]


def test_neighbours_and_distance() -> None:
    assert sorted(neighbours("E3")) == ["C3", "D2", "D4", "F2", "F4", "G3"]
    assert sorted(neighbours("A5")) == ["B4", "B6", "C5"]
    assert len(neighbours(CENTRE)) == 6
    assert all(adjacent(b, a) for a in HEXES for b in neighbours(a))
    assert all(distance(a, b) == 1 for a in HEXES for b in neighbours(a))
    assert max(distance(CENTRE, h) for h in HEXES) == 4
    assert (distance("C3", "A5"), distance("D4", "A5"), distance("F4", "A5")) == (2, 2, 3)
    assert distance("A5", "Q5") == 8


def test_starting_map_is_the_table_of_the_board_facts() -> None:
    expected_owners: dict[str, str | None] = {}
    expected_armies: dict[str, tuple[str, int]] = {}
    for line in (DATA / "start.txt").read_text(encoding="utf-8").splitlines():
        for cell in line.split()[1:] if not line.startswith("#") else []:
            name, code = cell.split(":")
            expected_owners[name] = LETTER.get(code[0])
            if code[1:]:
                expected_armies[name] = (LETTER[code[0]], int(code[1:]))
    owners, armies = starting_map()
    assert owners == expected_owners and armies == expected_armies


def test_each_nation_starts_with_20_hexes_23_regiments_and_5_at_home() -> None:
    start = Position.start()
    for nation in NATIONS:
        assert len(start.hexes_of(nation)) == 20
        assert start.regiments_of(nation) == 23
        assert start.armies[HOMES[nation]] == (nation, 5)
    assert start.owners[CENTRE] is None and CENTRE not in start.armies


@pytest.mark.parametrize("case", PARSE, ids=[c["line"] for c in PARSE])
def test_order_lines_as_players_type_them(case: dict[str, Any]) -> None:
    read = read_line(case["line"])
    if not isinstance(read, LineError):
        _, errors, _ = check_orders("red", Position.start().armies, [(case["line"], read)])
        read = errors[0] if errors else read
    if "means" in case:
        assert str(read) == case["means"]
    else:
        assert isinstance(read, LineError) and read.line == case["line"].strip()
        assert read.reason.startswith(case["error"])
        assert read.suggestion == case.get("suggestion")


def test_a_bad_line_does_not_count_against_later_lines() -> None:
    text = "3 A5 C5\n4 A5 B4\n2 A5 B6\nboost G7\nboost H6"
    submission = MONARCHS.parse(
        MONARCHS.setup(["Ann", "Bo", "Cy"], {"roles": {"Ann": "red"}}, random.Random(1)), "Ann", text
    )
    assert submission.orders == ("3 A5 C5", "2 A5 B6", "boost H6")
    assert [e.line for e in submission.errors] == ["4 A5 B4"]
    assert "at most 2 more may go" in submission.errors[0].reason
    assert any("boost H6 replaces boost G7" in n for n in submission.notes)


def test_nobody_may_enter_another_nations_home_base() -> None:
    armies = {"N2": ("red", 3)}
    _, errors, _ = check_orders("red", armies, [("3 N2 M1", read_line("3 N2 M1"))])
    assert "M1 is Blue's home base" in errors[0].reason


def _example(seed: str) -> dict[str, Any]:
    return resolve_request(MONARCHS, {"orders": EXAMPLE["orders"], "seed": seed, "turns": 8})


@pytest.mark.parametrize("branch", EXAMPLE["branches"], ids=[b["seed"] for b in EXAMPLE["branches"]])
def test_the_seeds_battle_example(branch: dict[str, Any]) -> None:
    answer = _example(branch["seed"])
    (border,) = answer["border_battles"]
    assert {k: border[k] for k in ("from", "to", "winner", "loser")} == EXAMPLE["border_battle"]
    assert answer["taken"] == [
        {"hex": t["hex"], "nation": t["nation"], "from": t["from"]} for t in EXAMPLE["taken"]
    ]
    battles = {b["hex"]: b for b in answer["hex_battles"]}
    assert {h: b["regiments"] for h, b in battles.items()} == EXAMPLE["armies"]
    assert {h: b["winner"] for h, b in battles.items()} == branch["winners"]
    for hex_name, (nation, places, count) in branch["retreats"].items():
        (retreat,) = battles[hex_name]["retreats"]
        assert retreat["nation"] == nation and retreat["regiments"] == count
        assert retreat["to"] is None if places is None else retreat["to"] in places
    after = Position.from_json(answer["map"])
    for nation in ("red", "blue"):
        assert after.regiments_of(nation) == 23
        assert after.armies[HOMES[nation]][1] == 5 + branch["lost"][nation]
    assert after.owners["D2"] == "blue" and sum(answer["points"].values()) == 60  # I5 is still nobody's


def test_the_example_retreats_take_both_sides_of_every_tie() -> None:
    """Over many seeds, Red leaving E3 goes to C3 and to D4, never to F4."""
    places = set()
    for i in range(200):
        for b in _example(f"tie-{i}")["hex_battles"]:
            places |= {r["to"] for r in b["retreats"] if b["hex"] == "E3" and r["nation"] == "red"}
    assert places == {"C3", "D4"}


@pytest.mark.parametrize(
    ("advantage", "percent"),
    [(Fraction(0), 50), (Fraction(1, 4), 72), (Fraction(1, 2), 88), (Fraction(3, 4), 97), (Fraction(1), 100)],
)
def test_the_odds_table_exactly(advantage: Fraction, percent: int) -> None:
    assert round(win_chance(advantage) * 100) == percent
    assert win_chance(advantage) + win_chance(-advantage) == 1


@pytest.mark.parametrize("advantage", [Fraction(1, 4), Fraction(1, 2), Fraction(3, 4)])
def test_the_odds_table_by_monte_carlo(advantage: Fraction) -> None:
    rng = random.Random(f"odds-{advantage}")
    trials = 20_000
    wins = sum(fight([("a", 2 + advantage), ("b", Fraction(2))], rng)[0] == "a" for _ in range(trials))
    assert abs(wins / trials - float(win_chance(advantage))) < 0.015


def test_one_more_regiment_always_wins_a_border_battle() -> None:
    rng = random.Random(7)
    assert all(fight([("a", Fraction(2)), ("b", Fraction(1))], rng)[0] == "a" for _ in range(1000))


def test_a_tie_in_strength_is_drawn_again() -> None:
    class Scripted(random.Random):
        def __init__(self) -> None:
            super().__init__(0)
            self.draws = [0.5, 0.5, 0.1, 0.9]

        def random(self) -> float:
            return self.draws.pop(0)

    winner, strengths = fight([("red", Fraction(1)), ("blue", Fraction(1))], Scripted())
    assert winner == "blue" and strengths == {"red": 1.1, "blue": 1.9}


def test_the_last_turn_counts_double() -> None:
    last = resolve_request(MONARCHS, {"orders": {}, "seed": "x", "turn": 8, "turns": 8})
    other = resolve_request(MONARCHS, {"orders": {}, "seed": "x", "turn": 7, "turns": 8})
    assert other["points"] == {"red": 20, "green": 20, "blue": 20}
    assert last["points"] == {"red": 40, "green": 40, "blue": 40}
