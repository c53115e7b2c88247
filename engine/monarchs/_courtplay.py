"""Court mode by mail: each turn the monarch names, privately, its carrier (``carrier NAME``) and
who receives the next map (``map to NAME``), and may hand the carrier its orders through Courier
(``hand 5 A5 C5``, told to the carrier alone); only the carrier's mail counts as the nation's orders,
whatever it says. Each monarch's record notes its carriers' deliveries as it can know them. After
the last turn's orders each monarch names the traitors it suspects."""

from __future__ import annotations

import difflib
import random
import re
from collections.abc import Mapping
from dataclasses import replace

from engine.core import Event, LineError, Submission, fold, match_name
from engine.monarchs._board import NATIONS
from engine.monarchs._court import Court, Delivery
from engine.monarchs._events import CarrierReported, OrdersHanded
from engine.monarchs._parse import is_blank, orders_submission, read_orders
from engine.monarchs._state import MonarchsState

_MAP_TO = re.compile(
    r"^\s*(?:send\s+)?(?:the\s+)?map\s+(?:goes\s+)?to\s*:?\s*(.+?)\s*[.!]?\s*$", re.IGNORECASE
)
_CARRIER = re.compile(r"^\s*(?:my\s+|the\s+)?carrier\s*(?:is\s*)?:?\s*(.+?)\s*[.!]?\s*$", re.IGNORECASE)
_GUESS = re.compile(
    r"^\s*(?:traitor\s*:?\s*)?(.+?)\s*"
    r"(?:serves|is a spy for|spies for|is loyal to|works for|:|->|=)\s*(\w+)\s*[.!]?\s*$",
    re.IGNORECASE,
)
CHOICES = ("carrier ", "map to ")  # the canonical lines of a monarch's choices
_HEXLIKE_ORDER = re.compile(r"\b[a-q]\d\b", re.IGNORECASE)  # a handed order names a hex
HAND = "hand "  # a monarch's canonical line of orders handed to its carrier through Courier
_HAND = re.compile(r"^\s*hand\s*:?\s+(.+?)\s*$", re.IGNORECASE)
NOT_HERE = (
    "in court mode your orders reach Courier only in your carrier's mail: name it with “carrier NAME” "
    "and hand it your orders (yourself, or through Courier: “hand 5 A5 C5”, one a line)"
)


def not_carrying(nation: str) -> str:
    """The one refusal every courtier but the carrier gets: it names nobody, so a refused courtier
    learns neither who carries nor whether anyone was named yet."""
    return f"you are not carrying {nation.title()}'s orders this turn"


def parse_choices(state: MonarchsState, court: Court, nation: str, player: str, text: str) -> Submission:
    """The monarch's mail: ``carrier NAME`` and ``map to NAME``, each an eligible courtier, and
    optionally its orders handed to the carrier through Courier (``hand 5 A5 C5``, one a line)."""
    lines = [line for line in text.splitlines() if not is_blank(line)]
    chosen: dict[str, str] = {}
    errors: list[LineError] = []
    handing: list[str] = []
    for line in lines:
        hand = _HAND.match(line)
        if hand is not None:
            handing.append(hand.group(1))
            continue
        match = _CARRIER.match(line) or _MAP_TO.match(line)
        if match is None:
            errors.append(_misspelt(line) or LineError(line.strip(), _too_early(state, line) or NOT_HERE))
            continue
        kind = "carrier " if match.re is _CARRIER else "map to "
        name, error = _eligible(court, nation, match.group(1), line, kind)
        if error is not None:
            errors.append(error)
        elif name is not None:
            chosen[kind] = name
    handed = orders_submission(player, *read_orders(nation, state.position, handing)) if handing else None
    lines_out = [f"{k}{chosen[k]}" for k in CHOICES if k in chosen]
    if handed is not None:
        lines_out += [f"{HAND}{line}" for line in handed.orders]
        errors += [replace(e, line=f"{HAND}{e.line}") for e in handed.errors]
    notes = handed.notes if handed is not None else ()
    return Submission(player, tuple(lines_out), tuple(errors), notes)


def _misspelt(line: str) -> LineError | None:
    """“carier G1”, “hnad 3 J6 I5”: a typo in a monarch's own word, answered with the line meant."""
    first, *rest = line.split(maxsplit=1)
    meant = difflib.get_close_matches(first.lower(), ("carrier", "hand"), n=1, cutoff=0.75)
    said = rest[0] if rest else ""
    # Only when the rest reads as what the word takes ("Hard choice…" is chit-chat, not a hand).
    if not meant or not (_HEXLIKE_ORDER.search(said) if meant[0] == "hand" else len(said.split()) == 1):
        return None
    reason = f"“{first}” is not a word of a monarch's mail"
    return LineError(line.strip(), reason, " ".join([meant[0], *rest]))


def _too_early(state: MonarchsState, line: str) -> str | None:
    """A guess (“Dora serves blue”) written while the turns still run: when to send it instead."""
    match = _GUESS.match(line)
    if match is None or not any(fold(match.group(2)) in (n, n[0]) for n in NATIONS):
        return None
    if state.last_turn:
        return (
            "guesses are written after this last turn's orders are in: at its deadline Courier "
            "mails you a form for them; send this line again then"
        )
    return f"guesses are written after the last turn (turn {state.turns}); Courier asks for them then"


def _eligible(
    court: Court, nation: str, written: str, line: str, kind: str
) -> tuple[str | None, LineError | None]:
    name, suggestion = match_name(written, court.spellings(nation))
    if name is None:
        hint = f"{kind}{suggestion}" if suggestion else None
        return None, LineError(line.strip(), f"no courtier of {nation.title()} is called that", hint)
    barred = court.barred(nation)
    if name in barred:
        role = "carry your orders" if kind == "carrier " else "receive your map"
        return None, LineError(line.strip(), f"{name} may not {role} this turn: {name} {barred[name]}")
    return name, None


def handed_of(submission: Submission) -> tuple[str, ...]:
    """The orders a monarch's mail hands its carrier (canonical lines), if any."""
    return tuple(line.removeprefix(HAND) for line in submission.orders if line.startswith(HAND))


def handed_over(state: MonarchsState, court: Court, nation: str, *, before: Court) -> list[Event]:
    """The carrier's notice of the orders handed to it, when the mail handed new ones or named a
    new carrier for those handed before."""
    carrier, handed = court.carrier.get(nation), court.handed.get(nation, ())
    unchanged = before.carrier.get(nation) == carrier and before.handed.get(nation, ()) == handed
    if carrier is None or not handed or unchanged:
        return []
    return [
        OrdersHanded(
            audience=frozenset({carrier}), nation=nation, turn=state.turn, carrier=carrier, orders=handed
        )
    ]


def choices_of(submission: Submission) -> dict[str, str]:
    """``{"carrier ": name, "map to ": name}`` from a monarch's canonical lines."""
    return {k: line.removeprefix(k) for line in submission.orders for k in CHOICES if line.startswith(k)}


def parse_delivery(state: MonarchsState, court: Court, player: str, text: str) -> Submission:
    """A courtier's mail: the nation's orders when it is the carrier; else one neutral refusal."""
    courtier = court.courtier(player)
    lines = [line for line in text.splitlines() if not is_blank(line)]
    first = lines[0].strip() if lines else ""
    if courtier is None:
        return Submission(player, errors=(LineError(first, "you hold no seat at any court in this game"),))
    nation = courtier.serves
    if court.carrier.get(nation) != player:
        return Submission(player, errors=(LineError(first, not_carrying(nation)),))
    ignored = [line for line in lines if _MAP_TO.match(line)]
    orders = orders_submission(
        player, *read_orders(nation, state.position, [x for x in lines if x not in ignored])
    )
    notes = tuple(
        f"“{line.strip()}” was ignored: the monarch names who receives the map." for line in ignored
    )
    return Submission(player, orders.orders, orders.errors, orders.notes + notes)


def carried(court: Court, submissions: Mapping[str, Submission]) -> dict[str, tuple[str, ...]]:
    """Nation → the orders its carrier delivered (only carriers' mail counts; none → no orders)."""
    return {
        nation: submissions[carrier].orders
        for nation, carrier in court.carrier.items()
        if carrier in submissions and submissions[carrier].orders
    }


def carrier_reports(
    state: MonarchsState, court: Court, delivered: Mapping[str, tuple[str, ...]]
) -> list[Event]:
    """Each monarch hears, privately, whether its carrier delivered; never what."""
    return [
        CarrierReported(
            audience=frozenset({state.monarch_of(n)}),
            nation=n,
            turn=state.turn,
            carrier=court.carrier.get(n, ""),
            delivered=n in delivered,
        )
        for n in NATIONS
    ]


def deliveries(
    state: MonarchsState, court: Court, delivered: Mapping[str, tuple[str, ...]]
) -> dict[str, Delivery]:
    """Nation → this turn as its monarch knows it, for its record (only where it named a carrier).
    Faithful: the delivered lines are those handed; unknown on the last turn (the outcome comes
    after the guesses) and when nothing was handed through Courier."""
    noted = {}
    for nation, carrier in court.carrier.items():
        handed = court.handed.get(nation)
        faithful = None if state.last_turn or not handed else delivered.get(nation) == handed
        noted[nation] = Delivery(state.turn, carrier, nation in delivered, faithful)
    return noted


def map_recipients(court: Court, rng: random.Random) -> dict[str, str]:
    """Nation → who receives this turn's map: the monarch's choice, else a seeded eligible courtier."""
    return {n: court.map_to.get(n) or rng.choice(sorted(court.eligible(n))) for n in NATIONS}


def parse_guesses(court: Court, nation: str, player: str, text: str) -> Submission:
    """``Dora serves blue`` (one line per suspected traitor, at most two)."""
    names = court.spellings(nation)
    guesses: dict[str, str] = {}
    errors: list[LineError] = []
    for line in (x for x in text.splitlines() if not is_blank(x)):
        match = _GUESS.match(line)
        if match is None:
            errors.append(LineError(line.strip(), "a guess reads like “Dora serves blue”"))
            continue
        name, suggestion = match_name(match.group(1), names)
        guessed = next((n for n in NATIONS if fold(match.group(2)) in (n, n[0])), None)
        if name is None:
            errors.append(
                LineError(
                    line.strip(),
                    f"no courtier of {nation.title()} is called that",
                    f"{suggestion} serves {match.group(2)}" if suggestion else None,
                )
            )
        elif guessed is None or guessed == nation:
            errors.append(
                LineError(line.strip(), "name the other nation the traitor serves (red, green or blue)")
            )
        else:
            guesses[name] = guessed
    notes: tuple[str, ...] = ()
    if len(guesses) > 2:
        notes = ("Only two traitors sit in your court; your first two guesses count.",)
        guesses = dict(list(guesses.items())[:2])
    return Submission(player, tuple(f"{c} serves {n}" for c, n in guesses.items()), tuple(errors), notes)


def guesses_from(submission: Submission | None) -> dict[str, str]:
    if submission is None:
        return {}
    pairs = (line.rsplit(" serves ", 1) for line in submission.orders if " serves " in line)
    return {name: nation for name, nation in pairs}
