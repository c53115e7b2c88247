"""Earning Spoils from successful attacks: chains from their start, cycles all at once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.core import Event
from engine.truce._events import CoinsRemoved, CoinsTaken


@dataclass
class Purses:
    """Everyone's coins while a round resolves (mutable scratch, never part of the state)."""

    supply: dict[str, int]
    spoils: dict[str, int]
    gained: dict[str, int] = field(default_factory=dict)


def settle_order(hits: Mapping[str, str], players: Sequence[str]) -> list[tuple[str, ...]]:
    """Targets of successful attacks (``hits``: attacker → target) in the order they are settled.

    An attack on X is settled after every attack made by X, so X first collects what it took. A
    cycle of attacks is one group, settled simultaneously.
    """
    pending = [p for p in players if p in hits.values()]
    groups: list[tuple[str, ...]] = []
    while pending:
        ready = [t for t in pending if hits.get(t) not in pending]
        if not ready:
            ready = _cycle_from(pending[0], hits)
            groups.append(tuple(p for p in players if p in ready))
        else:
            groups.extend((t,) for t in ready)
        pending = [t for t in pending if t not in ready]
    return groups


def _cycle_from(start: str, hits: Mapping[str, str]) -> list[str]:
    path = [start]
    while (after := hits[path[-1]]) not in path:
        path.append(after)
    return path[path.index(after) :]


def settle(
    group: tuple[str, ...], hits: Mapping[str, str], players: Sequence[str], purses: Purses
) -> list[Event]:
    """Every successful attacker of the group takes its share, computed from the coins as they
    stand before any of the group's transfers (simultaneous within a cycle)."""
    events: list[Event] = []
    gains: dict[str, int] = {}
    losses: dict[str, tuple[int, int]] = {}
    for target in group:
        attackers = [a for a in players if hits.get(a) == target]
        supply, spoils = purses.supply[target], purses.spoils[target]
        k = len(attackers)
        each_supply = 1 if supply >= k else 0  # not enough for everyone: nobody gets any of it
        each_spoils, remainder = divmod(spoils, k)
        losses[target] = (k if each_supply else supply, spoils)
        for attacker in attackers:
            gains[attacker] = gains.get(attacker, 0) + each_supply + each_spoils
            events.append(
                CoinsTaken(attacker=attacker, target=target, from_supply=each_supply, from_spoils=each_spoils)
            )
        if supply and not each_supply:
            why = f"{target}'s Supply could not pay {k} successful attackers"
            events.append(CoinsRemoved(coins=supply, reason=why))
        if remainder:
            why = f"{target}'s Spoils did not split evenly among {k} attackers"
            events.append(CoinsRemoved(coins=remainder, reason=why))
    for target, (supply_lost, spoils_lost) in losses.items():
        purses.supply[target] -= supply_lost
        purses.spoils[target] -= spoils_lost
    for attacker, coins in gains.items():
        purses.spoils[attacker] += coins
        purses.gained[attacker] = purses.gained.get(attacker, 0) + coins
    return events
