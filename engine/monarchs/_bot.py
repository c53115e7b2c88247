"""Bots for the Game of Monarchs. Each decides from its own player's view only.

Board mode, and a monarch's orders in court mode: keep on each border hex half as many regiments as
the strongest enemy next door, take empty and weakly held hexes with the rest, send idle regiments
from the interior towards the border, and boost the biggest battle. It reads its nation's map only
(its hexes and their neighbours, as its order form shows them; in court mode the seed has a courtier
bring the monarch that map, and the bot takes it as brought).

Court mode, the monarch: each turn it names as carrier, and as its map's recipient, the eligible
courtier its own record trusts most (fewest unfaithful deliveries, then most faithful ones, then the
seeded rng), and hands it its orders through Courier (``hand LINE``). Its record holds, per turn,
whom it named, whether the carrier delivered and whether the delivered orders were those handed
(``Delivery``; unknown for the last turn). After the last turn it names as traitors the courtiers
its record caught changing orders, at most two, most often caught first; none without evidence (a
loyal courtier called disloyal loses half its score). Whom a suspect serves is a seeded coin between
the two other nations, each given to one suspect (a court holds one spy for each other nation).

Court mode, a courtier: only the carrier writes. A loyal carrier delivers what it was handed (nothing
handed: silent, leaving the handing to people). A spy carrier twists what it was handed (no boost,
one regiment fewer on every move, so its attacks fail) always on the last turn, whose outcome the
monarch sees only after guessing, and otherwise one turn in three (seeded), to avoid being caught;
handed nothing, it delivers ``hold``."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.monarchs._board import NATIONS, distance, home_of, neighbours
from engine.monarchs._court import Court, Delivery
from engine.monarchs._state import MonarchsState

SABOTAGE_CHANCE = 1 / 3  # how often a spy carrying before the last turn twists the orders


@dataclass(frozen=True)
class MonarchView:
    nation: str
    seen: tuple[tuple[str, str | None, int], ...]  # (hex, owner, regiments of that owner) in sight

    def owner(self, hex_name: str) -> str | None:
        return next((o for h, o, _ in self.seen if h == hex_name), None)

    def regiments(self, hex_name: str) -> int:
        return next((n for h, _, n in self.seen if h == hex_name), 0)

    def sees(self, hex_name: str) -> bool:
        return any(h == hex_name for h, _, _ in self.seen)


def _nation_view(state: MonarchsState, nation: str) -> MonarchView:
    position = state.position
    seen = tuple(
        (h, position.owners[h], position.armies[h][1] if h in position.armies else 0)
        for h in position.visible_to(nation)
    )
    return MonarchView(nation, seen)


@dataclass(frozen=True)
class CourtMonarchView:
    """A monarch in court mode: its nation's map, its courtiers' names (never their loyalties), who
    may carry this turn, its own record, and whether the guesses are due."""

    board: MonarchView
    courtiers: tuple[str, ...]
    eligible: tuple[str, ...]
    record: tuple[Delivery, ...]
    guessing: bool


def _court_monarch_view(state: MonarchsState, court: Court, nation: str) -> CourtMonarchView:
    return CourtMonarchView(
        board=_nation_view(state, nation),
        courtiers=tuple(c.name for c in court.of(nation)),
        eligible=tuple(court.eligible(nation)),
        record=court.record.get(nation, ()),
        guessing=bool(court.pending),
    )


@dataclass(frozen=True)
class CourtierView:
    """A courtier's own knowledge: its loyalty, whether it may deliver this turn, the orders handed
    to it (only when it carries), and whether this is the last turn (public)."""

    loyal: bool
    may_deliver: bool
    handed: tuple[str, ...] = ()
    last_turn: bool = False


def _courtier_view(state: MonarchsState, court: Court, player: str) -> CourtierView | None:
    courtier = court.courtier(player)
    if courtier is None or court.pending:  # the guesses are the monarchs'
        return None
    may = court.carrier.get(courtier.serves) == player  # only the carrier its monarch named
    return CourtierView(courtier.loyal, may, court.handed_to(player), state.last_turn)


View = MonarchView | CourtMonarchView | CourtierView | None


def view_of(state: MonarchsState, player: str) -> View:
    if state.finished:
        return None
    court, nation = state.court, state.nation_of(player)
    if court is None:
        return None if nation is None else _nation_view(state, nation)
    if nation is not None:
        return _court_monarch_view(state, court, nation)
    return _courtier_view(state, court, player)


def bot_orders(view: View, rng: random.Random) -> str:
    """The order text for the seat whose view this is ("" when it has nothing to say)."""
    if isinstance(view, CourtierView):
        return _delivery(view, rng)
    if isinstance(view, CourtMonarchView):
        return _guesses(view, rng) if view.guessing else _court_orders(view, rng)
    if view is None:
        return ""
    return _monarch_orders(view, rng)


# --- court mode -------------------------------------------------------------------------------


def _court_orders(view: CourtMonarchView, rng: random.Random) -> str:
    orders = _monarch_orders(view.board, rng).splitlines()
    carrier = _most_trusted(view, rng)
    if carrier is None:
        return ""
    return "\n".join([f"carrier {carrier}", f"map to {carrier}", *(f"hand {line}" for line in orders)])


def _caught(record: tuple[Delivery, ...], name: str) -> tuple[int, int]:
    """(turns ``name`` carried unfaithfully, turns it carried faithfully), by the monarch's record."""
    carried = [d for d in record if d.carrier == name]
    return sum(d.faithful is False for d in carried), sum(d.faithful is True for d in carried)


def _most_trusted(view: CourtMonarchView, rng: random.Random) -> str | None:
    ties = {name: rng.random() for name in view.eligible}

    def distrust(name: str) -> tuple[int, int, float]:
        unfaithful, faithful = _caught(view.record, name)
        return unfaithful, -faithful, ties[name]

    return min(view.eligible, key=distrust, default=None)


def _guesses(view: CourtMonarchView, rng: random.Random) -> str:
    ties = {name: rng.random() for name in view.courtiers}

    def suspicion(name: str) -> tuple[int, int, float]:
        unfaithful, faithful = _caught(view.record, name)
        return -unfaithful, faithful, ties[name]

    suspects = sorted((n for n in view.courtiers if _caught(view.record, n)[0]), key=suspicion)[:2]
    others = [n for n in NATIONS if n != view.board.nation]
    rng.shuffle(others)  # a seeded coin: which other nation each suspect serves
    return "\n".join(f"{name} serves {nation}" for name, nation in zip(suspects, others, strict=False))


def _delivery(view: CourtierView, rng: random.Random) -> str:
    if not view.may_deliver:
        return ""
    if view.loyal:
        return "\n".join(view.handed)
    if not view.handed:
        return "hold"
    roll = rng.random()
    return _twisted(view.handed) if view.last_turn or roll < SABOTAGE_CHANCE else "\n".join(view.handed)


def _twisted(handed: tuple[str, ...]) -> str:
    """The handed orders sabotaged where it is deniable: no boost, one regiment fewer on each move
    (a move of one is dropped), so attacks sized to win lose their edge."""
    lines = []
    for line in handed:
        count, _, rest = line.partition(" ")
        if count.isdigit() and int(count) > 1:
            lines.append(f"{int(count) - 1} {rest}")
    return "\n".join(lines) or "hold"


# --- the board --------------------------------------------------------------------------------


def _monarch_orders(view: MonarchView, rng: random.Random) -> str:
    me = view.nation
    mine = [h for h, o, n in view.seen if o == me and n > 0]
    lines: list[str] = []
    battles: list[tuple[int, str]] = []
    rng.shuffle(mine)
    for origin in mine:
        spare = view.regiments(origin) - (_threat(view, origin) + 1) // 2  # half the threat stays
        for target in _prey(view, origin, rng):
            need = view.regiments(target) + 1  # one more than the defenders: a near-certain win
            if spare < need:
                continue
            lines.append(f"{need} {origin} {target}")
            spare -= need
            if view.regiments(target):
                battles.append((need + view.regiments(target), target))
        if spare > 1 and not _threat(view, origin):
            step = _towards_border(view, origin, rng)
            if step:
                lines.append(f"{spare - 1} {origin} {step}")
    guarded = [(_threat(view, h) + view.regiments(h), h) for h in mine if _threat(view, h)]
    biggest = max(battles + guarded, default=None)
    if biggest:
        lines.append(f"boost {biggest[1]}")
    return "\n".join(lines) or "hold"


def _enemies(view: MonarchView, hex_name: str) -> list[str]:
    return [n for n in neighbours(hex_name) if view.owner(n) not in (None, view.nation) and view.regiments(n)]


def _threat(view: MonarchView, hex_name: str) -> int:
    return max((view.regiments(n) for n in _enemies(view, hex_name)), default=0)


def _prey(view: MonarchView, origin: str, rng: random.Random) -> list[str]:
    """Neighbours not ours that we may enter: empty first, then the weakest held."""
    options = [
        n
        for n in neighbours(origin)
        if view.sees(n) and view.owner(n) != view.nation and home_of(n) in (None, view.nation)
    ]
    ties = {n: rng.random() for n in options}  # no favourite direction: the board decides
    return sorted(options, key=lambda n: (view.regiments(n), ties[n]))


def _towards_border(view: MonarchView, origin: str, rng: random.Random) -> str | None:
    """The own neighbour closest to a hex that is not ours."""
    frontier = [h for h, o, _ in view.seen if o != view.nation]
    steps = [n for n in neighbours(origin) if view.owner(n) == view.nation]
    if not frontier or not steps:
        return None
    ties = {n: rng.random() for n in steps}
    return min(steps, key=lambda n: (min(distance(n, f) for f in frontier), ties[n]))
