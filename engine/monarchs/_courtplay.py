"""Court mode by mail: courtiers deliver orders (and name the next map's courtier with ``map to
NAME``); after the last turn's orders each monarch names the traitors it suspects."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping

from engine.core import Event, LineError, Submission, fold, match_name
from engine.monarchs._board import NATIONS
from engine.monarchs._court import Court
from engine.monarchs._events import CourtierRefused
from engine.monarchs._state import MonarchsState
from engine.monarchs._text import is_blank, orders_submission, read_orders

_MAP_TO = re.compile(
    r"^\s*(?:send\s+)?(?:the\s+)?map\s+(?:goes\s+)?to\s*:?\s*(.+?)\s*[.!]?\s*$", re.IGNORECASE
)
_GUESS = re.compile(
    r"^\s*(?:traitor\s*:?\s*)?(.+?)\s*"
    r"(?:serves|is a spy for|spies for|is loyal to|works for|:|->|=)\s*(\w+)\s*[.!]?\s*$",
    re.IGNORECASE,
)


def parse_delivery(state: MonarchsState, court: Court, player: str, text: str) -> Submission:
    courtier = court.courtier(player)
    lines = [line for line in text.splitlines() if not is_blank(line)]
    if courtier is None:
        why = "in court mode a courtier delivers your orders; the monarch's own mail does not count"
        return Submission(player, errors=(LineError(lines[0].strip() if lines else "", why),))
    nation = courtier.serves
    barred = court.barred(nation)
    first = court.first.get(nation)
    if player in barred:
        why = f"you may not deliver {nation.title()}'s orders this turn: {barred[player]}"
        return Submission(player, errors=(LineError(lines[0].strip() if lines else "", why),))
    if first not in (None, player):
        why = f"{first} already delivered {nation.title()}'s orders this turn; the first delivery stands"
        return Submission(player, errors=(LineError(lines[0].strip() if lines else "", why),))
    map_lines = [line for line in lines if _MAP_TO.match(line)]
    orders, errors, notes, hold = read_orders(
        nation, state.position, [x for x in lines if x not in map_lines]
    )
    submission = orders_submission(player, orders, errors, notes, hold)
    recipient, map_errors = _map_recipient(court, nation, map_lines)
    extra = (f"map to {recipient}",) if recipient else ()
    orders_out = submission.orders + extra
    if not orders_out and not errors and not map_errors:
        orders_out = ("hold",)
    return Submission(player, orders_out, submission.errors + tuple(map_errors), submission.notes)


def _map_recipient(court: Court, nation: str, lines: list[str]) -> tuple[str | None, list[LineError]]:
    recipient: str | None = None
    errors = []
    names = {c.name: c.name for c in court.of(nation)}
    for line in lines:
        match = _MAP_TO.match(line)
        assert match is not None
        name, suggestion = match_name(match.group(1), names)
        if name is None:
            errors.append(
                LineError(
                    line.strip(),
                    f"no courtier of {nation.title()} is called that",
                    f"map to {suggestion}" if suggestion else None,
                )
            )
        elif name in court.barred(nation):
            errors.append(
                LineError(line.strip(), f"{name} may not receive this map: {court.barred(nation)[name]}")
            )
        else:
            recipient = name
    return recipient, errors


def choose_deliveries(
    court: Court, submissions: Mapping[str, Submission], rng: random.Random
) -> tuple[dict[str, str], list[Event]]:
    """Nation → the courtier whose orders count: the first to deliver (recorded on receipt). Without
    a record (a caller that skipped ``immediate``) one of several deliverers is drawn (seeded); the
    others hear that their orders did not count."""
    chosen: dict[str, str] = {}
    events: list[Event] = []
    for nation in NATIONS:
        eligible = court.eligible(nation)
        delivered = sorted(p for p, s in submissions.items() if p in eligible and s.orders)
        if not delivered:
            continue
        first = court.first.get(nation)
        recorded = first is not None and first in delivered
        chosen[nation] = first if first is not None and recorded else rng.choice(delivered)
        for other in delivered:
            if other != chosen[nation]:
                how = "first" if recorded else "too, and theirs were drawn"
                reason = f"{chosen[nation]} delivered {nation.title()}'s orders {how}"
                events.append(
                    CourtierRefused(audience=frozenset({other}), courtier=other, nation=nation, reason=reason)
                )
    return chosen, events


def map_recipients(
    court: Court, chosen: Mapping[str, str], submissions: Mapping[str, Submission], rng: random.Random
) -> dict[str, str]:
    """Nation → who receives this turn's map: named by ``map to``, else a seeded eligible courtier."""
    maps = {}
    for nation in NATIONS:
        named = [
            line.removeprefix("map to ")
            for line in (submissions[chosen[nation]].orders if nation in chosen else ())
            if line.startswith("map to ")
        ]
        maps[nation] = named[-1] if named else rng.choice(sorted(court.eligible(nation)))
    return maps


def parse_guesses(court: Court, nation: str, player: str, text: str) -> Submission:
    """``Dora serves blue`` (one line per suspected traitor, at most two)."""
    names = {c.name: c.name for c in court.of(nation)}
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
