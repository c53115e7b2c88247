"""``courier resolve GAME``: one phase from a JSON request to a JSON answer, played as the tick
plays it, the same for every game.

A request is ``{"state": …}`` (as the game's ``to_json`` writes it), or a new game from
``{"players": […], "options": {…}}`` (``{"setup": {"players", "options"}}`` says the same), plus
``"orders"`` (player → the text of their mail, or its lines, in the order the mails came) and
``"seed"``. ``engine.core.play_phase`` plays it: each mail read and applied on receipt, the silent
seats given their defaults as the tick settles them, every roll seeded by ``rng_for`` from the
seed as the tick seeds it, so the same seed and orders give the tick's result. The game reads a
request of its own form itself (``OwnRequests``), answers other kinds of request alone
(``OtherRequests``), and writes the answer (``Ruleset.answer_json``). Bad input is a
``ValueError`` saying what is wrong."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import JSON, OtherRequests, OwnRequests, Ruleset, play_phase, rng_for

__all__ = ["order_texts", "read_request", "request_seed", "resolve_request"]


def resolve_request(ruleset: Ruleset, request: Any) -> JSON:
    """The answer to one request (see the module's docstring)."""
    if not isinstance(request, Mapping):
        raise ValueError(
            "the request must be a JSON object with a “state” (or “players”), “orders” and “seed”"
        )
    if isinstance(ruleset, OtherRequests) and (answer := ruleset.other_request(request)) is not None:
        return answer
    seed = request_seed(request)
    reader = ruleset.read_request if isinstance(ruleset, OwnRequests) else _reader(ruleset)
    state, texts = reader(request, seed)
    if ruleset.outcome(state) is not None:
        raise ValueError("the game is over; there is no phase to resolve")
    return ruleset.answer_json(play_phase(ruleset, state, texts, seed))


def _reader(ruleset: Ruleset) -> Any:
    return lambda request, seed: read_request(ruleset, request, seed)


def request_seed(request: Mapping[str, Any]) -> str:
    """The request's seed, as text (a number is taken as its digits); none is the empty seed."""
    seed = request.get("seed", "")
    if not isinstance(seed, (str, int)) or isinstance(seed, bool):
        raise ValueError("“seed” must be a string or a number")
    return str(seed)


def read_request(ruleset: Ruleset, request: Mapping[str, Any], seed: str) -> tuple[Any, dict[str, str]]:
    """The state a request gives (``state``, or a new game set up from the seed as the tick sets one
    up) and each player's text."""
    return _state(ruleset, request, seed), order_texts(request.get("orders", {}))


def order_texts(orders: Any) -> dict[str, str]:
    """Each player's mail: a text, or a list of its lines."""
    if not isinstance(orders, Mapping):
        raise ValueError("“orders” must map each player to the text of their mail")
    texts = {}
    for player, text in orders.items():
        if isinstance(text, list) and all(isinstance(line, str) for line in text):
            text = "\n".join(text)
        if not isinstance(text, str):
            raise ValueError(f"“orders”: {player}'s orders must be a text or a list of lines")
        texts[str(player)] = text
    return texts


def _state(ruleset: Ruleset, request: Mapping[str, Any], seed: str) -> Any:
    if "state" in request:
        try:
            return ruleset.from_json(request["state"])
        except (KeyError, TypeError, AttributeError) as e:
            raise ValueError(f"“state” is not a {ruleset.title} state: missing or wrong {e}") from e
    setup = request.get("setup", request)
    if not isinstance(setup, Mapping) or not isinstance(setup.get("players"), list):
        raise ValueError("give a “state”, or “players” (a list of names) to start a new game")
    options = setup.get("options", {})
    if not isinstance(options, Mapping):
        raise ValueError('“options” must be an object, e.g. {"turns": 8}')
    return ruleset.setup([str(p) for p in setup["players"]], dict(options), rng_for(seed, "setup"))
