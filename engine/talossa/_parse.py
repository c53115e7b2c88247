"""Reading Action Plans: the seed's notation (VII) and the variants players type.

``R: London, 3`` · ``Q: London >> Bratislava, 2`` · ``Q: London >> (north)`` · ``S: +London`` ·
``S: -London`` · ``C: London`` · ``M: London >> Edinburgh, 3; Paris >> Berlin, 2`` · ``[Wellington]``
(on the Conquer line or the line after it). Also: lower case, whole words (``reinforce``, ``attack``),
``->`` / ``>`` / ``→`` / ``to`` for ``>>``, missing spaces and colons, accents left out, numbered
lines (``3. R: ...``). One bad line never spoils the good ones.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping

from engine.core import LineError, fold, match_name
from engine.talossa._actions import (
    DIRECTIONS,
    Action,
    Capitalshift,
    Conquer,
    Leg,
    Move,
    Reinforce,
    Strongholding,
)
from engine.talossa._examples import FORMS, example
from engine.talossa._state import MAX_ACTIONS, Board

VERBS = {
    "r": "R",
    "reinforce": "R",
    "reinforcement": "R",
    "q": "Q",
    "conquer": "Q",
    "attack": "Q",
    "s": "S",
    "stronghold": "S",
    "strongholding": "S",
    "m": "M",
    "move": "M",
    "c": "C",
    "capital": "C",
    "capitalshift": "C",
}
DIRECTION_WORDS = {
    **{d: d for d in DIRECTIONS},
    **{d.replace("-", ""): d for d in DIRECTIONS},
    **{d.replace("-", " "): d for d in DIRECTIONS},
    **{"".join(w[0] for w in d.split("-")): d for d in DIRECTIONS},
}

_NUMBERING = re.compile(r"^\s*(?:\d+\s*[.)]|[-*•])\s+")
_VERB = re.compile(r"^\s*([^\W\d_]+)\s*:?\s*(.*)$")
_ARROW = re.compile(r"\s*(?:>>|->|=>|→|>|\bto\b)\s*", re.IGNORECASE)
_COUNT = re.compile(r"^(.*?)\s*,?\s*(\d+)\s*(?:units?)?$")
_NAME = re.compile(r"\[([^\]]*)\]")


class Names:
    """The spellings a plan may use: lands on the board, and names its own Conquers give; and the
    board and writer, for the examples its errors offer (``_examples``)."""

    def __init__(
        self, canonical: Mapping[str, str], board: Board | None = None, player: str | None = None
    ) -> None:
        self.canonical = dict(canonical)  # every spelling → the text a canonical line uses
        self.board, self.player = board, player

    @classmethod
    def of(cls, board: Board, player: str | None = None) -> Names:
        return cls(
            {
                s: (board.holdings[k].given_name or board.map.land(k).name)
                for s, k in board.spellings().items()
            },
            board,
            player,
        )

    def example(self, verb: str, text: str) -> str:
        """An action ``verb`` built from ``text`` and the writer's own lands."""
        return FORMS[verb] if self.board is None else example(verb, text, self.board, self.player)

    def define(self, name: str) -> None:
        self.canonical[name] = name

    def find(self, word: str) -> tuple[str | None, str | None]:
        return match_name(word, self.canonical)


def read_plan(board: Board, text: str, player: str | None = None) -> tuple[list[Action], list[LineError]]:
    """Every action the text states, in order (at most ten), and the lines that could not be read;
    ``player``: the writer, whose own lands the errors' examples use."""
    names = Names.of(board, player)
    actions: list[Action] = []
    errors: list[LineError] = []
    for raw in text.splitlines():
        line = _NUMBERING.sub("", raw).strip()
        if not line or line.startswith("#"):
            continue
        if _NAME.fullmatch(line):
            errors.extend(_name_previous(actions, names, line))
            continue
        read = read_action(line, names)
        if isinstance(read, LineError):
            errors.append(read)
        elif len(actions) >= MAX_ACTIONS:
            errors.append(LineError(line, f"a plan has at most {MAX_ACTIONS} actions; this one is left out"))
        else:
            actions.append(read)
            if isinstance(read, Conquer) and read.name:
                names.define(read.name)
    return actions, errors


def _name_previous(actions: list[Action], names: Names, line: str) -> list[LineError]:
    """``[Wellington]`` on its own line names the land the Conquer just before it takes."""
    last = actions[-1] if actions else None
    name = _NAME.fullmatch(line).group(1).strip()  # type: ignore[union-attr]
    if not isinstance(last, Conquer) or last.name:
        return [LineError(line, "a [name] goes on, or right after, a Conquer (Q) line")]
    if problem := _bad_name(name, names):
        return [LineError(line, problem)]
    actions[-1] = Conquer(last.origin, last.target, last.direction, last.units, name)
    names.define(name)
    return []


def read_action(line: str, names: Names) -> Action | LineError:
    match = _VERB.match(line)
    verb = VERBS.get(fold(match.group(1))) if match else None
    if match is None or verb is None:
        word = match.group(1) if match else line
        close = difflib.get_close_matches(fold(word), list(VERBS), n=1, cutoff=0.6)
        suggestion = names.example(VERBS[close[0]], line) if close else None
        shown = suggestion or names.example("R", line)
        return LineError(line, f"this is not an action (R, Q, S, C or M, as in “{shown}”)", suggestion)
    rest = match.group(2).strip()
    try:
        return _READERS[verb](rest, names)
    except _Unreadable as e:
        suggestion = line.replace(e.word, e.suggestion) if e.suggestion and e.word else e.form
        return LineError(line, e.reason, suggestion)


class _Unreadable(Exception):
    def __init__(
        self, reason: str, *, word: str = "", suggestion: str | None = None, form: str | None = None
    ):
        super().__init__(reason)
        self.reason, self.word, self.suggestion, self.form = reason, word, suggestion, form


def _land(word: str, names: Names) -> str:
    word = word.strip().strip(",").strip()
    if not word:
        raise _Unreadable("a land is missing")
    found, suggestion = names.find(word)
    if found is None:
        raise _Unreadable(f"there is no land “{word}”", word=word, suggestion=suggestion)
    return found


def _counted(text: str, form: str) -> tuple[str, int]:
    match = _COUNT.match(text.strip())
    if not match:
        raise _Unreadable("say how many units, as in " + form, form=form)
    return match.group(1), int(match.group(2))


def _reinforce(rest: str, names: Names) -> Action:
    land, units = _counted(rest, names.example("R", rest))
    return Reinforce(_land(land, names), units)


def _conquer(rest: str, names: Names) -> Action:
    named = _NAME.search(rest)
    name = named.group(1).strip() if named else None
    if name is not None and (problem := _bad_name(name, names)):
        raise _Unreadable(problem)
    rest = _NAME.sub("", rest).strip()
    parts = _ARROW.split(rest, maxsplit=1)
    if len(parts) != 2:
        form = names.example("Q", rest)
        raise _Unreadable("say where from and where to, as in " + form, form=form)
    origin, target = parts
    if not origin.strip(" ,"):
        form = names.example("Q", rest)
        raise _Unreadable("say which of your lands it starts from, as in " + form, form=form)
    units: int | None = None
    if _COUNT.match(target.strip()):
        target, units = _counted(target, names.example("Q", rest))
    origin_land = _land(origin, names)
    target = target.strip().strip(",").strip()
    if target.startswith("(") and target.endswith(")"):
        described = " ".join(fold(target[1:-1]).replace("-", " ").split())
        direction = DIRECTION_WORDS.get(described) or DIRECTION_WORDS.get(described.replace(" ", ""))
        if direction is not None:
            return Conquer(origin_land, None, direction, units, name)
        target = target[1:-1]
    return Conquer(origin_land, _land(target, names), None, units, name)


def _stronghold(rest: str, names: Names) -> Action:
    sign, land = rest[:1], rest[1:]
    if sign not in "+-" or not sign:
        suggestion = f"S: +{rest}" if rest else names.example("S", rest)
        raise _Unreadable("write S: +land to build a stronghold or S: -land to remove it", form=suggestion)
    return Strongholding(_land(land, names), sign == "+")


def _capital(rest: str, names: Names) -> Action:
    return Capitalshift(_land(rest, names))


def _move(rest: str, names: Names) -> Action:
    legs = []
    for part in filter(None, (p.strip() for p in rest.split(";"))):
        pieces = _ARROW.split(part, maxsplit=1)
        form = names.example("M", part)
        if len(pieces) != 2:
            raise _Unreadable("each move says from, to and how many: " + form, form=form)
        target, units = _counted(pieces[1], form)
        legs.append(Leg(_land(pieces[0], names), _land(target, names), units))
    if not legs:
        form = names.example("M", rest)
        raise _Unreadable("say what to move, as in " + form, form=form)
    return Move(tuple(legs))


def _bad_name(name: str, names: Names) -> str | None:
    if not name or any(c in name for c in "[]();,>#"):
        return f"“{name}” cannot be a land name (no brackets, commas, semicolons, > or #)"
    if fold(name) in {fold(s) for s in names.canonical}:
        return f"“{name}” already names a land; choose another name"
    return None


_READERS = {"R": _reinforce, "Q": _conquer, "S": _stronghold, "C": _capital, "M": _move}
