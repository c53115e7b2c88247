"""The "did you mean" of a line that could not be read: the action it tried, built from the lands
and the number the player wrote and from their own lands (never a fixed example naming someone
else's land). Without a player (a plan read again at resolution) the rule-book's example serves."""

from __future__ import annotations

import re

from engine.core import fold
from engine.talossa._actions import DIRECTIONS
from engine.talossa._state import Board

FORMS = {
    "R": "R: Abbavilla, 3",
    "Q": "Q: Abbavilla >> Downer, 2",
    "S": "S: +Abbavilla",
    "C": "C: Abbavilla",
    "M": "M: Abbavilla >> Downer, 3",
}
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}


def example(verb: str, text: str, board: Board, player: str | None) -> str:
    """An action ``verb`` (R, Q, S, C, M) as this player would write it, from ``text``."""
    own = board.lands_of(player) if player else []
    if not own:
        return FORMS[verb]
    named = lands_in(text, board)
    mine = [k for k in named if k in own]
    others = [k for k in named if k not in own]
    count = _number_in(text)
    if verb == "Q":
        origin, target = _conquest(board, own, mine, others)
        direction = _direction_in(text) if not others else None
        where = f"({direction})" if direction else _name(board, target)
        return f"Q: {_name(board, origin)} >> {where}" + (f", {count}" if count else "")
    home = (mine or own)[0]
    if verb == "R":
        return f"R: {_name(board, home)}, {count or board.force_due(player or '')}"
    if verb == "S":
        return f"S: +{_name(board, home)}"
    if verb == "C":
        return f"C: {_name(board, home)}"
    towards = next((k for k in (*mine[1:], *own) if k != home and board.map.adjacent(home, k)), None)
    where = "LAND" if towards is None else _name(board, towards)  # a single land: nowhere to go yet
    return f"M: {_name(board, home)} >> {where}, {count or 1}"


def form_help(board: Board, player: str) -> tuple[str, ...]:
    """The order form's examples, written with the player's own lands and a neighbour of them
    (issue 29 QA: a fixed example named other players' lands to everyone); LAND where the
    player has none to name."""
    own = board.lands_of(player)
    home = _name(board, own[0]) if own else "LAND"
    free = [n for k in own for n in board.map.neighbours(k) if board.owner(n) is None]
    near = [n for k in own for n in board.map.neighbours(k) if n not in own]
    target = _name(board, (free or near)[0]) if (free or near) else "LAND"
    moves = [(a, b) for a in own for b in own if a != b and board.map.adjacent(a, b)]
    move = f"{_name(board, moves[0][0])} >> {_name(board, moves[0][1])}" if moves else f"{home} >> LAND"
    return (
        f"# Up to 10 actions, one a line. R: {home}, 3 · Q: {home} >> {target}, 2 · Q: {home} >> (north)",
        f"# S: +{home} · S: -{home} · C: {home} · M: {move}, 3",
        f"# Name a conquered land: Q: {home} >> (north), 2 [Wellington]  (lines starting with # are ignored)",
    )


def _conquest(board: Board, own: list[str], mine: list[str], others: list[str]) -> tuple[str, str]:
    """Where from and where to: the lands named when they fit, else the player's own land and a
    neighbour of it that is not theirs."""
    targets = others or [n for k in (mine or own) for n in board.map.neighbours(k) if n not in own]
    for origin in (*mine, *own):
        for target in targets:
            if board.map.adjacent(origin, target):
                return origin, target
    origin = (mine or own)[0]
    return origin, next(iter(targets), origin)


def lands_in(text: str, board: Board) -> list[str]:
    """The lands ``text`` names (map or given names, accents left out), in the order written."""
    folded = fold(text)
    found: list[tuple[int, int, str]] = []  # (start, -length, key): the longest name at a place wins
    for spelling, key in board.spellings().items():
        for match in re.finditer(rf"(?<!\w){re.escape(fold(spelling))}(?!\w)", folded):
            found.append((match.start(), -len(match.group()), key))
    keys: list[str] = []
    end = -1
    for start, length, key in sorted(found):
        if start >= end and key not in keys:
            keys.append(key)
            end = start - length
    return keys


def _direction_in(text: str) -> str | None:
    folded = fold(text)
    spelt = sorted(DIRECTIONS, key=len, reverse=True)  # "north-east" before "north"
    return next((d for d in spelt if re.search(rf"(?<!\w){re.escape(d)}(?!\w)", folded)), None)


def _number_in(text: str) -> int | None:
    for word in re.findall(r"\w+", fold(text)):
        if word.isdigit():
            return int(word)
        if word in _NUMBER_WORDS:
            return _NUMBER_WORDS[word]
    return None


def _name(board: Board, key: str) -> str:
    return board.holdings[key].given_name or board.map.land(key).name
