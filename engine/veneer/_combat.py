"""Combat by the seed's interception rules, and the return of lent defenders.

Each defender destroys up to ``strength`` (2) attackers and is destroyed when it takes a full load;
defenders take the attackers in turn, each as many as it can, so a single left-over attacker meets a
defender that survives. Each attacker that gets through destroys one coin.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.core import Event
from engine.veneer._effects import add_coins, interception, veto_price
from engine.veneer._events import AttackResolved, AttackVetoed, DefendersLent, TroopsReturned
from engine.veneer._state import Attack, Debt, VeneerState


@dataclass(frozen=True)
class Interception:
    attackers_lost: int
    defenders_lost: int
    survivors: int


def intercept(attackers: int, defenders: int, strength: int = 2) -> Interception:
    """``defenders`` meet ``attackers``: each defender takes as many as it can, up to ``strength``."""
    attackers_lost = min(attackers, defenders * strength)
    defenders_lost = min(defenders, attackers // strength)  # only a full load destroys a defender
    return Interception(attackers_lost, defenders_lost, attackers - attackers_lost)


@dataclass
class Responses:
    """Everything said in RESPONSE, keyed by the attacked player."""

    intercept: dict[str, int] = field(default_factory=dict)  # missing: all defenders
    lends: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # target → (lender, count)
    vetoes: dict[str, list[str]] = field(default_factory=dict)  # target → vetoers


def resolve_attacks(state: VeneerState, responses: Responses, events: list[Event]) -> VeneerState:
    """Vetoes, then lending, then every attack that stands; returns what must be repaid."""
    standing: list[Attack] = []
    for attack in state.attacks:
        state, vetoed = _veto(state, attack, responses.vetoes.get(attack.target, []), events)
        if not vetoed:
            standing.append(attack)
    loans: dict[str, list[tuple[str, int]]] = {}
    for attack in standing:  # every loan leaves its lender before any fight
        if not state.allied(attack.attacker, attack.target):
            loans[attack.target] = _lend(state, attack.target, responses.lends.get(attack.target, []), events)
        for lender, count in loans.get(attack.target, []):
            state = state.with_seat(lender, defenders=state.seat(lender).defenders - count)
    debts: list[Debt] = []
    for attack in standing:
        lent = loans.get(attack.target, [])
        state = _fight(state, attack, responses.intercept.get(attack.target), lent, events)
        state, debt = _repay_if_clear(state, attack.target, lent, events)
        if debt is not None:
            debts.append(debt)
    return _with_debts(state, debts)


def _veto(
    state: VeneerState, attack: Attack, vetoers: Sequence[str], events: list[Event]
) -> tuple[VeneerState, bool]:
    paid = [
        v
        for v in vetoers
        if v != attack.target
        and state.allied(v, attack.attacker)
        and state.seat(v).coins > veto_price(state, v)
    ]
    for vetoer in paid:
        state = add_coins(
            state, vetoer, -veto_price(state, vetoer), f"a veto of {attack.attacker}'s attack", events
        )
    if paid:
        prices = {veto_price(state, v) for v in paid}
        events.append(
            AttackVetoed(
                attacker=attack.attacker, target=attack.target, vetoers=tuple(paid), price=max(prices)
            )
        )
    return state, bool(paid)


def _lend(
    state: VeneerState, target: str, offers: Sequence[tuple[str, int]], events: list[Event]
) -> list[tuple[str, int]]:
    loans: dict[str, int] = {}
    for lender, count in offers:
        if not state.allied(lender, target) or not state.seat(lender).alive:
            continue
        count = min(count, state.seat(lender).defenders - loans.get(lender, 0))
        if count > 0:
            loans[lender] = loans.get(lender, 0) + count
    for lender, count in loans.items():
        events.append(DefendersLent(lender=lender, receiver=target, count=count))
    return [(n, loans[n]) for n in state.names if n in loans]


def _fight(
    state: VeneerState,
    attack: Attack,
    chosen: int | None,
    loans: Sequence[tuple[str, int]],
    events: list[Event],
) -> VeneerState:
    defender = state.seat(attack.target)
    ally = state.allied(attack.attacker, attack.target)
    own = 0 if ally else min(defender.defenders if chosen is None else chosen, defender.defenders)
    pool = own + sum(n for _, n in loans)
    attackers = min(attack.attackers, state.seat(attack.attacker).attackers)
    result = intercept(attackers, pool, interception(state, attack.target))
    state = state.with_seat(
        attack.attacker, attackers=state.seat(attack.attacker).attackers - result.attackers_lost
    )
    # The lent survivors stand with the defender until they are returned.
    state = state.with_seat(attack.target, defenders=defender.defenders - own + pool - result.defenders_lost)
    destroyed = min(result.survivors, defender.coins)
    events.append(
        AttackResolved(
            attacker=attack.attacker,
            target=attack.target,
            attackers=attackers,
            interceptors=pool,
            attackers_lost=result.attackers_lost,
            defenders_lost=result.defenders_lost,
            survivors=result.survivors,
            coins_destroyed=destroyed,
            ally=ally,
        )
    )
    return add_coins(state, attack.target, -destroyed, f"{attack.attacker}'s attack", events)


def split_returns(
    loans: Sequence[tuple[str, int]], available: int, chosen: Mapping[str, int] | None = None
) -> list[tuple[str, int]]:
    """As many troops as possible go back, never more than was lent: the debtor's choice first, the
    rest in seating order."""
    left = min(available, sum(n for _, n in loans))
    back: dict[str, int] = {}
    for lender, lent in loans:
        back[lender] = min(lent, max(0, (chosen or {}).get(lender, 0)), left)
        left -= back[lender]
    for lender, lent in loans:
        extra = min(lent - back[lender], left)
        back[lender] += extra
        left -= extra
    return [(lender, back[lender]) for lender, _ in loans]


def needs_decision(loans: Sequence[tuple[str, int]], available: int) -> bool:
    """The debtor decides only when two or more allies lent, not all can be repaid, and some can:
    with no troop left there is nothing to decide, and COMBAT does not wait."""
    return sum(1 for _, n in loans if n) >= 2 and 0 < available < sum(n for _, n in loans)


def _repay_if_clear(
    state: VeneerState, debtor: str, loans: Sequence[tuple[str, int]], events: list[Event]
) -> tuple[VeneerState, Debt | None]:
    if not loans:
        return state, None
    available = state.seat(debtor).troops
    if needs_decision(loans, available) and state.seat(debtor).coins > 0:
        return state, Debt(debtor, tuple(loans), available)
    return repay(state, debtor, loans, split_returns(loans, available), events), None


def repay(
    state: VeneerState,
    debtor: str,
    loans: Sequence[tuple[str, int]],
    returns: Sequence[tuple[str, int]],
    events: list[Event],
) -> VeneerState:
    """Returned troops come from the debtor's defenders first, then its attackers."""
    lent = dict(loans)
    for lender, count in returns:
        seat = state.seat(debtor)
        from_defenders = min(count, seat.defenders)
        state = state.with_seat(
            debtor,
            defenders=seat.defenders - from_defenders,
            attackers=seat.attackers - (count - from_defenders),
        )
        state = state.with_seat(lender, defenders=state.seat(lender).defenders + count)
        events.append(TroopsReturned(debtor=debtor, lender=lender, count=count, lent=lent[lender]))
    return state


def _with_debts(state: VeneerState, debts: list[Debt]) -> VeneerState:
    return dataclasses.replace(state, debts=tuple(debts), attacks=())
