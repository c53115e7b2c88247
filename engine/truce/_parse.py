"""Reading orders: syntax first (``read_order``), then legality against the state (``check_order``)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass

from engine.core import LineError, Submission, fold, match_name
from engine.truce._state import TruceState

ACTIONS = ("attack", "support", "defend", "loot", "pass")
TARGETED = ("attack", "support")
# Every verb a player may type → the order it means.
VERBS = {**{a: a for a in ACTIONS}, "gift": "gift", "give": "gift"}

_PUNCTUATION = re.compile(r"[:;,]")
_GIFT = re.compile(r"^(\d+)\s+(?:coins?\s+)?(?:to\s+)?(\S.*)$", re.IGNORECASE)
_GIFT_FORM = "gift 2 to Darcy"


@dataclass(frozen=True)
class Order:
    """One understood order line; ``str`` gives its canonical text, which parses back to it."""

    kind: str  # one of ACTIONS, or "gift"
    target: str | None = None
    coins: int = 0

    def __str__(self) -> str:
        if self.kind == "gift":
            return f"gift {self.coins} to {self.target}"
        return f"{self.kind} {self.target}" if self.target else self.kind

    @property
    def is_action(self) -> bool:
        return self.kind != "gift"


def is_blank(line: str) -> bool:
    """Blank lines and ``#`` comments (the order template's help lines) are not orders."""
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def read_order(line: str, spellings: Mapping[str, str]) -> Order | LineError:
    """The syntax layer: what ``line`` says, with player names resolved, or why it cannot be read."""
    words = _PUNCTUATION.sub(" ", line.strip()).strip().rstrip(".!").split()
    if not words:
        return LineError(line.strip(), "this is not an order")
    verb, rest = fold(words[0]), " ".join(words[1:])
    if verb not in VERBS:
        return _unknown_verb(line.strip(), verb, rest, spellings)
    kind = VERBS[verb]
    if kind in TARGETED:
        return _targeted(line.strip(), kind, rest, spellings)
    if kind == "gift":
        return _gift(line.strip(), rest, spellings)
    if rest:
        return LineError(line.strip(), f"“{kind}” takes no target", kind)
    return Order(kind)


def _unknown_verb(line: str, verb: str, rest: str, spellings: Mapping[str, str]) -> LineError:
    reason = f"“{verb}” is not an order (orders: {', '.join(ACTIONS)}, gift)"
    close = difflib.get_close_matches(verb, list(VERBS), n=1, cutoff=0.6)
    if not close:
        return LineError(line, reason)
    corrected = read_order(f"{close[0]} {rest}", spellings)
    suggestion = corrected.suggestion if isinstance(corrected, LineError) else str(corrected)
    return LineError(line, reason, suggestion)


def _targeted(line: str, kind: str, name: str, spellings: Mapping[str, str]) -> Order | LineError:
    if not name:
        return LineError(line, f"say whom to {kind}")
    target, reason, suggestion = _player(name, spellings)
    if target is None:
        return LineError(line, reason, f"{kind} {suggestion}" if suggestion else None)
    return Order(kind, target)


def _gift(line: str, rest: str, spellings: Mapping[str, str]) -> Order | LineError:
    match = _GIFT.match(rest)
    if match is None:
        return LineError(line, f"write a gift as “{_GIFT_FORM}”")
    coins = int(match.group(1))
    target, reason, suggestion = _player(match.group(2), spellings)
    if target is None:
        return LineError(line, reason, f"gift {coins} to {suggestion}" if suggestion else None)
    return Order("gift", target, coins)


def _player(word: str, spellings: Mapping[str, str]) -> tuple[str | None, str, str | None]:
    """(name, "", None) when ``word`` names one player, else (None, why, likely name)."""
    name, suggestion = match_name(word, spellings)
    if name is not None:
        return name, "", None
    prefixed = sorted({v for k, v in spellings.items() if fold(word) and fold(k).startswith(fold(word))})
    if len(prefixed) > 1:
        return None, f"“{word}” could be {' or '.join(prefixed)}", None
    return None, f"there is no player called “{word}”", suggestion


def check_order(state: TruceState, player: str, order: Order, gifted: int = 0) -> str | None:
    """The legality layer, as far as it can be known before the reveal: why ``order`` is illegal."""
    if order.target == player:
        return f"you cannot {order.kind} yourself"
    if order.kind == "gift":
        supply = state.player(player).supply - gifted
        if order.coins < 1:
            return "a gift must be at least 1 coin"
        if order.coins > supply:
            more = " more" if gifted else ""
            return f"you have only {supply}{more} coin{'s' if supply != 1 else ''} in your Supply to give"
    return None


def parse_orders(state: TruceState, player: str, text: str) -> Submission:
    """Every non-blank line is an order or an error; the last action line wins."""
    if player not in state.names:
        raise ValueError(f"{player!r} is not playing in this game of Truce")
    spellings = state.spellings()
    actions: list[Order] = []
    gifts: list[Order] = []
    errors: list[LineError] = []
    for line in text.splitlines():
        if is_blank(line):
            continue
        if state.finished:
            errors.append(LineError(line.strip(), "the game is over"))
            continue
        order = read_order(line, spellings)
        if isinstance(order, LineError):
            errors.append(order)
            continue
        illegal = check_order(state, player, order, sum(g.coins for g in gifts))
        if illegal:
            errors.append(LineError(line.strip(), illegal))
        else:
            (actions if order.is_action else gifts).append(order)
    notes: tuple[str, ...] = ()
    if len(actions) > 1:
        notes = (f"You gave {len(actions)} actions; only the last one counts: “{actions[-1]}”.",)
    orders = tuple(str(o) for o in actions[-1:] + gifts)
    return Submission(player, orders, tuple(errors), notes)
