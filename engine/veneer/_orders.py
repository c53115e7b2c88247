"""Order lines, syntax layer: what a line says, with names resolved, or a ``LineError`` that quotes
it and suggests the likely reading. Legality against the state is ``_parse``'s job."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from engine.core import LineError, fold, match_name

NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "all": -1}
_N = r"(?P<count>\d+|" + "|".join(NUMBERS) + ")"
_SIDE = r"(?P<side>attackers?|defenders?)"
ALL = -1  # "intercept with all": every defender, counted against the state

# Each verb: its pattern (on the folded line) and a model line for hints.
PATTERNS: dict[str, tuple[re.Pattern[str], str]] = {
    key: (re.compile(pattern), example)
    for key, pattern, example in [
        ("choose", r"^(?:choose|pick)\s+(?:faction\s+|the\s+)?(?P<name>.+)$", "choose faction Merchants"),
        ("vote", r"^(?:vote\s+)?(?P<vote>yes|no|aye|nay|for|against)$", "vote yes"),
        ("buy", rf"^(?:buy|recruit|purchase)\s+{_N}\s+{_SIDE}$", "buy 2 attackers"),
        (
            "reassign",
            rf"^(?:reassign|convert)\s+{_N}\s+(?:\w+\s+)?(?:to|into|as)\s+{_SIDE}$",
            "reassign 1 to attackers",
        ),
        (
            "attack",
            rf"^attack\s+(?P<name>.+?)\s+(?:with\s+)?{_N}(?:\s+attackers?|\s+troops?)?$",
            "attack Darcy with 3",
        ),
        (
            "veto",
            r"^veto\s+(?:(?P<attacker>.+?)(?:'s|')?\s+)?attack\s+(?:on\s+)?(?P<name>.+)$",
            "veto Barney's attack on Darcy",
        ),
        ("intercept", rf"^(?:intercept|defend)\s+(?:with\s+)?{_N}(?:\s+defenders?)?$", "intercept with 2"),
        (
            "lend",
            rf"^(?:lend|send)\s+{_N}\s+(?:defenders?\s+|troops?\s+)?to\s+(?P<name>.+)$",
            "lend 1 defender to Darcy",
        ),
        (
            "return",
            rf"^(?:return|repay)\s+{_N}\s+(?:defenders?\s+|troops?\s+)?to\s+(?P<name>.+)$",
            "return 1 defender to Darcy",
        ),
        ("play", r"^(?:play|use)\s+(?P<card>.+?)(?:\s+on\s+(?P<name>.+))?$", "play Sabotage on Emmett"),
        (
            "ally",
            r"^(?:ally|accept alliance|form alliance|alliance)\s+(?:with\s+)?(?P<name>.+)$",
            "ally with Charles",
        ),
        (
            "break",
            r"^break\s+(?:(?:the\s+|our\s+)?alliance\s+)?(?:with\s+)?(?P<name>.+)$",
            "break alliance with Charles",
        ),
        ("pass", r"^(?:pass|nothing|none|no orders)$", "pass"),
    ]
}
VERBS = tuple(PATTERNS)
BOTH_VOTES = "vote yes” or “vote no"  # shown as: Did you mean “vote yes” or “vote no”?
# The words that begin or carry an order in the forms above, for the forgiving reader.
ORDER_WORDS = (
    *("choose", "pick", "vote", "buy", "recruit", "purchase", "reassign", "convert", "attack", "veto"),
    *("intercept", "defend", "lend", "send", "return", "repay", "play", "use", "ally", "alliance"),
    *("break", "pass"),
)
# The order in which one player's lines take effect, whatever order they were written in.
RANK = {
    verb: i
    for i, verb in enumerate(
        (
            "pass",
            "choose",
            "vote",
            "play",
            "buy",
            "reassign",
            "attack",
            "veto",
            "lend",
            "intercept",
            "return",
            "ally",
            "break",
        )
    )
}


@dataclass(frozen=True)
class Order:
    """One understood line; ``str`` is its canonical text, which reads back to the same order."""

    verb: str
    count: int = 0
    name: str = ""  # a player, or the faction chosen
    side: str = ""  # attackers | defenders (buy, reassign); the attacker (veto)
    card: str = ""  # play
    yes: bool = False  # vote

    def __str__(self) -> str:
        count, name, side = self.count, self.name, self.side
        troops = "defender" if count == 1 else "defenders"
        return {
            "choose": f"choose faction {name}",
            "vote": f"vote {'yes' if self.yes else 'no'}",
            "buy": f"buy {count} {side if count != 1 else side[:-1]}",
            "reassign": f"reassign {count} to {side}",
            "attack": f"attack {name} with {count}",
            "veto": f"veto {side}'s attack on {name}" if side else f"veto attack on {name}",
            "intercept": f"intercept with {'all' if count == ALL else count}",
            "lend": f"lend {count} {troops} to {name}",
            "return": f"return {count} {troops} to {name}",
            "play": f"play {self.card} on {name}" if name else f"play {self.card}",
            "ally": f"ally with {name}",
            "break": f"break alliance with {name}",
            "pass": "pass",
        }[self.verb]


@dataclass(frozen=True)
class Names:
    """Spellings the parser accepts: players, factions, action cards (each → its canonical name)."""

    players: Mapping[str, str]
    factions: Mapping[str, str]
    cards: Mapping[str, str]


def is_blank(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def read_order(line: str, names: Names) -> Order | LineError:
    text = line.strip()
    folded = re.sub(r"\s+", " ", fold(text).replace("’", "'").rstrip(".!;,")).strip()
    verb = folded.split(" ", 1)[0]
    for key, (pattern, _) in PATTERNS.items():
        match = pattern.match(folded)
        if match:
            return _build(text, key, match.groupdict(), names)
    return _unreadable(text, verb, folded, names)


def _unreadable(text: str, verb: str, folded: str, names: Names) -> LineError:
    known = {v for v in VERBS} | {"yes", "no", "recruit", "defend", "lend", "use"}
    if verb in ("vote", "yes", "no"):  # both answers, so the arbiter leans neither way
        return LineError(text, "a vote is “vote yes” or “vote no”", BOTH_VOTES)
    for key, (_, example) in PATTERNS.items():
        if verb == key:
            return LineError(text, f"write it like “{example}”", example)
    close = difflib.get_close_matches(verb, sorted(known), n=1, cutoff=0.6)
    reason = f"“{verb}” is not an order (orders: {', '.join(VERBS)})"
    if not close:
        return LineError(text, reason)
    corrected = read_order(close[0] + folded[len(verb) :], names)
    suggestion = corrected.suggestion if isinstance(corrected, LineError) else str(corrected)
    return LineError(text, reason, suggestion)


def _build(text: str, verb: str, groups: Mapping[str, str | None], names: Names) -> Order | LineError:
    count = _count(groups.get("count"))
    side = (groups.get("side") or "").rstrip("s") + "s" if groups.get("side") else ""
    order = Order(verb, count=count, side=side)
    if verb == "vote":
        return Order(verb, yes=groups["vote"] in ("yes", "aye", "for"))
    if verb == "choose":
        return _named(text, order, "name", groups["name"] or "", names.factions, "faction")
    if verb == "play":
        if groups.get("name"):
            named = _named(text, order, "name", groups["name"] or "", names.players, "player")
            if isinstance(named, LineError):
                return named
            order = named
        return _named(text, order, "card", groups["card"] or "", names.cards, "action card")
    if verb == "veto" and groups.get("attacker"):
        found = _named(text, order, "side", groups["attacker"] or "", names.players, "player")
        if isinstance(found, LineError):
            return found
        order = found
    if groups.get("name") is not None and verb != "choose":
        return _named(text, order, "name", groups["name"] or "", names.players, "player")
    return order


def _named(
    text: str, order: Order, field: str, word: str, spellings: Mapping[str, str], what: str
) -> Order | LineError:
    found, suggestion = match_name(word.strip(), spellings)
    if found is not None:
        return _with(order, field, found)
    hint = str(_with(order, field, suggestion)) if suggestion else None
    return LineError(text, f"there is no {what} called “{word.strip()}”", hint)


def _with(order: Order, field: str, value: str) -> Order:
    if field == "card":
        return replace(order, card=value)
    return replace(order, side=value) if field == "side" else replace(order, name=value)


def _count(word: str | None) -> int:
    if word is None:
        return 0
    return int(word) if word.isdigit() else NUMBERS[word]
