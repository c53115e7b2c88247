"""A simple, sensible monarch for board mode: it keeps on each border hex half as many regiments as
the strongest enemy next door, takes empty and weakly held hexes with the rest, sends idle regiments
from the interior towards the border, and boosts its biggest battle. It decides from its nation's
map only (its hexes and their neighbours, as its order form shows them).

In court mode a spy who may deliver delivers `hold` (sabotage); loyal courtiers stay silent (the
map holder may not deliver, and what passes between people is theirs); monarchs guess nothing."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.monarchs._board import distance, home_of, neighbours
from engine.monarchs._court import Court
from engine.monarchs._state import MonarchsState


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


def view_of(state: MonarchsState, player: str) -> MonarchView | CourtierView | None:
    if state.finished:
        return None
    if state.court is not None:
        return _courtier_view(state, state.court, player)
    nation = state.nation_of(player)
    if nation is None:
        return None
    return _nation_view(state, nation)


def _nation_view(state: MonarchsState, nation: str) -> MonarchView:
    position = state.position
    seen = tuple(
        (h, position.owners[h], position.armies[h][1] if h in position.armies else 0)
        for h in position.visible_to(nation)
    )
    return MonarchView(nation, seen)


@dataclass(frozen=True)
class CourtierView:
    """A courtier's own knowledge, as its order form shows it: its loyalty and whether it may
    deliver this turn."""

    loyal: bool
    may_deliver: bool


def _courtier_view(state: MonarchsState, court: Court, player: str) -> CourtierView | None:
    courtier = court.courtier(player)
    if courtier is None or court.pending:  # a monarch, or the guesses: the bot names nobody
        return None
    nation = courtier.serves
    may = court.carrier.get(nation) == player  # only the carrier its monarch named may deliver
    return CourtierView(courtier.loyal, may)


def bot_orders(view: MonarchView | CourtierView | None, rng: random.Random) -> str:
    """Board mode: the monarch's orders. Court mode: a spy who may deliver delivers `hold`; a loyal
    courtier stays silent, since the seed bars the one holding the map from delivering and the
    orders pass between people; the monarchs' guesses are left to people."""
    if isinstance(view, CourtierView):
        return "hold" if view.may_deliver and not view.loyal else ""
    if view is None:
        return ""
    return _monarch_orders(view, rng)


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
