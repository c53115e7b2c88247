"""Star Trek order text. Unit orders are read by the Diplomacy parser once the Star Trek words are
put into its terms (``ship`` → ``F``, ``troop`` → ``A``, full system names → keys); ability and
alliance lines (``rage on``, ``sabotage klingon qonos``, ``ally with klingon``) are read here."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from engine.core import LineError, fold
from engine.diplomacy import Names, Order, PhaseKind, Unit, parse_orders
from engine.startrek._factions import FACTIONS, MAP, faction_named

AbilityKind = Literal["rage", "immunity", "tal shiar", "bribe", "sabotage", "buy", "freeze", "ally", "break"]

_NAMES = Names.of(MAP)
_TYPE_WORDS = {"ship": "F", "ships": "F", "troop": "A", "troops": "A", "t": "A"}
_BEFORE_TYPE = {"s", "support", "supports", "c", "convoy", "convoys", "build", "builds", "disband", "remove"}
_SPELLED_OUT = sorted(
    ((p.name, p.key) for p in MAP.provinces.values() if re.search(r"[\s']", p.name)), key=lambda n: -len(n[0])
)
_NAME_PATTERNS = [
    (re.compile(r"(?<![\w'])" + r"[\s_-]+".join(map(re.escape, name.split())) + r"(?![\w'])", re.I), key)
    for name, key in [*_SPELLED_OUT, ("Deep Space Nine", "ds9")]
]
_DISPLAY = re.compile(r"(?<![\w/])([AF])(?= [a-z0-9])")


@dataclass(frozen=True)
class Ability:
    """One ability or alliance line. ``faction`` is the other faction named, ``system`` the system."""

    kind: AbilityKind
    faction: str = ""
    system: str = ""
    on: bool = True  # rage on / off
    openly: bool = False  # ally openly with: public once both sides say so

    def __str__(self) -> str:
        other = self.faction.lower()
        return {
            "rage": f"rage {'on' if self.on else 'off'}",
            "immunity": f"immunity {self.system}",
            "tal shiar": f"tal shiar {other}",
            "bribe": f"bribe {other}",
            "sabotage": f"sabotage {other} {self.system}",
            "buy": f"buy {self.system}",
            "freeze": f"freeze {self.system}",
            "ally": f"ally {'openly ' if self.openly else ''}with {other}",
            "break": f"break with {other}",
        }[self.kind]


_ABILITY_WORDS: dict[str, AbilityKind] = {
    "rage": "rage",
    "immunity": "immunity",
    "immune": "immunity",
    "tal shiar": "tal shiar",
    "talshiar": "tal shiar",
    "bribe": "bribe",
    "sabotage": "sabotage",
    "buy": "buy",
    "purchase": "buy",
    "freeze": "freeze",
    "ally with": "ally",
    "ally": "ally",
    "ally openly with": "ally",
    "ally openly": "ally",
    "break with": "break",
    "break alliance with": "break",
}
_ARGUMENTS: dict[AbilityKind, tuple[str, ...]] = {
    "rage": ("switch",),
    "immunity": ("system",),
    "tal shiar": ("faction",),
    "bribe": ("faction",),
    "sabotage": ("faction", "system"),
    "buy": ("system",),
    "freeze": ("system",),
    "ally": ("faction",),
    "break": ("faction",),
}


class _Unread(Exception):
    def __init__(self, reason: str, suggestion: str | None = None) -> None:
        super().__init__(reason)
        self.reason, self.suggestion = reason, suggestion


def display(order: object) -> str:
    """An order as players read it: ``F earth - vulcan`` → ``ship earth - vulcan``."""
    return _DISPLAY.sub(lambda m: "ship" if m.group(1) == "F" else "troop", str(order))


_WORDS = re.compile(r"\b(army|armies|fleet|fleets|sea|inland)\b")
_STAR_TREK_WORDS = {
    "army": "troop",
    "armies": "troops",
    "fleet": "ship",
    "fleets": "ships",
    "sea": "hyperspace",
    "inland": "in the core",
}


def explain(reason: str) -> str:
    """A Diplomacy parser's message in Star Trek words."""
    return display(_WORDS.sub(lambda m: _STAR_TREK_WORDS[m.group(1)], reason))


def unit_text(unit: Unit) -> str:
    return display(str(unit))


def to_diplomacy(line: str) -> str:
    """A Star Trek order line in the Diplomacy parser's words."""
    for pattern, key in _NAME_PATTERNS:
        line = pattern.sub(key, line)
    words = line.split()
    out: list[str] = []
    for i, word in enumerate(words):
        low = word.casefold()
        if low in _TYPE_WORDS:
            out.append(_TYPE_WORDS[low])
        elif low == "s" and (i == 0 or words[i - 1].casefold() in _BEFORE_TYPE):
            out.append("F")  # "S earth S S vulcan": a ship where a unit is expected, else support
        else:
            out.append(word)
    return " ".join(out)


def read_ability(line: str) -> Ability | LineError | None:
    """An ability line, the reason it cannot be read, or ``None`` when the line is no ability."""
    words = fold(line.partition("#")[0]).replace(",", " ").split()
    for size in (3, 2, 1):
        kind = _ABILITY_WORDS.get(" ".join(words[:size]))
        if kind is not None:
            try:
                return replace(_arguments(kind, words[size:]), openly="openly" in words[:size])
            except _Unread as e:
                return LineError(line.strip(), e.reason, e.suggestion)
    return None


def _arguments(kind: AbilityKind, words: list[str]) -> Ability:
    wanted = _ARGUMENTS[kind]
    if kind == "rage":
        if words not in (["on"], ["off"]):
            raise _Unread("say “rage on” or “rage off”")
        return Ability("rage", on=words == ["on"])
    faction = system = ""
    rest = list(
        words[1:] if words[:1] == ["the"] and "faction" in wanted else words
    )  # "ally with the klingons"
    if "faction" in wanted:
        if not rest:
            raise _Unread(f"name a faction ({', '.join(f.lower() for f in FACTIONS)})")
        rest_word = rest.pop(0)
        named = faction_named(rest_word)
        if named is None:
            raise _Unread(f"there is no faction “{rest_word}”; the factions: {', '.join(FACTIONS)}")
        faction = named
    if "system" in wanted:
        system = _system(" ".join(rest), kind, faction)
    elif rest:
        raise _Unread(f"“{' '.join(rest)}” was not understood")
    return Ability(kind, faction, system)


def _system(typed: str, kind: AbilityKind, faction: str) -> str:
    if not typed:
        raise _Unread("name a system")
    text = to_diplomacy(typed)
    key = _NAMES.exact(text) or _only(_NAMES.by_prefix(text))
    if key is not None:
        return key
    guess = _NAMES.close(text)
    fix = str(Ability(kind, faction, guess)) if guess else None
    raise _Unread(f"there is no system called “{typed}”", fix)


def _only(keys: set[str]) -> str | None:
    return next(iter(keys)) if len(keys) == 1 else None


@dataclass(frozen=True)
class Reading:
    orders: tuple[Order, ...]
    abilities: tuple[Ability, ...]
    errors: tuple[LineError, ...]
    notes: tuple[str, ...]


def read_lines(units: Sequence[Unit], *, faction: str, phase_kind: PhaseKind, text: str) -> Reading:
    """One player's message: unit orders, ability lines, and errors quoting the player's own line."""
    abilities: list[Ability] = []
    errors: list[LineError] = []
    order_lines: dict[str, str] = {}  # translated line -> the player's line
    for line in text.splitlines():
        if line.strip().startswith("#") or not line.strip():
            continue
        ability = read_ability(line)
        if isinstance(ability, Ability):
            abilities = [a for a in abilities if not _same_slot(a, ability)] + [ability]
        elif isinstance(ability, LineError):
            errors.append(ability)
        else:
            order_lines.setdefault(to_diplomacy(line.strip()), line.strip())
    orders, order_errors, notes = parse_orders(
        MAP,
        units,
        power=faction,
        phase_kind=phase_kind,
        text="\n".join(order_lines),
    )
    for error in order_errors:
        suggestion = display(error.suggestion) if error.suggestion else None
        errors.append(LineError(order_lines.get(error.line, error.line), explain(error.reason), suggestion))
    return Reading(tuple(orders), tuple(abilities), tuple(errors), tuple(explain(n) for n in notes))


def _same_slot(a: Ability, b: Ability) -> bool:
    """A later line replaces an earlier one of the same kind (alliances: with the same faction)."""
    if {a.kind, b.kind} <= {"ally", "break"}:
        return a.faction == b.faction
    return a.kind == b.kind
