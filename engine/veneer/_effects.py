"""Card effects: the modifiers laws and factions keep in force, and the one-shot effects of motions
and actions. Each helper takes the state and returns the new one, appending what happened."""

from __future__ import annotations

import dataclasses
import random

from engine.core import Event
from engine.veneer._cards import Card
from engine.veneer._events import (
    AllianceBroken,
    CoinsChanged,
    LawRepealed,
    PlayerEliminated,
    SecretLearned,
    TroopsChanged,
)
from engine.veneer._state import INTERCEPTION, TROOP_PRICE, VETO_PRICE, VeneerState

# --- what is in force ------------------------------------------------------------------------------


def modifier(state: VeneerState, player: str, effect: str) -> int:
    """The sum of ``effect`` amounts over the laws in force and ``player``'s own faction."""
    cards = list(state.law_cards())
    faction = state.faction_card(player) if player else None
    if faction is not None:
        cards.append(faction)
    return sum(c.amount for c in cards if c.effect == effect)


def law_in_force(state: VeneerState, effect: str) -> bool:
    return any(c.effect == effect for c in state.law_cards())


def has_ability(state: VeneerState, player: str, effect: str) -> bool:
    card = state.faction_card(player)
    return card is not None and card.effect == effect


def troop_price(state: VeneerState, player: str) -> int:
    return max(1, TROOP_PRICE + modifier(state, player, "troop_price"))


def veto_price(state: VeneerState, player: str) -> int:
    return max(1, VETO_PRICE + modifier(state, player, "veto_price"))


def interception(state: VeneerState, defender: str) -> int:
    return max(1, INTERCEPTION + modifier(state, defender, "interception"))


def income(state: VeneerState, player: str) -> int:
    return max(0, 1 + len(state.allies(player)) + modifier(state, player, "income"))


def votes_of(state: VeneerState, player: str) -> int:
    return 1 + max(0, modifier(state, player, "extra_vote"))


def must_attack(state: VeneerState) -> bool:
    return state.forced or law_in_force(state, "forced_attack")


# --- one-shot effects ------------------------------------------------------------------------------


def add_coins(state: VeneerState, player: str, change: int, reason: str, events: list[Event]) -> VeneerState:
    seat = state.seat(player)
    coins = max(0, seat.coins + change)
    if coins == seat.coins:
        return state
    events.append(CoinsChanged(player=player, change=coins - seat.coins, coins=coins, reason=reason))
    return state.with_seat(player, coins=coins)


def add_defenders(
    state: VeneerState, player: str, count: int, reason: str, events: list[Event]
) -> VeneerState:
    events.append(TroopsChanged(player=player, attackers=0, defenders=count, reason=reason))
    return state.with_seat(player, defenders=state.seat(player).defenders + count)


def destroy_troops(
    state: VeneerState, player: str, count: int, reason: str, events: list[Event]
) -> VeneerState:
    """Up to ``count`` of the player's troops are destroyed, defenders first."""
    seat = state.seat(player)
    defenders = min(count, seat.defenders)
    attackers = min(count - defenders, seat.attackers)
    if defenders + attackers == 0:
        return state
    events.append(TroopsChanged(player=player, attackers=-attackers, defenders=-defenders, reason=reason))
    return state.with_seat(player, defenders=seat.defenders - defenders, attackers=seat.attackers - attackers)


def repeal_all(state: VeneerState, reason: str, events: list[Event]) -> VeneerState:
    events.extend(LawRepealed(law=law, reason=reason) for law in state.laws)
    return dataclasses.replace(state, laws=(), discard=state.discard + state.laws)


def break_alliances(state: VeneerState, player: str | None, reason: str, events: list[Event]) -> VeneerState:
    """Every alliance of ``player`` (of everyone when ``None``) is broken."""
    broken = [p for p in state.alliances if player is None or player in p]
    events.extend(AllianceBroken(first=a, second=b, reason=reason) for a, b in broken)
    return state.with_alliances(p for p in state.alliances if p not in broken)


def reveal_target(
    state: VeneerState, learner: str, about: str, rng: random.Random, events: list[Event]
) -> VeneerState:
    targets = state.seat(about).targets
    if targets:
        secret = f"{about} has {rng.choice(sorted(targets))} as a target"
        events.append(SecretLearned(player=learner, secret=secret, audience=frozenset({learner})))
    return state


def apply_card(
    state: VeneerState,
    card: Card,
    *,
    player: str,
    target: str | None,
    rng: random.Random,
    events: list[Event],
) -> VeneerState:
    """A passed motion (``player`` is the active player, everyone is affected) or a played action."""
    why = f"{card.kind} {card.name}"
    everyone = card.kind == "motion"
    victim = target or player
    affected = state.living if everyone else (player,)
    if card.effect == "repeal":
        return repeal_all(state, why, events)
    if card.effect == "break_alliances":
        return break_alliances(state, None if everyone else victim, why, events)
    if card.effect == "forced_attack":
        return dataclasses.replace(state, forced=True)
    if card.effect == "reveal_target":
        return reveal_target(state, player, victim, rng, events)
    if card.effect == "coins":
        for name in affected:
            state = add_coins(state, name, card.amount, why, events)
    elif card.effect == "free_troops":
        for name in affected:
            state = add_defenders(state, name, card.amount, why, events)
    elif card.effect == "destroy_troops":
        for name in state.living if everyone else (victim,):
            state = destroy_troops(state, name, card.amount, why, events)
    elif card.effect == "burn":
        state = add_coins(state, victim, -card.amount, why, events)
    elif card.effect == "steal":
        taken = min(card.amount, state.seat(victim).coins)
        state = add_coins(state, victim, -taken, why, events)
        state = add_coins(state, player, taken, why, events)
    return state


def eliminate_broke(state: VeneerState, events: list[Event]) -> VeneerState:
    """Players at zero coins lose: their troops and hand are gone, their alliances and offers end."""
    for name in [s.name for s in state.seats if s.alive and s.coins <= 0]:
        seat = state.seat(name)
        events.append(PlayerEliminated(player=name))
        state = break_alliances(state, name, f"{name} was eliminated", events)
        state = state.with_seat(name, alive=False, attackers=0, defenders=0, hand=())
        offers = tuple(o for o in state.offers if name not in (o.sender, o.receiver))
        state = dataclasses.replace(state, discard=state.discard + seat.hand, offers=offers)
    return state
