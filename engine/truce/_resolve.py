"""Resolving a round, step by step as the rulebook reads: reveal, support, loot, attacks, spoils."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.core import Event, LineError, Submission
from engine.truce._attacks import Purses, settle, settle_order
from engine.truce._events import (
    ActionRevealed,
    AttackFailed,
    AttackSucceeded,
    CoinsRemoved,
    GameEnded,
    RoundOpened,
    SpoilsBanked,
    StashLooted,
    SupportCounted,
    SupportLost,
)
from engine.truce._parse import Order, read_order
from engine.truce._state import Player, Result, TruceState
from engine.truce._view import decide

NEEDS_SUPPLY = ("attack", "defend", "loot")


@dataclass(frozen=True)
class Revealed:
    """A player's action at the reveal; an invalid one counts as a Pass."""

    chosen: Order
    valid: bool = True
    reason: str | None = None

    @property
    def kind(self) -> str:
        return self.chosen.kind if self.valid else "pass"


def resolve_round(state: TruceState, submissions: Mapping[str, Submission]) -> tuple[TruceState, list[Event]]:
    players = state.names
    revealed = {p: reveal(state, p, submissions.get(p)) for p in players}
    events: list[Event] = [
        ActionRevealed(player=p, action=r.chosen.kind, target=r.chosen.target, valid=r.valid, reason=r.reason)
        for p, r in revealed.items()
    ]
    supporters, lost = count_support(revealed, players)
    events += [SupportCounted(player=p, supporters=tuple(s)) for p, s in supporters.items() if s]
    events += lost
    purses = Purses({p.name: p.supply for p in state.players}, {p.name: p.spoils for p in state.players})
    events += loot(revealed, players, state.stash, purses)
    stash = 0 if any(r.kind == "loot" for r in revealed.values()) else state.stash
    hits, attack_events = judge_attacks(revealed, players, supporters)
    events += attack_events
    for group in settle_order(hits, players):
        events += settle(group, hits, players, purses)
    results = tuple(_result(p, revealed[p], supporters[p], hits, purses) for p in players)
    events += [
        SpoilsBanked(player=p, coins=purses.spoils[p], supply=purses.supply[p] + purses.spoils[p])
        for p in players
        if purses.spoils[p]
    ]
    banked = tuple(Player(p, purses.supply[p] + purses.spoils[p], 0) for p in players)
    after = dataclasses.replace(state, players=banked, round=state.round + 1, last=results)
    return _open_next(after, stash, events)


def reveal(state: TruceState, player: str, submission: Submission | None) -> Revealed:
    """The last action line of the standing submission (none → Pass), checked as it stands now."""
    lines = submission.orders if submission else ()
    read = [read_order(line, state.spellings()) for line in lines]
    actions = [o for o in read if isinstance(o, LineError) or o.is_action]
    if not actions:
        return Revealed(Order("pass"))
    last = actions[-1]
    if isinstance(last, LineError):
        return Revealed(Order("pass"), valid=False, reason=f"the order “{last.line}” was not understood")
    if last.target == player:
        return Revealed(last, valid=False, reason=f"{player} cannot {last.kind} themselves")
    if last.kind in NEEDS_SUPPLY and state.player(player).supply < 1:
        return Revealed(last, valid=False, reason=f"{player} had no coins in Supply, so cannot {last.kind}")
    return Revealed(last)


def count_support(
    revealed: Mapping[str, Revealed], players: Sequence[str]
) -> tuple[dict[str, list[str]], list[Event]]:
    """Who ends up supported by whom: support passes along chains; a chain into a loop is lost."""
    supporters: dict[str, list[str]] = {p: [] for p in players}
    lost: dict[tuple[str, ...], list[str]] = {}
    for supporter in players:
        if revealed[supporter].kind != "support":
            continue
        path = [supporter]
        receiver = revealed[supporter].chosen.target or ""
        while revealed[receiver].kind == "support" and receiver not in path:
            path.append(receiver)
            receiver = revealed[receiver].chosen.target or ""
        if receiver in path:
            loop = path[path.index(receiver) :]
            lost.setdefault(_rotated(loop, players), []).append(supporter)
        else:
            supporters[receiver].append(supporter)
    events: list[Event] = [SupportLost(supporters=tuple(s), loop=loop) for loop, s in lost.items()]
    return supporters, events


def _rotated(loop: list[str], players: Sequence[str]) -> tuple[str, ...]:
    """The loop starting from its first player in seating order, so each loop has one name."""
    first = min(range(len(loop)), key=lambda i: players.index(loop[i]))
    return tuple(loop[first:] + loop[:first])


def loot(revealed: Mapping[str, Revealed], players: Sequence[str], stash: int, purses: Purses) -> list[Event]:
    looters = [p for p in players if revealed[p].kind == "loot"]
    if not looters:
        return []
    each, remainder = divmod(stash, len(looters))
    for p in looters:
        purses.spoils[p] += each
        purses.gained[p] = each
    events: list[Event] = [StashLooted(looters=tuple(looters), stash=stash, each=each)]
    if remainder:
        why = f"the Stash did not split evenly among {len(looters)} looters"
        events.append(CoinsRemoved(coins=remainder, reason=why))
    return events


def judge_attacks(
    revealed: Mapping[str, Revealed], players: Sequence[str], supporters: Mapping[str, list[str]]
) -> tuple[dict[str, str], list[Event]]:
    """Successful attacks (attacker → target) and the event for every attack."""
    hits: dict[str, str] = {}
    events: list[Event] = []
    for attacker in players:
        if revealed[attacker].kind != "attack":
            continue
        target = revealed[attacker].chosen.target or ""
        attack = len(supporters[attacker])
        defense = len(supporters[target]) if revealed[target].kind == "defend" else 0
        looted = revealed[target].kind == "loot"
        if looted or attack > defense:
            hits[attacker] = target
            events.append(
                AttackSucceeded(
                    attacker=attacker, target=target, attack=attack, defense=defense, automatic=looted
                )
            )
        else:
            events.append(AttackFailed(attacker=attacker, target=target, attack=attack, defense=defense))
    return hits, events


def _result(
    player: str, revealed: Revealed, supporters: list[str], hits: Mapping[str, str], purses: Purses
) -> Result:
    return Result(
        player=player,
        action=revealed.chosen.kind,
        target=revealed.chosen.target,
        valid=revealed.valid,
        reason=revealed.reason,
        supporters=len(supporters),
        succeeded=(player in hits) if revealed.kind == "attack" else None,
        gained=purses.gained.get(player, 0),
    )


def _open_next(state: TruceState, stash: int, events: list[Event]) -> tuple[TruceState, list[Event]]:
    """The next round opens with a coin added to the Stash, unless that was the final round."""
    if state.finished:
        outcome = decide(state)
        events.append(GameEnded(winners=outcome.winners, reason=outcome.reason))
        return dataclasses.replace(state, stash=stash), events
    state = dataclasses.replace(state, stash=stash + 1)
    events.append(RoundOpened(round=state.round, rounds=state.rounds, stash=state.stash))
    return state, events
