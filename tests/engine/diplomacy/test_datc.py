"""The DATC v3.0, section 6 (tests/data/datc/6*.txt): every board adjudicated and compared with
the board the DATC expects, and every order result the DATC states. The same for our own cases
beyond the DATC (tests/data/diplomacy/adjudication.txt), and again with the units listed in other
orders: the resolver meets the decisions in the units' order, and the outcome must not depend on it."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from engine.diplomacy import (
    STANDARD,
    AdjustmentOrder,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    MovementOrder,
    Order,
    OrderResult,
    Position,
    Retreat,
    RetreatOrder,
    Support,
    Unit,
    Waive,
    resolve_adjustments,
    resolve_movement,
    resolve_retreats,
)
from tests.helpers.datc_reader import Case, all_cases, beyond_datc

CASES = all_cases()
BEYOND = beyond_datc()
MAP = STANDARD.map
Arrange = Callable[[list[Unit]], tuple[Unit, ...]]


def test_every_case_is_there() -> None:
    assert len(CASES) == 165
    assert len({c.id for c in CASES}) == 165


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_datc(case: Case) -> None:
    _check(case, tuple)


@pytest.mark.parametrize("case", BEYOND, ids=[c.id for c in BEYOND])
def test_beyond_the_datc(case: Case) -> None:
    _check(case, tuple)


@pytest.mark.parametrize("case", CASES + BEYOND, ids=[c.id for c in CASES + BEYOND])
def test_the_outcome_does_not_depend_on_the_order_of_the_units(case: Case) -> None:
    _check(case, lambda units: tuple(reversed(units)))
    for seed in range(3):
        _check(case, _shuffled(random.Random(f"{case.id}/{seed}")))


def _shuffled(rng: random.Random) -> Arrange:
    return lambda units: tuple(rng.sample(units, len(units)))


def _check(case: Case, arrange: Arrange) -> None:
    """Adjudicate the case's board, its units (sorted) arranged so, and compare with the case."""
    position = Position(
        phase=case.phase,
        units=arrange(sorted(case.units("PRESTATE"))),
        dislodged=tuple(case.dislodged("PRESTATE_DISLODGED")),
        contested=case.contested("PRESTATE_CONTESTED"),
        supply_centers=case.supply_centers(),
    )
    orders = case.orders(position)
    units, dislodged, contested, verdicts = _adjudicate(position, [order for _, order in orders])
    results = [(text, verdict) for (text, _), verdict in zip(orders, verdicts, strict=True)]
    actual: dict[str, object] = {
        "units": sorted(units),
        "dislodged": sorted(dislodged),
        "contested": sorted(contested),
        "results": results,
    }
    stated = case.expected_results()
    expected: dict[str, object] = {
        "units": sorted(case.units("POSTSTATE")),
        "dislodged": sorted((d.unit, d.attacker_from) for d in case.dislodged("POSTSTATE_DISLODGED")),
        "contested": sorted(case.contested("POSTSTATE_CONTESTED")),
        "results": _expected_results(stated, results),
    }
    assert actual == expected, _report(case, position, actual, expected)


def _expected_results(stated: list[tuple[str, str]], actual: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The DATC's verdict for each order, in order (an order may appear twice); where the DATC
    states none, whatever the adjudicator said."""
    pending = list(stated)
    expected = []
    for text, verdict in actual:
        found = next((item for item in pending if item[0] == text), None)
        if found is not None:
            pending.remove(found)
        expected.append(found or (text, verdict))
    return expected


def _adjudicate(
    position: Position, orders: Sequence[Order | None]
) -> tuple[tuple[Unit, ...], list[tuple[Unit, str]], frozenset[str], list[str]]:
    """Adjudicate the phase; the orders the text reader refused (``None``) are illegal."""
    kind = position.phase.kind
    fits = [order is not None and _fits(kind, order) for order in orders]
    valid = [order for order, ok in zip(orders, fits, strict=True) if ok and order is not None]
    results: list[OrderResult]
    if kind == "movement":
        moves: dict[Unit, MovementOrder] = {
            o.unit: o for o in valid if isinstance(o, Hold | Move | Support | Convoy)
        }
        movement = resolve_movement(MAP, position, moves)
        results = list(movement.results)
        outcome = (
            movement.units,
            [(d.unit, d.attacker_from) for d in movement.dislodged],
            movement.contested,
        )
    elif kind == "retreat":
        retreats: dict[Unit, RetreatOrder] = {o.unit: o for o in valid if isinstance(o, Retreat | Disband)}
        retreat = resolve_retreats(MAP, position, retreats)
        results = list(retreat.results)
        outcome = (tuple(sorted(position.units + retreat.retreated)), [], frozenset())
    else:
        adjustments: list[AdjustmentOrder] = [o for o in valid if isinstance(o, Build | Disband | Waive)]
        adjustment = resolve_adjustments(MAP, position, adjustments)
        results = list(adjustment.results)
        outcome = (adjustment.position.units, [], frozenset())
    by_order = iter(results)
    verdicts = [_verdict(next(by_order)) if ok else "illegal" for ok in fits]
    return (*outcome, verdicts)


def _fits(kind: str, order: Order) -> bool:
    if kind == "movement":
        return isinstance(order, Hold | Move | Support | Convoy)
    if kind == "retreat":
        return isinstance(order, Retreat | Disband)
    return isinstance(order, Build | Disband | Waive)


def _verdict(result: OrderResult) -> str:
    if result.illegal:
        return "illegal"
    return "succeeds" if result.succeeded else "fails"


def _report(case: Case, position: Position, actual: dict[str, object], expected: dict[str, object]) -> str:
    lines = [f"{case.id} {case.title}", f"position: {position}", "orders:"]
    lines += [f"  {text}" for text in case.lines("ORDERS")]
    for key in expected:
        if actual[key] != expected[key]:
            lines.append(f"{key}:\n  expected {expected[key]}\n  actual   {actual[key]}")
    return "\n".join(lines)
