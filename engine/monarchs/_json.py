"""``courier resolve monarchs``: JSON in, JSON out (format in docs/json.md). Two kinds of request:

- one turn of the board: ``{"map": {hex: {"owner", "regiments"}} (optional: the starting map),
  "turn": 1, "turns": 8, "scores": {nation: n}, "orders": {nation: text}, "seed": "..."}``; the
  answer's ``map``, ``turn`` and ``scores`` feed the next request, and the last turn's answer carries
  the ``outcome``;
- one phase of a whole game, court mode included: ``engine.request``'s request, ``{"state": …}``
  (as ``to_json`` writes it) or ``{"setup": {"players": […], "options": {…}}}``, plus ``"orders":
  {player: text}`` in the order the mails came, and ``"seed"``; played as the tick plays it (each
  mail read and applied on receipt; defaults and rolls seeded as the tick seeds them)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.core import Outcome, Played, Ruleset, event_to_json
from engine.monarchs._board import NATIONS
from engine.monarchs._parse import is_blank, read_orders
from engine.monarchs._position import Position
from engine.monarchs._resolve import TurnResult, resolve_turn
from engine.monarchs._turn import board_ranking

JSON = dict[str, Any]


def other_request(request: Mapping[str, Any]) -> JSON | None:
    """One turn of the board, when the request gives no game (``state``, ``setup``, ``players``)."""
    if any(key in request for key in ("state", "setup", "players")):
        return None
    return _turn_request(request)


# --- one turn of the board ----------------------------------------------------------------------


def _turn_request(request: Mapping[str, Any]) -> JSON:
    position = Position.from_json(request["map"]) if "map" in request else Position.start()
    if "turns" not in request:  # no silent default: a 1-turn game would double every score
        raise ValueError("“turns” is required: how many turns the game lasts (the last counts double)")
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
    rng = random.Random(str(_seed(request)))
    orders, errors = {}, {}
    for nation, text in texts.items():
        lines = [line for line in text.splitlines() if not is_blank(line)]
        orders[nation], problems, _, _ = read_orders(nation, position, lines)
        if problems:
            errors[nation] = [e.to_json() for e in problems]
    result = resolve_turn(position, orders, rng, last=turn == turns)
    totals = {n: scores.get(n, 0) + result.points[n] for n in NATIONS}
    outcome = _outcome(totals, result.position, rng) if turn == turns else None
    return {**_turn_json(result, turn=turn, turns=turns, totals=totals), "errors": errors, "outcome": outcome}


def _turn_json(result: TurnResult, *, turn: int, turns: int, totals: Mapping[str, int]) -> JSON:
    return {
        "map": result.position.to_json(),
        "turn": turn + 1,
        "turns": turns,
        "scores": dict(totals),
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
    }


def _outcome(scores: Mapping[str, int], position: Position, rng: random.Random) -> JSON:
    """The ranking of nations after the last turn, as the game ranks them (score, I5, hexes, coin)."""
    order = board_ranking(scores, position, rng)
    reason = f"{order[0].title()} has the highest score, {scores[order[0]]}"
    return {"winners": [order[0]], "ranking": [[n] for n in order], "reason": reason}


def _whole(request: Mapping[str, Any], key: str, default: int) -> int:
    value = request.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"“{key}” must be a whole number ≥ 1, got {value!r}")
    return value


def _seed(request: Mapping[str, Any]) -> str | int:
    seed = request.get("seed", "")
    if not isinstance(seed, (str, int)):
        raise ValueError("“seed” must be a string")
    return seed


# --- one phase of a game (board or court mode) --------------------------------------------------


def answer_json(ruleset: Ruleset, played: Played) -> JSON:
    """The phase played as the tick plays it (``engine.request``); a mail from a player the phase
    takes no orders from is refused with the game's reason."""
    after = played.resolution.state
    outcome = ruleset.outcome(after)
    return {
        "state": ruleset.to_json(after),
        "phase": ruleset.phase(after).label,
        "events": [event_to_json(e) for e in played.resolution.events],
        "errors": {p: [e.to_json() for e in s.errors] for p, s in played.submissions.items() if s.errors},
        "refused": {
            p: next((e.reason for e in s.errors), "no orders are needed from them now")
            for p, s in played.refused.items()
        },
        "outcome": None if outcome is None else _outcome_json(outcome),
    }


def _outcome_json(outcome: Outcome) -> JSON:
    return {
        "winners": list(outcome.winners),
        "ranking": [list(g) for g in outcome.ranking],
        "reason": outcome.reason,
    }
