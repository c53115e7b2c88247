"""Reading Diplomacy orders in two layers, as python-chess does (``Move.from_uci`` then
``Board.parse_san``): ``parse_order_syntax`` reads one line without the position; ``parse_orders``
reads a player's message and checks each line against the units on the board and the phase.

Whether a move is adjacent, a support reaches or a convoy exists is the resolver's business: such
orders are kept and fail there. Only what is impossible on its face is refused here: unknown
provinces, armies at sea, fleets inland, a fleet heading for a split coast without saying which."""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from engine.core import LineError
from engine.diplomacy._map import Map
from engine.diplomacy._names import Names, split_coast
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
    province_of,
)
from engine.diplomacy._position import PhaseKind, Position
from engine.diplomacy._retreat_check import retreat_problem
from engine.reading import Vocabulary

OrderKind = Literal["hold", "move", "support", "convoy", "retreat", "disband", "build", "waive"]


@dataclass(frozen=True)
class ParsedOrder:
    """What a line says before the position is known. ``unit_type`` is ``None`` when the player left
    it out; ``other`` is the supported or convoyed unit's location; ``destination`` is where the
    unit (move, retreat) or the other unit (support, convoy) goes."""

    kind: OrderKind
    unit_type: UnitType | None = None
    location: str = ""  # empty only for waive
    destination: str | None = None
    other: str | None = None
    other_type: UnitType | None = None
    via_convoy: bool = False

    @property
    def unit(self) -> str:
        return f"{self.unit_type} {self.location}" if self.unit_type else self.location

    def __str__(self) -> str:
        other = f"{self.other_type} {self.other}" if self.other_type else str(self.other)
        return {
            "hold": f"{self.unit} H",
            "move": f"{self.unit} - {self.destination}{' VIA' if self.via_convoy else ''}",
            "support": f"{self.unit} S {other}" + (f" - {self.destination}" if self.destination else ""),
            "convoy": f"{self.unit} C A {self.other} - {self.destination}",
            "retreat": f"{self.unit} R {self.destination}",
            "disband": f"{self.unit} D",
            "build": f"{self.unit} B",
            "waive": "waive",
        }[self.kind]


# --- the syntax layer -------------------------------------------------------------------------

_TYPES: dict[str, UnitType] = {"a": "A", "army": "A", "f": "F", "fleet": "F"}
_STAY = {"stay", "stays", "remain", "remains"}  # read as hold, but too common in chat to mark an order
_HOLD = {"h", "hold", "holds", "holding", "stand", "stands", *_STAY}
# Plain English too: "the army in Paris goes to Burgundy", "A Mun attacks Bur".
_MOVE = {
    *("-", "to", "into", "move", "moves", "moving", "go", "goes"),
    *("attack", "attacks", "advance", "advances", "enter", "enters"),
}
_SUPPORT = {"s", "support", "supports"}
_CONVOY = {"c", "convoy", "convoys"}
_VIA = {"via", "by"}
_RETREAT = {"r", "retreat", "retreats"}
_DISBAND = {"d", "disband", "disbands", "remove", "removes"}
_BUILD = {"b", "build", "builds"}
_WAIVE = {"waive", "waives"}
_FILLERS = {"an", "in", "at"}  # "build an army in Paris"
_ARTICLES = {"the", "my", "our"}  # "my army in the Ruhr"; skipped before a unit and a province
_INTENT = {"will", "shall", "should", "must"}  # "A par will hold"
_VERBS = _HOLD | _MOVE | _SUPPORT | _CONVOY | _VIA | _RETREAT | _DISBAND | _BUILD | _WAIVE
_KEYWORDS = _VERBS | set(_TYPES) | _FILLERS
_PREFIX_VERBS: tuple[tuple[set[str], OrderKind], ...] = (
    (_BUILD, "build"),
    (_DISBAND, "disband"),
    (_HOLD, "hold"),
)

_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_ARROW = re.compile(r"->|=>|→|–|—|>")
_COAST_LETTER = re.compile(r"/([nsew])(?![a-z])", re.IGNORECASE)  # spa/s → spa sc
_SEPARATOR = re.compile(r"[/(),;:!?]")


class _Unreadable(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _tokens(line: str, names: Names) -> list[str]:
    text = _SEPARATOR.sub(" ", _COAST_LETTER.sub(r" \1c", _ARROW.sub(" - ", _BULLET.sub("", line))))
    tokens: list[str] = []
    for raw in text.split():
        word = raw.casefold().replace(".", "").replace("'", "").replace("’", "")
        if word in names.hyphenated:  # Mid-Atlantic
            tokens.extend(word.split("-"))
        else:  # par-bur
            tokens.extend(w for w in re.split(r"(-)", word) if w)
    return tokens


class _Reader:
    """A cursor over one line's words. Problems it can fix (a misspelt province, a missing ``-``)
    are noted and reading goes on with the fix, so the error can suggest the whole corrected line."""

    def __init__(self, line: str, map: Map, names: Names) -> None:
        self.map, self.names = map, names
        self.words = _tokens(line, names)
        self.at = 0
        self.problems: list[str] = []
        self.named = False  # a unit type or a province spelt right: the line is an order attempt

    def peek(self) -> str | None:
        return self.words[self.at] if self.at < len(self.words) else None

    def take_if(self, choices: Collection[str]) -> str | None:
        word = self.peek()
        if word is None or word not in choices:
            return None
        self.at += 1
        return word

    def skip(self, words: Collection[str]) -> None:
        while self.take_if(words):
            pass

    def unit_type(self) -> UnitType | None:
        self.skip(_FILLERS | _ARTICLES)
        word = self.take_if(_TYPES)
        if word == "a" and self.peek() in _TYPES:  # "build a fleet"
            word = self.take_if(_TYPES)
        self.skip(_FILLERS | _ARTICLES)
        self.named = self.named or word is not None
        return _TYPES[word] if word else None

    def move_word(self) -> bool:
        word = self.take_if(_MOVE)
        if word not in (None, "-", "to", "into"):  # "moves to", "goes into"
            self.take_if({"to", "into", "-"})
        return word is not None

    def via(self) -> bool:
        if self.take_if(_VIA) is None:
            return False
        self.take_if({"convoy", "c"})
        return True

    def place(self, near: str | None = None) -> str:
        """A province or coast; ``near`` (the unit's location) breaks ties between misspellings."""
        self.skip(_ARTICLES)  # "the North Sea"; "the Netherlands" is Holland without it too
        start = self.at
        while self.peek() is not None and self.peek() not in _KEYWORDS:
            self.at += 1
        words = self.words[start : self.at]
        if not words:
            after = f" after “{self.words[start - 1]}”" if start else ""
            raise _Unreadable(f"a province is missing{after}")
        for size in range(len(words), 0, -1):  # the longest run of words that names a province
            base, coast = split_coast(words[:size])
            key = self.names.exact(" ".join(base)) if base else None
            if key is None and size == len(words):
                key = _only(self.names.by_prefix(" ".join(base)))
            if key is not None:
                self.at = start + size
                self.named = True
                return self._with_coast(key, coast)
        return self._misspelt(words, near)

    def _misspelt(self, words: list[str], near: str | None) -> str:
        base, coast = split_coast(words)
        typed = " ".join(base)
        several = sorted(self.names.by_prefix(typed))
        if len(several) > 1:
            spelt = ", ".join(f"{self.map.provinces[k].name} ({k})" for k in several)
            raise _Unreadable(f"“{typed}” could be {spelt}")
        guess = self.names.close(typed, _nearby(self.map, near))
        self.problems.append(f"there is no province called “{typed}”")
        if guess is None:
            raise _Unreadable(self.problems.pop())
        return self._with_coast(guess, coast)

    def _with_coast(self, key: str, coast: str | None) -> str:
        province = self.map.provinces[key]
        if coast is None or coast in province.coasts:
            return f"{key}/{coast}" if coast else key
        if not province.coasts:
            self.problems.append(f"{province.name} has no coasts to choose from")
            return key
        coasts = " or ".join(f"{key}/{c}" for c in province.coasts)
        raise _Unreadable(f"{province.name} has no {coast} coast: say {coasts}")

    def end(self) -> None:
        if self.peek() is not None:
            self.problems.append(f"“{' '.join(self.words[self.at :])}” was not understood")


def _only(keys: set[str]) -> str | None:
    return next(iter(keys)) if len(keys) == 1 else None


def _nearby(map: Map, location: str | None) -> set[str]:
    if location is None:
        return set()
    here = province_of(location)
    edges = map.army_edges | map.fleet_edges
    return {province_of(b) for a, b in edges if province_of(a) == here}


def _read(r: _Reader) -> ParsedOrder:
    first = r.peek()
    if first is None:
        raise _Unreadable("this is not an order")
    if r.take_if(_WAIVE):
        r.take_if({"build", "builds"})
        return ParsedOrder("waive")
    if first == "move" and r.words[r.at + 1 : r.at + 2] != ["to"]:  # "move A par to bur"
        r.at += 1
    for verbs, kind in _PREFIX_VERBS:
        if r.take_if(verbs):  # build army Paris, disband F tri, hold A mun
            unit_type = r.unit_type()
            return ParsedOrder(kind, unit_type, r.place())
    if r.take_if(_RETREAT):  # retreat F tri to alb
        unit_type = r.unit_type()
        location = r.place()
        r.move_word() or r.take_if(_RETREAT)
        return ParsedOrder("retreat", unit_type, location, r.place(location))
    unit_type = r.unit_type()
    return _verb(r, unit_type, r.place())


def _verb(r: _Reader, unit_type: UnitType | None, location: str) -> ParsedOrder:
    """What follows ``A par``."""
    order = ParsedOrder("hold", unit_type, location)
    r.skip(_INTENT)
    word = r.peek()
    if word is None:
        r.problems.append(f"say what {order.unit} should do")
        return order
    if word not in _KEYWORDS:
        close = difflib.get_close_matches(word, [v for v in _VERBS if len(v) > 2], n=1, cutoff=0.75)
        r.problems.append(f"“{word}” is not an order word" if close else "write a move with “-”")
        if close:
            r.words[r.at] = close[0]
        else:
            r.words.insert(r.at, "-")
    if r.take_if(_HOLD):
        return order
    if r.move_word():
        destination, path = r.place(location), False
        while r.move_word():  # A lon - nth - bel: the convoy's path, as some judges write it
            destination, path = r.place(), True
        return replace(order, kind="move", destination=destination, via_convoy=r.via() or path)
    if r.take_if(_SUPPORT):
        r.take_if(_HOLD)  # "supports hold Marseilles"
        other_type = r.unit_type()
        other = r.place()
        target = r.place(other) if r.move_word() else None
        if target is None:
            r.take_if(_HOLD)
        return replace(order, kind="support", other=other, other_type=other_type, destination=target)
    if r.take_if(_CONVOY):
        other_type = r.unit_type()
        other = r.place()
        if not r.move_word():
            raise _Unreadable("write a convoy as “F nth C A lon - bel”")
        return replace(order, kind="convoy", other=other, other_type=other_type, destination=r.place())
    if r.take_if(_RETREAT):
        r.move_word()
        return replace(order, kind="retreat", destination=r.place(location))
    if r.take_if(_DISBAND):
        return replace(order, kind="disband")
    if r.take_if(_BUILD):
        return replace(order, kind="build")
    raise _Unreadable(f"“{word}” cannot follow “{order.unit}”")


# What a line says does not depend on the position, only on the map's names: a line read once is not
# read again (the same "A par - bur" comes in phase after phase, and in a JSON Lines batch). Keyed by
# the names' identity; each entry keeps its names alive, so an id is never reused while cached.
_READ: dict[tuple[int, str], tuple[Names, ParsedOrder | LineError]] = {}
_READ_KEPT = 20_000


def _syntax(text: str, map: Map, names: Names) -> ParsedOrder | LineError:
    key = (id(names), text)
    hit = _READ.get(key)
    if hit is not None and hit[0] is names:
        return hit[1]
    if len(_READ) >= _READ_KEPT:
        _READ.clear()
    found = _read_line(text, map, names)
    _READ[key] = (names, found)
    return found


def _read_line(text: str, map: Map, names: Names) -> ParsedOrder | LineError:
    line = text.strip()
    reader = _Reader(line.partition("#")[0], map, names)  # "A par - bur  # to Burgundy"
    try:
        order = _read(reader)
        reader.end()
    except _Unreadable as e:
        return LineError(line, "; ".join([*reader.problems, e.reason]))
    if reader.problems:
        # A guess is offered only for a line that names a unit or a province: "please hold" is
        # no misspelt "nap H".
        return LineError(line, "; ".join(reader.problems), str(order) if reader.named else None)
    return order


def order_vocabulary(
    map: Map, *, verbs: Iterable[str] = (), words: Iterable[str] = (), signs: Iterable[str] = ()
) -> Vocabulary:
    """The words of orders on ``map`` for the forgiving reader (``engine.reading``): the full order
    words (not ``S`` or ``-``, which are not words of a sentence), every province's spellings, and
    the unit types, plus a variant's own ``verbs``, ``words`` and ``signs``."""
    return _vocabulary(Names.of(map), frozenset(verbs), frozenset(words), frozenset(signs))


@lru_cache(maxsize=64)
def _vocabulary(
    names: Names, verbs: frozenset[str], words: frozenset[str], signs: frozenset[str]
) -> Vocabulary:
    """Built once per map and variant: every parse asks for it."""
    full = {w for w in _VERBS - _MOVE - _STAY if len(w) > 2} | {"move", "moves", "draw"}
    marks = {"-", "->", "=>", "→", *(w for w in _VERBS if len(w) == 1), *signs}
    return Vocabulary.of(full | verbs, names.spellings, words={*_TYPES, *words}, signs=marks)


def parse_order_syntax(text: str, map: Map) -> ParsedOrder | LineError:
    """The syntax layer: what one line says, provinces resolved against ``map``, or why it cannot
    be read (with the corrected line as the suggestion when there is one)."""
    return _syntax(text, map, Names.of(map))


# --- the legality layer -----------------------------------------------------------------------

_ALLOWED: dict[str, tuple[str, ...]] = {
    "movement": ("hold", "move", "support", "convoy"),
    "retreat": ("retreat", "disband"),
    "adjustment": ("build", "disband", "waive"),
}
_PHASE_HELP = {
    "movement": "hold (H), move (-), support (S) or convoy (C)",
    "retreat": "retreat (R) or disband (D) a dislodged unit",
    "adjustment": "build (B), disband (D) or waive",
}
_TYPE_NAMES = {"A": "army", "F": "fleet"}


class _Illegal(Exception):
    """Why an order cannot stand, and the corrected reading to suggest, if any."""

    def __init__(self, reason: str, fix: ParsedOrder | None = None) -> None:
        super().__init__(reason)
        self.reason, self.fix = reason, fix


@dataclass(frozen=True)
class _Position:
    map: Map
    units: dict[str, Unit]  # province → the unit standing there
    power: str
    phase: PhaseKind
    board: Position | None = None  # when known, a retreat is checked against where it may go

    @property
    def mine(self) -> list[Unit]:
        return sorted((u for u in self.units.values() if u.power == self.power), key=str)

    def name(self, location: str) -> str:
        return self.map.province(location).name


def _check(line: str, parsed: ParsedOrder, pos: _Position) -> Order | LineError:
    try:
        return _legal(parsed, pos)
    except _Illegal as e:
        return LineError(line, e.reason, _suggest(e.fix, pos))


def _suggest(fix: ParsedOrder | None, pos: _Position) -> str | None:
    if fix is None:
        return None
    checked = _check(str(fix), fix, pos)
    return checked.suggestion if isinstance(checked, LineError) else str(checked)


def _legal(parsed: ParsedOrder, pos: _Position) -> Order:
    if pos.phase == "retreat" and parsed.kind == "move":  # "F tri - alb" is how most write a retreat
        parsed = replace(parsed, kind="retreat", via_convoy=False)
    if parsed.kind not in _ALLOWED[pos.phase]:
        fix = replace(parsed, kind="move") if parsed.kind == "retreat" else None
        raise _Illegal(f"this is the {pos.phase} phase: orders are {_PHASE_HELP[pos.phase]}", fix)
    if parsed.kind == "waive":
        return Waive(pos.power)
    if parsed.kind == "build":
        return _build(parsed, pos)
    unit = _own_unit(parsed, pos)
    if parsed.kind == "hold":
        return Hold(unit)
    if parsed.kind == "disband":
        return Disband(unit)
    if parsed.kind == "move":
        return _move(unit, parsed, pos)
    if parsed.kind == "retreat":
        return _retreat(Retreat(unit, _destination(unit, parsed, pos)), parsed, pos)
    assert parsed.other is not None  # the syntax layer always reads one for support and convoy
    if parsed.kind == "support":
        return Support(unit, province_of(parsed.other), _support_target(parsed, pos), parsed.other_type)
    return _convoy(unit, parsed)


def _retreat(retreat: Retreat, parsed: ParsedOrder, pos: _Position) -> Retreat:
    problem = None if pos.board is None else retreat_problem(pos.map, pos.board, retreat)
    if problem is None:
        return retreat
    reason, place = problem
    fix = replace(parsed, kind="disband") if place is None else replace(parsed, destination=place)
    raise _Illegal(reason, fix)


def _support_target(parsed: ParsedOrder, pos: _Position) -> str | None:
    """Where a supported move goes. A coast written for a fleet's move stays, for it must match the
    move's coast (DATC 6.B.9); an army has no coast, so one written for it is dropped."""
    if parsed.destination is None:
        return None
    supported = pos.units.get(province_of(parsed.other or ""))
    fleet = (supported.type if supported else parsed.other_type) == "F"
    return parsed.destination if fleet else province_of(parsed.destination)


def _own_unit(parsed: ParsedOrder, pos: _Position) -> Unit:
    """The power's unit the order is for; the type, when left out, comes from the board."""
    unit = pos.units.get(province_of(parsed.location))
    dislodged = " dislodged" if pos.phase == "retreat" else ""
    listing = ", ".join(map(str, pos.mine)) or "none"
    here = pos.name(parsed.location)
    if unit is None or unit.power != pos.power:
        whose = f" ({unit} there is {unit.power}’s)" if unit else ""
        reason = f"you have no{dislodged} unit in {here}{whose}; your{dislodged} units: {listing}"
        raise _Illegal(reason, _stand_in(parsed, pos))
    if parsed.unit_type not in (None, unit.type):
        wrong = _TYPE_NAMES[parsed.unit_type or unit.type]
        fix = replace(parsed, unit_type=unit.type, location=unit.location)
        raise _Illegal(f"there is no{dislodged} {wrong} in {here}; you have {unit}", fix)
    return unit


def _stand_in(parsed: ParsedOrder, pos: _Position) -> ParsedOrder | None:
    """For a move by a unit the power lacks: its one unit that could make that move, if any."""
    if parsed.kind not in ("move", "retreat") or parsed.destination is None:
        return None
    target = province_of(parsed.destination)
    able = [
        u
        for u in pos.mine
        if parsed.unit_type in (None, u.type) and pos.map.reaches_province(u.type, u.location, target)
    ]
    if len(able) != 1:
        return None
    return replace(parsed, unit_type=able[0].type, location=able[0].location)


def _move(unit: Unit, parsed: ParsedOrder, pos: _Position) -> Move:
    if parsed.via_convoy and unit.type == "F":
        raise _Illegal("only armies travel by convoy", replace(parsed, via_convoy=False))
    return Move(unit, _destination(unit, parsed, pos), parsed.via_convoy)


def _destination(unit: Unit, parsed: ParsedOrder, pos: _Position) -> str:
    """Where a move or retreat goes: an army's province, a fleet's coast-exact location."""
    assert parsed.destination is not None
    province = pos.map.province(parsed.destination)
    if unit.type == "A" and province.kind == "sea":
        raise _Illegal(
            f"an army cannot go to sea, and {province.name} is a sea", _near_fit(unit, parsed, pos)
        )
    if unit.type == "A":
        return province.key
    if province.kind == "land":
        reason = f"a fleet cannot go inland, and {province.name} is inland"
        raise _Illegal(reason, _near_fit(unit, parsed, pos))
    if "/" in parsed.destination or not province.coasts:
        return parsed.destination
    reachable = pos.map.fleet_destinations(unit.location, province.key)
    if len(reachable) == 1:
        return reachable[0]
    coasts = pos.map.fleet_locations(province.key)
    raise _Illegal(f"say which coast: {' or '.join(coasts)}")


def _near_fit(unit: Unit, parsed: ParsedOrder, pos: _Position) -> ParsedOrder | None:
    """A place the unit can go whose name is like the one written (``A bre - eng`` has none)."""
    assert parsed.destination is not None
    written = pos.map.province(parsed.destination)
    places = {pos.map.provinces[province_of(n)] for n in pos.map.neighbours(unit.type, unit.location)}
    best = max(
        ((_likeness((written.key, written.name), (p.key, p.name)), p.key) for p in places),
        default=(0.0, ""),
    )
    return replace(parsed, destination=best[1]) if best[0] >= 0.6 else None


def _likeness(a: Iterable[str], b: Sequence[str]) -> float:
    return max(difflib.SequenceMatcher(None, x.casefold(), y.casefold()).ratio() for x in a for y in b)


def _convoy(unit: Unit, parsed: ParsedOrder) -> Convoy:
    assert parsed.other is not None and parsed.destination is not None
    if unit.type != "F":
        raise _Illegal(f"only fleets convoy, and {unit} is an army")
    if parsed.other_type == "F":
        raise _Illegal("only armies are convoyed", replace(parsed, other_type="A"))
    return Convoy(unit, province_of(parsed.other), province_of(parsed.destination))


def _build(parsed: ParsedOrder, pos: _Position) -> Build:
    province = pos.map.province(parsed.location)
    if province.home_of != pos.power:
        homes = sorted(p.key for p in pos.map.provinces.values() if p.home_of == pos.power)
        raise _Illegal(f"{province.name} is not one of your home centres ({', '.join(homes)})")
    if province.key in pos.units:
        raise _Illegal(f"{province.name} is occupied by {pos.units[province.key]}")
    unit_type = parsed.unit_type or ("A" if province.kind == "land" else None)
    if unit_type is None:
        raise _Illegal(f"say which to build: “A {province.key} B” or “F {province.key} B”")
    if unit_type == "A":
        return Build(pos.power, "A", province.key)
    if province.kind == "land":
        army = replace(parsed, unit_type="A", location=province.key)
        raise _Illegal(f"a fleet cannot be built in {province.name}, which is inland", army)
    if "/" in parsed.location or not province.coasts:
        return Build(pos.power, "F", parsed.location)
    raise _Illegal(f"say which coast: {' or '.join(pos.map.fleet_locations(province.key))}")


def _slot(order: Order) -> str | None:
    """What two orders must not share: a unit's province, a build's province (waives stack)."""
    if isinstance(order, Waive):
        return None
    return order.location if isinstance(order, Build) else order.unit.province


def parse_orders(
    map: Map,
    position_units: Sequence[Unit],
    *,
    power: str,
    phase_kind: PhaseKind,
    text: str,
    position: Position | None = None,
) -> tuple[list[Order], list[LineError], list[str]]:
    """Read one player's message: every line that is not blank or a ``#`` comment is an order or a
    ``LineError``. ``position_units`` are the units this phase's orders address, every power's:
    the units on the board in movement and adjustment phases, the dislodged units in a retreat
    phase. ``phase_kind`` is ``movement``, ``retreat`` or ``adjustment``. A unit (or a build
    site) ordered twice keeps its last order, with a note. With ``position``, a retreat is checked
    against the places the unit may retreat to (as a mail arrives). Returns (orders, errors, notes)."""
    if phase_kind not in _ALLOWED:
        raise ValueError(f"unknown phase kind {phase_kind!r}")
    names = Names.of(map)
    pos = _Position(map, {u.province: u for u in position_units}, power, phase_kind, position)
    chosen: dict[str, Order] = {}
    orders: list[Order] = []
    errors: list[LineError] = []
    notes: list[str] = []
    for line in text.splitlines():
        if line.strip().startswith("#") or not any(c.isalnum() for c in line):
            continue  # blank lines, comments and rules such as "-----"
        parsed = _syntax(line, map, names)
        order = parsed if isinstance(parsed, LineError) else _check(line.strip(), parsed, pos)
        if isinstance(order, LineError):
            errors.append(order)
            continue
        slot = _slot(order)
        if slot is not None and slot in chosen:
            orders.remove(chosen[slot])
            notes.append(f"{pos.name(slot)} had more than one order; the last one counts: “{order}”.")
        if slot is not None:
            chosen[slot] = order
        orders.append(order)
    return orders, errors, notes
