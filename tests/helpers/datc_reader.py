"""Reads the DATC case files in tests/data/datc/ (godip-style ``CASE ... END`` blocks). Their orders
(``A vie - tyr``, ``A lon - bel VIA``, ``F nth C A lon - bel``, ``F por S F mao - spa/nc``...) go
through the same text reader as players' mail and ``courier resolve`` (``read_orders``), so a reader
that loses part of an order (a support's coast, say) fails the DATC."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from engine.diplomacy import (
    STANDARD,
    DislodgedUnit,
    Order,
    Phase,
    PhaseKind,
    Position,
    Season,
    Unit,
    UnitType,
    read_orders,
)
from tests.helpers.paths import DATA as TEST_DATA

DATA = TEST_DATA / "datc"
START = Phase(1901, "spring", "movement")
_UNIT = r"([AF]) ([a-z]{3}(?:/[a-z]{2})?)"


@dataclass
class Case:
    id: str
    title: str
    phase: Phase = START
    sections: dict[str, list[str]] = field(default_factory=dict)

    def lines(self, section: str) -> list[str]:
        return self.sections.get(section, [])

    def units(self, section: str) -> list[Unit]:
        return [parse_unit(line) for line in self.lines(section)]

    def dislodged(self, section: str) -> list[DislodgedUnit]:
        found = []
        for line in self.lines(section):
            unit_text, _, attacker = line.partition(" <- ")
            origin, _, by_convoy = attacker.partition(" ")
            found.append(DislodgedUnit(parse_unit(unit_text), origin, via_convoy=by_convoy == "by convoy"))
        return found

    def contested(self, section: str) -> frozenset[str]:
        return frozenset(p for line in self.lines(section) for p in line.split())

    def supply_centers(self) -> dict[str, frozenset[str]]:
        centres = {}
        for line in self.lines("PRESTATE_SUPPLYCENTERS"):
            power, _, provinces = line.partition(": ")
            centres[power] = frozenset(provinces.split())
        return centres

    def orders(self, position: Position) -> list[tuple[str, Order | None]]:
        """(the order's text as written, the order as the text reader reads it against
        ``position``, or ``None`` when the reader refuses it as illegal)."""
        return [(line, read_order(line, position)) for line in self.lines("ORDERS")]

    def expected_results(self) -> list[tuple[str, str]]:
        """(order text, "succeeds" | "fails" | "illegal") for the orders the DATC rules on."""
        return [cast(tuple[str, str], tuple(line.rsplit(" = ", 1))) for line in self.lines("RESULTS")]


def parse_unit(text: str) -> Unit:
    power, _, rest = text.partition(": ")
    match = re.fullmatch(_UNIT, rest)
    if match is None:
        raise ValueError(f"bad unit: {text!r}")
    return Unit(power, cast(UnitType, match[1]), match[2])


def read_order(text: str, position: Position) -> Order | None:
    """One ``Power: order`` line read by the reader mail and ``courier resolve`` use, or ``None``
    when it refuses the line."""
    power, _, rest = text.partition(": ")
    orders, refused = read_orders(STANDARD, position, {power: [rest]})
    assert len(orders) + len(refused) == 1, text
    return orders[0] if orders else None


def read_cases(path: Path) -> list[Case]:
    cases: list[Case] = []
    case: Case | None = None
    section = ""
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("CASE "):
            ident, _, title = line[5:].partition(" ")
            case, section = Case(ident, title), ""
        elif case is None:
            raise ValueError(f"{path.name}: text outside a case: {line!r}")
        elif line == "END":
            cases.append(case)
            case = None
        elif line.startswith("PHASE "):
            season, year, kind = line.split()[1:]
            case.phase = Phase(int(year), cast(Season, season), cast(PhaseKind, kind))
        elif re.fullmatch(r"[A-Z_]+", line):
            section = line
            case.sections[section] = []
        else:
            case.sections[section].append(line)
    return cases


def all_cases() -> list[Case]:
    return [case for path in sorted(DATA.glob("6*.txt")) for case in read_cases(path)]


def beyond_datc() -> list[Case]:
    """Our own cases in the same format, decided by the DATC's rules (tests/data/diplomacy/)."""
    return read_cases(DATA.parent / "diplomacy" / "adjudication.txt")
