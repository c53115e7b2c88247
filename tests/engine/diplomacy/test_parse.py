"""The Diplomacy order parser: what players type, as tests/data/diplomacy/parse.yaml lists it, and
the promise that every canonical order reads back to itself."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import LineError
from engine.diplomacy._map import Map
from engine.diplomacy._orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    Support,
    Unit,
    UnitType,
    Waive,
)
from engine.diplomacy._parse import ParsedOrder, parse_order_syntax, parse_orders
from engine.diplomacy._position import PhaseKind
from engine.diplomacy.maps.standard import STANDARD
from tests.helpers.paths import DATA as TEST_DATA

DATA = TEST_DATA / "diplomacy" / "parse.yaml"
TABLE = yaml.safe_load(DATA.read_text(encoding="utf-8"))
MAP = Map.from_data(STANDARD)
START = tuple(Unit(u["power"], u["type"], u["location"]) for u in STANDARD["starting_units"])


def _units(name: str) -> tuple[Unit, ...]:
    if name == "start":
        return START
    units = []
    for spec in TABLE["positions"][name]:
        power, unit_type, location = spec.split()
        units.append(Unit(power, unit_type, location))
    return tuple(units)


def _read(units: tuple[Unit, ...], power: str, phase: PhaseKind, text: str) -> tuple[list[str], Any, Any]:
    orders, errors, notes = parse_orders(MAP, units, power=power, phase_kind=phase, text=text)
    return [str(o) for o in orders], errors, notes


@pytest.mark.parametrize("case", TABLE["syntax"], ids=[c["text"] for c in TABLE["syntax"]])
def test_syntax_case(case: dict[str, Any]) -> None:
    parsed = parse_order_syntax(case["text"], MAP)
    if "error" in case:
        assert isinstance(parsed, LineError)
        assert parsed.line == case["text"].strip()
        assert case["error"] in parsed.reason
        assert parsed.suggestion == case.get("suggestion")
    else:
        assert isinstance(parsed, ParsedOrder), parsed
        assert str(parsed) == case["reads"]


def _case_id(case: dict[str, Any]) -> str:
    return f"{case.get('power', 'France')}-{case.get('phase', 'movement')}: {case['text'].strip()}"


@pytest.mark.parametrize("case", TABLE["cases"], ids=[_case_id(c) for c in TABLE["cases"]])
def test_parse_case(case: dict[str, Any]) -> None:
    units = _units(case.get("position", "start"))
    power, phase = case.get("power", "France"), case.get("phase", "movement")
    orders, errors, notes = _read(units, power, phase, case["text"])
    assert orders == case.get("orders", [])
    expected_errors = case.get("errors", [])
    assert len(errors) == len(expected_errors), errors
    for error, expected in zip(errors, expected_errors, strict=True):
        assert error.line == expected["line"]
        assert expected["reason"] in error.reason
        assert error.suggestion == expected.get("suggestion")
        assert error.line in str(error)
    if "notes" in case:
        assert any(case["notes"] in note for note in notes), notes
    else:
        assert notes == []


def test_every_province_name_and_alias_reads_as_its_key() -> None:
    spellings = {**{p.name: p.key for p in MAP.provinces.values()}, **MAP.aliases}
    spellings |= {key: key for key in MAP.provinces}
    for spelling, key in spellings.items():
        for written in (spelling, spelling.upper(), spelling.lower().replace("-", " ")):
            parsed = parse_order_syntax(f"{written} H", MAP)
            assert isinstance(parsed, ParsedOrder) and parsed.location == key, (written, parsed)


def test_every_start_unit_orders_read_back_to_themselves() -> None:
    for unit in START:
        orders: list[Order] = [Hold(unit)]
        for neighbour in MAP.neighbours(unit.type, unit.location):
            orders.append(Move(unit, neighbour))
            orders.append(Support(unit, neighbour.split("/")[0]))
        _assert_round_trip(orders, START, unit.power, "movement")


def test_an_unknown_phase_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="phase"):
        parse_orders(MAP, START, power="France", phase_kind="winter", text="waive")  # type: ignore[arg-type]


def _assert_round_trip(orders: list[Order], units: tuple[Unit, ...], power: str, phase: PhaseKind) -> None:
    for order in orders:
        read, errors, _ = parse_orders(MAP, units, power=power, phase_kind=phase, text=str(order))
        assert errors == [] and read == [order], (str(order), errors)


# --- random canonical orders read back to themselves --------------------------------------------

PROVINCES = sorted(MAP.provinces)
LAND = [k for k in PROVINCES if MAP.provinces[k].kind != "sea"]
FLEET_SPOTS = [loc for k in PROVINCES for loc in MAP.fleet_locations(k)]
TYPES: tuple[UnitType | None, ...] = (None, "A", "F")


@st.composite
def movement_orders(draw: st.DrawFn) -> Order:
    unit = draw(st.sampled_from(START))
    kind = draw(st.sampled_from(["hold", "move", "support", "convoy"]))
    if kind == "hold":
        return Hold(unit)
    if kind == "move" and unit.type == "A":
        return Move(unit, draw(st.sampled_from(LAND)), draw(st.booleans()))
    if kind == "move":
        return Move(unit, draw(st.sampled_from(FLEET_SPOTS)))
    if kind == "convoy" and unit.type == "F":
        return Convoy(unit, draw(st.sampled_from(LAND)), draw(st.sampled_from(LAND)))
    destination = draw(st.none() | st.sampled_from(PROVINCES))
    return Support(unit, draw(st.sampled_from(PROVINCES)), destination, draw(st.sampled_from(TYPES)))


@st.composite
def retreat_orders(draw: st.DrawFn) -> Order:
    unit = draw(st.sampled_from(START))
    if draw(st.booleans()):
        return Disband(unit)
    return Retreat(unit, draw(st.sampled_from(LAND if unit.type == "A" else FLEET_SPOTS)))


@given(order=movement_orders())
@settings(max_examples=300, deadline=None)
def test_random_movement_orders_read_back(order: Order) -> None:
    assert isinstance(order, (Hold, Move, Support, Convoy))
    _assert_round_trip([order], START, order.unit.power, "movement")


@given(order=retreat_orders())
@settings(max_examples=150, deadline=None)
def test_random_retreat_orders_read_back(order: Order) -> None:
    assert isinstance(order, (Retreat, Disband))
    _assert_round_trip([order], START, order.unit.power, "retreat")


@given(power=st.sampled_from(STANDARD["powers"]), pick=st.integers(min_value=0, max_value=99))
@settings(max_examples=150, deadline=None)
def test_random_adjustment_orders_read_back(power: str, pick: int) -> None:
    units = tuple(u for u in START if u.power != power)  # the power's home centres stand empty
    homes = [k for k in PROVINCES if MAP.provinces[k].home_of == power]
    builds: list[Order] = [Build(power, "A", k) for k in homes]
    builds += [Build(power, "F", loc) for k in homes for loc in MAP.fleet_locations(k)]
    choice = [*builds, Waive(power)][pick % (len(builds) + 1)]
    _assert_round_trip([choice], units, power, "adjustment")
    other = units[pick % len(units)]
    _assert_round_trip([Disband(other)], units, other.power, "adjustment")


def test_a_maps_names_are_built_once_and_shared_by_its_copies() -> None:
    from dataclasses import replace

    from engine.diplomacy._names import Names
    from engine.diplomacy._parse import order_vocabulary

    assert Names.of(MAP) is Names.of(MAP)
    assert Names.of(replace(MAP, name="a copy for one phase")) is Names.of(MAP)
    assert order_vocabulary(MAP, verbs=["bribe"]) is order_vocabulary(MAP, verbs=["bribe"])
    other = Map.from_data({**STANDARD, "aliases": {**STANDARD.get("aliases", {}), "lyons gulf": "gol"}})
    assert Names.of(other).exact("Lyons Gulf") == "gol" and Names.of(MAP).exact("Lyons Gulf") is None


def test_a_line_is_read_once_whatever_the_position(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading a line depends on the map's names only, so `courier resolve` reads each distinct line
    once per batch; what the position makes of it (whose unit, legal or not) is judged every time."""
    from engine.diplomacy import _parse

    calls: list[str] = []
    real = _parse._read_line

    def counting(text: str, map: Any, names: Any) -> Any:
        calls.append(text)
        return real(text, map, names)

    monkeypatch.setattr(_parse, "_read_line", counting)
    line = "A vie - tyr  # a line seen once in this test"
    mine = [Unit("Austria", "A", "vie")]
    theirs = [Unit("Italy", "A", "vie")]
    first = parse_orders(MAP, mine, power="Austria", phase_kind="movement", text=line)
    second = parse_orders(MAP, theirs, power="Austria", phase_kind="movement", text=line)
    assert calls == [line]
    assert first[0] and not first[1]
    assert not second[0] and second[1]  # not Austria's unit in the second position
