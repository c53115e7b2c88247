"""Reads the DATC case files in tests/data/datc/ (godip-style ``CASE ... END`` blocks) and the
strict order notation they use: ``A vie - tyr``, ``A lon - bel VIA``, ``F nth C A lon - bel``,
``A tyr S A ven - tri``, ``A tyr S A vie``, ``F nth H``, ``F tri R alb``, ``A par D``, ``A ber B``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from engine.diplomacy import (
    Build,
    Convoy,
    Disband,
    DislodgedUnit,
    Hold,
    Move,
    Order,
    Phase,
    PhaseKind,
    Retreat,
    Season,
    Support,
    Unit,
    UnitType,
)

DATA = Path(__file__).parent / "data" / "datc"
START = Phase(1901, "spring", "movement")
_LOC = r"[a-z]{3}(?:/[a-z]{2})?"
_UNIT = rf"([AF]) ({_LOC})"
_ORDER_FORMS: list[tuple[str, str]] = [
    ("move", rf"{_UNIT} - ({_LOC})( VIA)?"),
    ("convoy", rf"{_UNIT} C A ({_LOC}) - ({_LOC})"),
    ("support_move", rf"{_UNIT} S ([AF]) ({_LOC}) - ({_LOC})"),
    ("support_hold", rf"{_UNIT} S ([AF]) ({_LOC})"),
    ("hold", rf"{_UNIT} H"),
    ("retreat", rf"{_UNIT} R ({_LOC})"),
    ("disband", rf"{_UNIT} D"),
    ("build", rf"{_UNIT} B"),
]


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

    def orders(self) -> list[tuple[str, Order]]:
        """(the order's text as written, the order)."""
        return [(line, parse_order(line)) for line in self.lines("ORDERS")]

    def expected_results(self) -> list[tuple[str, str]]:
        """(order text, "succeeds" | "fails" | "illegal") for the orders the DATC rules on."""
        return [cast(tuple[str, str], tuple(line.rsplit(" = ", 1))) for line in self.lines("RESULTS")]


def parse_unit(text: str) -> Unit:
    power, _, rest = text.partition(": ")
    match = re.fullmatch(_UNIT, rest)
    if match is None:
        raise ValueError(f"bad unit: {text!r}")
    return Unit(power, cast(UnitType, match[1]), match[2])


def parse_order(text: str) -> Order:
    power, _, rest = text.partition(": ")
    for kind, pattern in _ORDER_FORMS:
        match = re.fullmatch(pattern, rest)
        if match is None:
            continue
        g = match.groups()
        unit = Unit(power, cast(UnitType, g[0]), g[1])
        if kind == "move":
            return Move(unit, g[2], via_convoy=g[3] is not None)
        if kind == "convoy":
            return Convoy(unit, g[2], g[3])
        if kind == "support_move":
            return Support(unit, g[3], g[4], cast(UnitType, g[2]))
        if kind == "support_hold":
            return Support(unit, g[3], None, cast(UnitType, g[2]))
        if kind == "hold":
            return Hold(unit)
        if kind == "retreat":
            return Retreat(unit, g[2])
        if kind == "disband":
            return Disband(unit)
        return Build(power, unit.type, unit.location)
    raise ValueError(f"bad order: {text!r}")


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
