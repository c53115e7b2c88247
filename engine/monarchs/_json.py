"""``courier resolve monarchs``: one turn from a JSON request to a JSON answer (format in the README).

Request: ``{"map": {hex: {"owner", "regiments"}} (optional: the starting map), "turn": 1,
"turns": 8, "scores": {nation: n}, "orders": {nation: text}, "seed": "..."}``. The answer's ``map``,
``turn`` and ``scores`` feed the next request."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.monarchs._board import NATIONS
from engine.monarchs._position import Position
from engine.monarchs._resolve import resolve_turn
from engine.monarchs._text import is_blank, read_orders

JSON = dict[str, Any]


def resolve_request(request: Mapping[str, Any]) -> JSON:
    if not isinstance(request, Mapping):
        raise ValueError("the request must be a JSON object with “orders” and “seed”")
    position = Position.from_json(request["map"]) if "map" in request else Position.start()
    turn, turns = _whole(request, "turn", 1), _whole(request, "turns", 1)
    if not 1 <= turn <= turns:
        raise ValueError(f"turn {turn} is not a turn of a {turns}-turn game")
    scores = request.get("scores", {})
    if not isinstance(scores, Mapping) or not all(isinstance(scores.get(n, 0), int) for n in NATIONS):
        raise ValueError("“scores” must map nations to whole numbers")
    texts = request.get("orders", {})
    if (
        not isinstance(texts, Mapping)
        or set(texts) - set(NATIONS)
        or not all(isinstance(t, str) for t in texts.values())
    ):
        raise ValueError("“orders” must map red, green or blue to their order text")
    seed = request.get("seed", "")
    if not isinstance(seed, (str, int)):
        raise ValueError("“seed” must be a string")
    orders, errors = {}, {}
    for nation, text in texts.items():
        lines = [line for line in text.splitlines() if not is_blank(line)]
        orders[nation], problems, _, _ = read_orders(nation, position, lines)
        if problems:
            errors[nation] = [e.to_json() for e in problems]
    result = resolve_turn(position, orders, random.Random(str(seed)), last=turn == turns)
    return {
        "map": result.position.to_json(),
        "turn": turn + 1,
        "turns": turns,
        "scores": {n: scores.get(n, 0) + result.points[n] for n in NATIONS},
        "points": dict(result.points),
        "border_battles": [
            {
                "from": b.hexes[0],
                "to": b.hexes[1],
                "winner": b.winner,
                "loser": b.loser,
                "regiments": dict(b.regiments),
            }
            for b in result.border_battles
        ],
        "hex_battles": [
            {
                "hex": b.hex,
                "winner": b.winner,
                "regiments": dict(b.regiments),
                "retreats": [{"nation": r.nation, "to": r.to, "regiments": r.regiments} for r in b.retreats],
            }
            for b in result.hex_battles
        ],
        "taken": [{"hex": h, "nation": n, "from": p} for h, n, p in result.taken],
        "errors": errors,
    }


def _whole(request: Mapping[str, Any], key: str, default: int) -> int:
    value = request.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"“{key}” must be a whole number ≥ 1, got {value!r}")
    return value
