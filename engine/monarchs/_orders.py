"""Reading a nation's orders: syntax first (``read_line``), then legality against the map
(``check_orders``). Each line stands or falls alone; a rejected move does not count against later ones."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from engine.core import LineError
from engine.monarchs._board import CENTRE, HEXES, adjacent, distance, home_of, is_hex, near_names

_ARROWS = re.compile(r"->|→|=>|[-–—>:,;]")
_FILLER = frozenset(
    {"unit", "units", "regiment", "regiments", "army", "armies", "from", "to", "move", "moves"}
)
_HEXLIKE = re.compile(r"^[a-z]\d+$")
_MOVE_FORM = "5 C5 D4"
BOOST_NAMES_ONE_HEX = "a boost names one hex"


@dataclass(frozen=True)
class Move:
    origin: str
    target: str
    regiments: int

    def __str__(self) -> str:
        return f"{self.regiments} {self.origin} {self.target}"


@dataclass(frozen=True)
class Boost:
    hex: str

    def __str__(self) -> str:
        return f"boost {self.hex}"


Order = Move | Boost


@dataclass(frozen=True)
class Orders:
    """One nation's orders for a turn: at most one boost, and moves (several may share an edge)."""

    boost: str | None = None
    moves: tuple[Move, ...] = ()

    def lines(self) -> tuple[str, ...]:
        return (*(str(m) for m in self.moves), *([f"boost {self.boost}"] if self.boost else []))


def read_line(line: str) -> Order | LineError:
    """The syntax layer: what one line says, with hex names checked against the board."""
    quoted = line.strip()
    words = _ARROWS.sub(" ", quoted.lower()).replace(".", " ").split()
    words = [w for w in words if w not in _FILLER]
    if words and words[0] in ("boost", "boosts"):
        return _boost(quoted, words[1:])
    numbers = [w for w in words if w.isdigit()]
    places = [w for w in words if _HEXLIKE.match(w)]
    others = [w for w in words if w not in numbers and w not in places]
    if others or len(numbers) != 1 or len(places) != 2:
        return _unreadable(quoted, words)
    origin, target = (p.upper() for p in places)
    for name in (origin, target):
        if not is_hex(name):
            return _not_a_hex(quoted, name, origin, target, int(numbers[0]))
    regiments = int(numbers[0])
    if regiments < 1:
        return LineError(quoted, "a move needs at least 1 regiment")
    return Move(origin, target, regiments)


def _boost(quoted: str, rest: Sequence[str]) -> Boost | LineError:
    if len(rest) != 1:
        return LineError(quoted, BOOST_NAMES_ONE_HEX)  # the hex to suggest: check_orders, from the map
    name = rest[0].upper()
    if is_hex(name):
        return Boost(name)
    near = near_names(name)
    return LineError(quoted, _no_hex_reason(name, near), f"boost {near[0]}" if near else None)


def _not_a_hex(quoted: str, name: str, origin: str, target: str, regiments: int) -> LineError:
    near = near_names(name)
    other = target if name == origin else origin
    # Only a neighbour of the other hex makes a move (never the other hex itself: "2 I5 I5").
    best = [h for h in near if not is_hex(other) or adjacent(h, other)]
    if not best:
        return LineError(quoted, _no_hex_reason(name, near))
    fixed = (best[0], target) if name == origin else (origin, best[0])
    return LineError(quoted, _no_hex_reason(name, near), str(Move(fixed[0], fixed[1], regiments)))


def _no_hex_reason(name: str, near: Sequence[str]) -> str:
    if not near:
        return f"{name} is not a hex (letters A–Q, rows 1–9)"
    return f"{name} is not a hex — the hexes nearest that name are {' and '.join(near)}"


def _unreadable(quoted: str, words: Sequence[str]) -> LineError:
    first = words[0] if words else ""
    if first and difflib.get_close_matches(first, ["boost"], n=1, cutoff=0.6):
        return LineError(quoted, f"“{first}” is not an order", f"boost {' '.join(words[1:]).upper()}".strip())
    return LineError(
        quoted, f"this is not an order; a move reads like “{_MOVE_FORM}”, a boost like “boost G9”"
    )


def check_orders(
    nation: str,
    armies: Mapping[str, tuple[str, int]],
    read: Sequence[tuple[str, Order | LineError]],
) -> tuple[Orders, list[LineError], list[str]]:
    """The legality layer, line by line in order (each with the text the player typed):
    (orders that stand, errors, notes)."""
    moves: list[Move] = []
    boost: str | None = None
    errors: list[LineError] = []
    notes: list[str] = []
    sent: dict[str, int] = {}
    for line, order in read:
        if isinstance(order, LineError):
            errors.append(_own_boost_hint(order, nation, armies))
        elif isinstance(order, Boost):
            if boost is not None:
                notes.append(f"Only one hex may be boosted: boost {order.hex} replaces boost {boost}.")
            boost = order.hex
        else:
            problem = _move_problem(nation, armies, order, sent.get(order.origin, 0))
            if problem:
                errors.append(LineError(line.strip(), problem))
            else:
                sent[order.origin] = sent.get(order.origin, 0) + order.regiments
                moves.append(order)
    return Orders(boost, tuple(moves)), errors, notes


def _own_boost_hint(error: LineError, nation: str, armies: Mapping[str, tuple[str, int]]) -> LineError:
    """A boost that names no hex (“Sorry, forgot the boost!”): suggest one of the nation's own."""
    if error.reason != BOOST_NAMES_ONE_HEX and error.suggestion != "boost":
        return error
    best = own_boost_hex(nation, armies)
    return replace(error, suggestion=f"boost {best}" if best else None)


def own_boost_hex(nation: str, armies: Mapping[str, tuple[str, int]]) -> str | None:
    """The hex to offer ``nation`` as a boost: its biggest army outside the home base (which nobody
    may enter, so no battle is fought there), nearest the centre: where a battle is likeliest."""
    hexes = [h for h, (owner, count) in armies.items() if owner == nation and count and home_of(h) is None]
    return min(hexes, key=lambda h: (-armies[h][1], distance(h, CENTRE), HEXES.index(h)), default=None)


def _move_problem(nation: str, armies: Mapping[str, tuple[str, int]], move: Move, already: int) -> str | None:
    owner, count = armies.get(move.origin, (None, 0))
    if owner != nation or count == 0:
        return f"{nation.title()} has no regiments on {move.origin}"
    if not adjacent(move.origin, move.target):
        return f"{move.target} is not next to {move.origin}"
    home = home_of(move.target)
    if home is not None and home != nation:
        return f"{move.target} is {home.title()}'s home base, which nobody else may enter"
    if already + move.regiments > count:
        left = count - already
        return (
            f"{move.origin} holds {count} {nation.title()} regiment{'s' if count != 1 else ''} and "
            f"{already} already leave it; "
            f"at most {left} more may go"
        )
    return None
