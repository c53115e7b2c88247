"""``courier resolve monarchs``: JSON in, JSON out (format in the README). Two kinds of request:

- one turn of the board: ``{"map": {hex: {"owner", "regiments"}} (optional: the starting map),
  "turn": 1, "turns": 8, "scores": {nation: n}, "orders": {nation: text}, "seed": "..."}``; the
  answer's ``map``, ``turn`` and ``scores`` feed the next request, and the last turn's answer carries
  the ``outcome``;
- one phase of a whole game, court mode included: ``{"state": …}`` (as ``to_json`` writes it) or
  ``{"setup": {"players": […], "options": {…}}}``, plus ``"orders": {player: text}`` in the order
  the mails came, and ``"seed"``; played as the shell plays it (each mail read and applied on
  receipt; defaults and rolls seeded as the tick seeds them)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.core import Outcome, Ruleset, Submission, event_to_json, rng_for, settle_silent
from engine.monarchs._board import NATIONS
from engine.monarchs._parse import is_blank, read_orders
from engine.monarchs._position import Position
from engine.monarchs._resolve import TurnResult, resolve_turn
from engine.monarchs._turn import board_ranking

JSON = dict[str, Any]


def resolve_request(ruleset: Ruleset, request: Mapping[str, Any]) -> JSON:
    if not isinstance(request, Mapping):
        raise ValueError("the request must be a JSON object: a “map” turn, or a game “state” (or “setup”)")
    if "state" in request or "setup" in request:
        return _phase_request(ruleset, request)
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


def _phase_request(ruleset: Ruleset, request: Mapping[str, Any]) -> JSON:
    seed = str(_seed(request))
    state = _state(ruleset, request, seed)
    if ruleset.outcome(state) is not None:
        raise ValueError("the game is over; there is no phase to resolve")
    texts = request.get("orders", {})
    if not isinstance(texts, Mapping) or not all(isinstance(t, str) for t in texts.values()):
        raise ValueError("“orders” must map each player to the text of their mail")
    key = ruleset.phase(state).key
    taken: dict[str, Submission] = {}
    refused: dict[str, str] = {}
    for player, text in texts.items():  # in the order the mails came, as the tick reads them
        parsed = ruleset.parse(state, player, text)
        if player not in ruleset.awaiting(state):
            refused[player] = next((e.reason for e in parsed.errors), "no orders are needed from them now")
            continue
        state, _ = ruleset.immediate(state, parsed)
        taken[player] = ruleset.combine(taken.get(player), parsed)
    # The silent act in turn, monarchs first, as the tick settles them (engine.core.settle_silent).
    state, submissions = settle_silent(
        ruleset, state, taken, lambda state, p: ruleset.default(state, p, rng_for(seed, key, "default", p))
    )
    resolution = ruleset.resolve(state, submissions, rng_for(seed, key, "resolve"))
    outcome = ruleset.outcome(resolution.state)
    return {
        "state": ruleset.to_json(resolution.state),
        "phase": ruleset.phase(resolution.state).label,
        "events": [event_to_json(e) for e in resolution.events],
        "errors": {p: [e.to_json() for e in s.errors] for p, s in taken.items() if s.errors},
        "refused": refused,
        "outcome": None if outcome is None else _outcome_json(outcome),
    }


def _state(ruleset: Ruleset, request: Mapping[str, Any], seed: str) -> Any:
    if "state" in request:
        return ruleset.from_json(request["state"])
    setup = request["setup"]
    if not isinstance(setup, Mapping) or not isinstance(setup.get("players"), list):
        raise ValueError("“setup” must hold “players” (a list of names) and “options”")
    options = setup.get("options", {})
    if not isinstance(options, Mapping):
        raise ValueError('“setup”: “options” must be an object, e.g. {"mode": "court", "turns": 8}')
    return ruleset.setup([str(p) for p in setup["players"]], options, rng_for(seed, "setup"))


def _outcome_json(outcome: Outcome) -> JSON:
    return {
        "winners": list(outcome.winners),
        "ranking": [list(g) for g in outcome.ranking],
        "reason": outcome.reason,
    }
