"""The outcome of a movement phase does not depend on what the powers are called, nor on the order
the units and orders are listed in (issue 29: a circle that bounced moved when the powers were
Italy, Turkey and Russia, and stood when Russia's units were Austria's). Boards are drawn in the
crowded south-east, where units move into one another, so circles and bounces are common."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.diplomacy import (
    STANDARD,
    Bounced,
    Hold,
    Move,
    MovementOrder,
    Phase,
    Position,
    Reason,
    Support,
    Unit,
    resolve_movement,
)

MAP = STANDARD.map
POWERS = sorted({p.home_of for p in MAP.provinces.values() if p.home_of is not None})
REGION = (
    "aeg",
    "alb",
    "ank",
    "arm",
    "bla",
    "bud",
    "bul",
    "con",
    "eas",
    "gre",
    "ion",
    "rum",
    "ser",
    "sev",
    "smy",
)
Board = list[
    tuple[str, str, str, str]
]  # (power, unit type, location, order: "H", "- dest" or "S origin dest")


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """Units of three powers in the region, nearly all moving, some supporting."""
    powers = draw(st.permutations(POWERS))[:3]
    places = draw(st.lists(st.sampled_from(REGION), min_size=3, max_size=len(REGION), unique=True))
    units = []
    for place in places:
        kind = MAP.provinces[place].kind
        types = ["A"] if kind == "land" or place == "bul" else ["F"] if kind == "sea" else ["A", "F"]
        units.append((draw(st.sampled_from(powers)), draw(st.sampled_from(types)), place))
    board = []
    for power, type_, place in units:
        board.append((power, type_, place, _order(draw, units, type_, place)))
    return board


def _order(draw: st.DrawFn, units: list[tuple[str, str, str]], type_: str, place: str) -> str:
    reach = MAP.neighbours(type_, place)  # type: ignore[arg-type]
    roll = draw(st.integers(0, 9))
    if roll < 7 and reach:  # mostly into a province a unit stands in: circles and bounces
        taken = {p for _, _, p in units}
        crowded = [r for r in reach if r.split("/")[0] in taken]
        return "- " + draw(st.sampled_from(crowded if crowded and roll < 6 else reach))
    helped = [(t, p) for _, t, p in units if p != place]
    if roll < 9 and helped:
        other_type, other = draw(st.sampled_from(helped))
        into = [d.split("/")[0] for d in MAP.neighbours(other_type, other)]  # type: ignore[arg-type]
        into = [d for d in into if d in {r.split("/")[0] for r in reach}]
        return f"S {other} {draw(st.sampled_from(into))}" if into else f"S {other} {other}"
    return "H"


ISSUE_29: Board = [
    ("Italy", "F", "aeg", "- smy"),
    ("Turkey", "F", "ank", "- con"),
    ("Turkey", "F", "con", "- smy"),
    ("Turkey", "A", "smy", "- ank"),
    ("Russia", "A", "bul", "- ser"),
    ("Russia", "A", "ser", "- rum"),
    ("Russia", "A", "rum", "- bul"),
]

CUT_TWICE: Board = [  # found by this test: the report named whichever cutter was listed first
    ("Austria", "A", "arm", "- smy"),
    ("England", "F", "aeg", "S arm smy"),
    ("Austria", "F", "gre", "- aeg"),
    ("Austria", "F", "bla", "- arm"),
    ("Austria", "A", "smy", "- arm"),
    ("Austria", "A", "ser", "- gre"),
    ("Austria", "F", "eas", "- aeg"),
]


@settings(max_examples=500, deadline=None)
@given(boards(), st.permutations(POWERS), st.randoms(use_true_random=False))
@example(CUT_TWICE, POWERS, None)
@example(ISSUE_29, ["Austria", "England", "France", "Germany", "Italy", "Turkey", "Russia"], None)
def test_renaming_the_powers_or_reordering_the_units_changes_no_outcome(
    board: Board, renamed: list[str], shuffle: object
) -> None:
    """Each power renamed (Austria → the first of ``renamed``...), the units and orders listed in
    another order: every unit ends where it did, and every order has the same result and reason."""
    names = dict(zip(POWERS, renamed, strict=True))
    reordered = list(reversed(board)) if shuffle is None else board.copy()
    if shuffle is not None:
        shuffle.shuffle(reordered)  # type: ignore[attr-defined]
    assert _outcome(board, {}) == _outcome(reordered, names)


def _outcome(board: Board, names: dict[str, str]) -> tuple[list[str], list[str]]:
    """Where the units are after the phase and each order's result, by province, powers named back."""
    back = {new: old for old, new in names.items()}
    units = [Unit(names.get(power, power), type_, place) for power, type_, place, _ in board]  # type: ignore[arg-type]
    orders: dict[Unit, MovementOrder] = {
        u: _read(u, order) for u, (*_, order) in zip(units, board, strict=True)
    }
    position = Position(phase=Phase(1901, "spring", "movement"), units=tuple(units))
    result = resolve_movement(MAP, position, orders)
    after = sorted(f"{back.get(u.power, u.power)} {u.type} {u.location}" for u in result.units)
    results = sorted(
        f"{place}: {r.succeeded} {_reason(r.reason)}"
        for (_, _, place, _), r in zip(board, result.results, strict=True)
    )
    return after, results


def _reason(reason: Reason | None) -> str:
    """The reason, the units a move bounced off in province order (they are listed as met)."""
    return repr(Bounced(tuple(sorted(reason.by)))) if isinstance(reason, Bounced) else repr(reason)


def _read(unit: Unit, order: str) -> MovementOrder:
    word, *rest = order.split()
    if word == "-":
        return Move(unit, rest[0])
    if word == "S":
        supported, into = rest
        return Support(unit, supported, None if into == supported else into)
    return Hold(unit)
