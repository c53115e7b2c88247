"""A turn applied to the game: the resolver's result turned into the new state and its events, each
addressed to the players who may see it."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

from engine.core import Event
from engine.monarchs._board import CENTRE, HEXES, NATIONS
from engine.monarchs._events import (
    BorderBattleFought,
    HexBattleFought,
    HexLost,
    HexTaken,
    MapShown,
    TurnResolved,
    TurnScored,
)
from engine.monarchs._orders import Orders
from engine.monarchs._position import Position
from engine.monarchs._resolve import HexBattle, TurnResult, resolve_turn
from engine.monarchs._state import MonarchsState, Recap

Viewers = Mapping[str, frozenset[str]]  # nation → the players who see its map this turn


def play_turn(
    state: MonarchsState,
    orders: Mapping[str, Orders],
    delivered: tuple[str, ...],
    viewers: Viewers,
    rng: random.Random,
) -> tuple[MonarchsState, list[Event]]:
    result = resolve_turn(state.position, orders, rng, last=state.last_turn)
    scores = {n: state.scores[n] + result.points[n] for n in NATIONS}
    after = replace(
        state,
        position=result.position,
        turn=state.turn + 1,
        scores=scores,
        delivered=delivered,
        recap=recap(result, orders),
    )
    told = None if state.court is not None else delivered  # court mode: each monarch alone is told
    events: list[Event] = [TurnResolved(turn=state.turn, turns=state.turns, delivered=told)]
    events += _battle_events(state.position, result, viewers)
    events += _hexes_lost(state.position, result, viewers)
    for nation in NATIONS:
        events.append(_map(after, nation, state.turn, viewers[nation]))
        events.append(_score(after, result, nation, state, viewers[nation]))
    return after, events


def recap(result: TurnResult, orders: Mapping[str, Orders]) -> dict[str, Recap]:
    """Where each nation won and lost battles this turn, what it scored and what it ordered."""
    won: dict[str, list[str]] = {n: [] for n in NATIONS}
    lost: dict[str, list[str]] = {n: [] for n in NATIONS}
    for b in result.border_battles:
        place = "–".join(sorted(b.hexes, key=HEXES.index))
        won[b.winner].append(place)
        lost[b.loser].append(place)
    for hb in result.hex_battles:
        won[hb.winner].append(hb.hex)
        for nation in hb.regiments:
            if nation != hb.winner:
                lost[nation].append(hb.hex)
    given = {n: orders.get(n, Orders()) for n in NATIONS}
    return {
        n: Recap(
            tuple(won[n]),
            tuple(lost[n]),
            result.points[n],
            tuple((m.origin, m.target, m.regiments) for m in given[n].moves),
            given[n].boost,
        )
        for n in NATIONS
    }


def _battle_events(before: Position, result: TurnResult, viewers: Viewers) -> list[Event]:
    events: list[Event] = []
    for b in result.border_battles:
        events.append(
            BorderBattleFought(
                audience=viewers[b.winner] | viewers[b.loser],
                winner=b.winner,
                loser=b.loser,
                origin=b.hexes[0],
                target=b.hexes[1],
                regiments=b.regiments,
                strengths={n: round(s, 2) for n, s in b.strengths.items()},
            )
        )
    for hb in result.hex_battles:
        events.append(_hex_battle(hb, viewers, before.owners.get(hb.hex)))
    for hex_name, nation, previous in result.taken:
        audience = viewers[nation] | (viewers[previous] if previous else frozenset())
        events.append(HexTaken(audience=audience, hex=hex_name, nation=nation, previous=previous))
    return events


def _hexes_lost(before: Position, result: TurnResult, viewers: Viewers) -> list[Event]:
    """A hex whose owner had no part in the battle fought on it: the owner is told it lost it."""
    lost: list[Event] = []
    for hb in result.hex_battles:
        owner = before.owners.get(hb.hex)
        if owner is not None and owner not in hb.regiments:
            fought = tuple(n for n in NATIONS if n in hb.regiments)
            lost.append(
                HexLost(audience=viewers[owner], hex=hb.hex, nation=owner, winner=hb.winner, fought=fought)
            )
    return lost


def _hex_battle(battle: HexBattle, viewers: Viewers, owner: str | None) -> HexBattleFought:
    retreats = tuple(
        f"{r.nation}: {r.regiments} to {r.to}" if r.to else f"{r.nation}: {r.regiments} surrounded and lost"
        for r in battle.retreats
        if r.regiments
    )
    audience = frozenset().union(*(viewers[n] for n in battle.regiments))
    return HexBattleFought(
        audience=audience,
        hex=battle.hex,
        winner=battle.winner,
        regiments=battle.regiments,
        strengths={n: round(s, 2) for n, s in battle.strengths.items()},
        retreats=retreats,
        owner=owner,
    )


def _map(state: MonarchsState, nation: str, turn: int, audience: frozenset[str]) -> MapShown:
    position = state.position
    hexes = tuple(
        (h, position.owners[h], position.armies.get(h, (None, 0))[1]) for h in position.visible_to(nation)
    )
    return MapShown(audience=audience, nation=nation, turn=turn, hexes=hexes)


def _score(
    after: MonarchsState, result: TurnResult, nation: str, before: MonarchsState, audience: frozenset[str]
) -> TurnScored:
    return TurnScored(
        audience=None if before.publish_scores else audience,
        nation=nation,
        turn=before.turn,
        hexes=len(after.position.hexes_of(nation)),
        defeated=result.defeated[nation],
        lost=result.lost[nation],
        points=result.points[nation],
        doubled=before.last_turn,
        total=after.scores[nation],
    )


def board_ranking(scores: Mapping[str, int], position: Position, rng: random.Random) -> list[str]:
    """Nations best first: score, then who holds the centre, then hexes held, then a seeded coin."""
    coin = {n: rng.random() for n in NATIONS}
    return sorted(
        NATIONS,
        key=lambda n: (-scores[n], position.owners[CENTRE] != n, -len(position.hexes_of(n)), coin[n]),
    )
