"""A simple, sensible monarch for board mode: it keeps on each border hex as many regiments as the
strongest enemy next door, takes empty and weakly held hexes with the rest, sends idle regiments
from the interior towards the border, and boosts its biggest battle. It decides from its nation's
map only (its hexes and their neighbours, as its order form shows them).

Court mode is the players' social game (who carries and who spies); a bot there writes nothing."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.monarchs._board import distance, home_of, neighbours
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


def view_of(state: MonarchsState, player: str) -> MonarchView | None:
    nation = state.nation_of(player)
    if nation is None or state.court is not None or state.finished:
        return None
    position = state.position
    seen = tuple(
        (h, position.owners[h], position.armies[h][1] if h in position.armies else 0)
        for h in position.visible_to(nation)
    )
    return MonarchView(nation, seen)


def bot_orders(view: MonarchView | None, rng: random.Random) -> str:
    if view is None:
        return ""
    me = view.nation
    mine = [h for h, o, n in view.seen if o == me and n > 0]
    lines: list[str] = []
    battles: list[tuple[int, str]] = []
    rng.shuffle(mine)
    for origin in mine:
        spare = view.regiments(origin) - _threat(view, origin)
        for target in _prey(view, origin):
            need = view.regiments(target) + 1
            if spare < need:
                continue
            lines.append(f"{need} {origin} {target}")
            spare -= need
            if view.regiments(target):
                battles.append((need + view.regiments(target), target))
        if spare > 1 and not _threat(view, origin):
            step = _towards_border(view, origin)
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


def _prey(view: MonarchView, origin: str) -> list[str]:
    """Neighbours not ours that we may enter: empty first, then the weakest held."""
    options = [
        n
        for n in neighbours(origin)
        if view.sees(n) and view.owner(n) != view.nation and home_of(n) in (None, view.nation)
    ]
    return sorted(options, key=lambda n: (view.regiments(n), n))


def _towards_border(view: MonarchView, origin: str) -> str | None:
    """The own neighbour closest to a hex that is not ours."""
    frontier = [h for h, o, _ in view.seen if o != view.nation]
    steps = [n for n in neighbours(origin) if view.owner(n) == view.nation]
    if not frontier or not steps:
        return None
    return min(steps, key=lambda n: (min(distance(n, f) for f in frontier), n))
