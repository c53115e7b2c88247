"""One turn, as the seed tells it: border battles, moves, hex battles, losses to home, retreats,
and the turn's score. Pure: every draw comes from the ``rng`` passed in, in a fixed order."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from engine.monarchs._battle import BOOST, OWN_HEX, fight
from engine.monarchs._board import HEXES, HOMES, NATIONS, distance, neighbours
from engine.monarchs._orders import Orders
from engine.monarchs._position import Position

Edge = tuple[str, str]


@dataclass(frozen=True)
class BorderBattle:
    hexes: Edge  # (winner's origin, loser's origin)
    winner: str
    loser: str
    regiments: Mapping[str, int]
    strengths: Mapping[str, float]


@dataclass(frozen=True)
class Retreat:
    nation: str
    to: str | None  # None: surrounded, every survivor lost
    regiments: int  # survivors that retreated (or were lost when surrounded)


@dataclass(frozen=True)
class HexBattle:
    hex: str
    winner: str
    regiments: Mapping[str, int]
    strengths: Mapping[str, float]
    retreats: tuple[Retreat, ...]


@dataclass(frozen=True)
class TurnResult:
    position: Position
    border_battles: tuple[BorderBattle, ...]
    hex_battles: tuple[HexBattle, ...]
    taken: tuple[tuple[str, str, str | None], ...]  # (hex, new owner, old owner) won without a battle
    defeated: Mapping[str, int] = field(default_factory=dict)  # enemy regiments each nation defeated
    lost: Mapping[str, int] = field(default_factory=dict)
    points: Mapping[str, int] = field(default_factory=dict)  # this turn's score, doubled when last


def resolve_turn(
    position: Position, orders: Mapping[str, Orders], rng: random.Random, *, last: bool = False
) -> TurnResult:
    flows = _flows(orders)
    border = _border_battles(position, flows, rng)
    present = _after_moves(position, flows)
    owners = dict(position.owners)
    battles_at = [h for h in HEXES if len(present.get(h, {})) > 1]
    taken = _unopposed(position, present, owners)
    fought = [_hex_battle(position, orders, h, present[h], rng) for h in battles_at]
    for h, (victor, _) in zip(battles_at, fought, strict=True):
        owners[h] = victor
    defeated = dict.fromkeys(NATIONS, 0)
    lost = dict.fromkeys(NATIONS, 0)
    armies = {h: next(iter(p.items())) for h, p in present.items() if len(p) == 1}
    for h, (victor, _) in zip(battles_at, fought, strict=True):
        armies[h] = (victor, present[h][victor])
    battles = []
    for h, (winner, strengths) in zip(battles_at, fought, strict=True):
        retreats = []
        for loser in sorted(present[h], key=NATIONS.index):
            if loser != winner:
                retreats.append(_retreat(h, loser, present[h][loser] - 1, owners, armies, rng))
                gone = 1 + (retreats[-1].regiments if retreats[-1].to is None else 0)
                lost[loser] += gone
                defeated[winner] += gone
                _add(armies, HOMES[loser], loser, gone)
        battles.append(HexBattle(h, winner, dict(present[h]), strengths, tuple(retreats)))
    after = Position(owners, {h: armies[h] for h in HEXES if h in armies and armies[h][1] > 0})
    factor = 2 if last else 1
    points = {n: factor * (len(after.hexes_of(n)) + 2 * defeated[n] - 2 * lost[n]) for n in NATIONS}
    return TurnResult(after, tuple(border), tuple(battles), tuple(taken), defeated, lost, points)


def _flows(orders: Mapping[str, Orders]) -> dict[tuple[str, str, str], int]:
    """Regiments each nation sends across each edge: (nation, origin, target) → regiments."""
    flows: dict[tuple[str, str, str], int] = {}
    for nation in NATIONS:
        for move in orders.get(nation, Orders()).moves:
            key = (nation, move.origin, move.target)
            flows[key] = flows.get(key, 0) + move.regiments
    return flows


def _border_battles(
    position: Position, flows: dict[tuple[str, str, str], int], rng: random.Random
) -> list[BorderBattle]:
    """Opposing moves across one edge fight without modifiers; the loser's move is cancelled."""
    battles = []
    for nation, origin, target in sorted(flows, key=lambda k: (HEXES.index(k[1]), HEXES.index(k[2]))):
        enemy = position.armies.get(target, (nation, 0))[0]
        if enemy == nation or (enemy, target, origin) not in flows or (nation, origin, target) not in flows:
            continue
        sizes = {nation: flows[(nation, origin, target)], enemy: flows[(enemy, target, origin)]}
        winner, strengths = fight([(n, Fraction(s)) for n, s in sizes.items()], rng)
        loser = enemy if winner == nation else nation
        edge = (origin, target) if winner == nation else (target, origin)
        battles.append(BorderBattle(edge, winner, loser, sizes, strengths))
        del flows[(loser, edge[1], edge[0])]  # the loser stays home to defend
    return battles


def _after_moves(position: Position, flows: Mapping[tuple[str, str, str], int]) -> dict[str, dict[str, int]]:
    present: dict[str, dict[str, int]] = {h: {n: c} for h, (n, c) in position.armies.items()}
    for (nation, origin, target), count in flows.items():
        present[origin][nation] -= count
        present.setdefault(target, {})
        present[target][nation] = present[target].get(nation, 0) + count
    return {h: {n: c for n, c in p.items() if c > 0} for h, p in present.items() if any(p.values())}


def _unopposed(
    position: Position, present: Mapping[str, Mapping[str, int]], owners: dict[str, str | None]
) -> list[tuple[str, str, str | None]]:
    """A hex entered by one nation alone becomes that nation's without a battle."""
    taken = []
    for h in HEXES:
        if len(present.get(h, {})) == 1:
            (nation,) = present[h]
            if owners[h] != nation:
                taken.append((h, nation, owners[h]))
                owners[h] = nation
    return taken


def _hex_battle(
    position: Position,
    orders: Mapping[str, Orders],
    hex_name: str,
    armies: Mapping[str, int],
    rng: random.Random,
) -> tuple[str, dict[str, float]]:
    bases = []
    for nation in sorted(armies, key=NATIONS.index):
        base = Fraction(armies[nation])
        base += OWN_HEX if position.owners[hex_name] == nation else 0
        base += BOOST if orders.get(nation, Orders()).boost == hex_name else 0
        bases.append((nation, base))
    return fight(bases, rng)


def _retreat(
    hex_name: str,
    nation: str,
    survivors: int,
    owners: Mapping[str, str | None],
    armies: dict[str, tuple[str, int]],
    rng: random.Random,
) -> Retreat:
    """Survivors go to the friendly neighbour nearest home (ties at random); none → all lost."""
    if survivors == 0:
        return Retreat(nation, None, 0)
    friendly = [n for n in neighbours(hex_name) if owners[n] == nation]
    if not friendly:
        return Retreat(nation, None, survivors)
    nearest = min(distance(n, HOMES[nation]) for n in friendly)
    to = rng.choice(sorted(n for n in friendly if distance(n, HOMES[nation]) == nearest))
    _add(armies, to, nation, survivors)
    return Retreat(nation, to, survivors)


def _add(armies: dict[str, tuple[str, int]], hex_name: str, nation: str, count: int) -> None:
    owner, had = armies.get(hex_name, (nation, 0))
    if owner != nation and had:
        raise AssertionError(f"{nation} regiments would share {hex_name} with {owner}")
    armies[hex_name] = (nation, had + count)
