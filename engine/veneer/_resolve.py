"""Resolving a stage, then every following stage nobody has a choice in, until someone must act.

One short handler per stage, reading like the seed's turn: START (income, flip), VOTE, MUSTER,
RESPONSE and COMBAT, END (purchases, alliances), then the next living player's START.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence

from engine.core import Event, LineError, Submission
from engine.veneer._alliances import settle_alliances
from engine.veneer._combat import Responses, repay, resolve_attacks, split_returns
from engine.veneer._effects import (
    apply_card,
    eliminate_broke,
    has_ability,
    income,
    law_in_force,
    must_attack,
    reveal_target,
    troop_price,
    votes_of,
)
from engine.veneer._events import (
    ActionDrawn,
    AttackDeclared,
    BallotCounted,
    CardFlipped,
    CardPlayed,
    DeckReshuffled,
    FactionChosen,
    GameWon,
    IncomeCollected,
    LawEnacted,
    LawRepealed,
    MotionCarried,
    OrderRefused,
    SecretLearned,
    TargetsDealt,
    TroopsBought,
    TroopsReassigned,
    TurnBegan,
)
from engine.veneer._orders import Order, read_order
from engine.veneer._parse import check_orders, names_of
from engine.veneer._phases import awaiting, card_holders
from engine.veneer._state import Attack, VeneerState, alphabetical

Orders = Mapping[str, Sequence[Order]]
Handler = Callable[[VeneerState, Orders, random.Random, list[Event]], VeneerState]


def resolve_stage(
    state: VeneerState, submissions: Mapping[str, Submission], rng: random.Random
) -> tuple[VeneerState, list[Event]]:
    """The current stage with the players' orders (absent players get the default; card holders
    who were not asked count only with their plays), then every stage that nobody has a choice in."""
    if state.finished:
        raise ValueError("the game is over; there is nothing to resolve")
    events: list[Event] = []
    asked = awaiting(state)
    players = asked | (card_holders(state) & submissions.keys())
    orders = {p: _orders(state, p, submissions.get(p), asked=p in asked) for p in sorted(players)}
    state = _step(state, orders, rng, events)
    while not state.finished and not awaiting(state):
        state = _step(state, {}, rng, events)
    return state, events


def default_orders(state: VeneerState, player: str) -> list[Order]:
    """Vote no, buy and declare nothing, veto nothing, send all defenders to intercept, choose the
    first faction dealt, repay lenders in seating order."""
    if state.stage == "setup":
        return [Order("choose", name=state.seat(player).dealt[0])]
    if state.stage == "vote":
        return [Order("vote", yes=False)]
    return []


def _orders(state: VeneerState, player: str, submission: Submission | None, *, asked: bool) -> list[Order]:
    if submission is None:
        return default_orders(state, player)
    names = names_of(state)
    read = [read_order(line, names) for line in submission.orders]
    return [o for o in read if not isinstance(o, LineError) and (asked or o.verb == "play")]


def _step(state: VeneerState, orders: Orders, rng: random.Random, events: list[Event]) -> VeneerState:
    state = HANDLERS[state.stage](state, orders, rng, events)
    return check_victory(state, events)


# --- the stages ------------------------------------------------------------------------------------


def _setup(state: VeneerState, orders: Orders, rng: random.Random, events: list[Event]) -> VeneerState:
    for seat in state.seats:
        events.append(
            TargetsDealt(
                player=seat.name, targets=alphabetical(seat.targets), audience=frozenset({seat.name})
            )
        )
        if not seat.faction:
            chosen = _last(orders.get(seat.name, ()), "choose") or default_orders(state, seat.name)[0]
            state = state.with_seat(seat.name, faction=chosen.name)
    for seat in state.seats:
        card = state.deck.card(seat.faction)
        events.append(FactionChosen(player=seat.name, faction=card.name, text=card.text))
        if card.effect == "reveal_target":
            others = [n for n in state.names if n != seat.name]
            state = reveal_target(state, seat.name, rng.choice(others), rng, events)
        if card.effect in ("coins", "free_troops"):  # once, as the faction is chosen
            state = apply_card(state, card, player=seat.name, target=None, rng=rng, events=events)
    return _begin_turn(state, state.names[0], 1, events)


def _start(state: VeneerState, orders: Orders, rng: random.Random, events: list[Event]) -> VeneerState:
    active = state.active
    gained = income(state, active)
    allies = state.allies(active)
    state = state.with_seat(active, coins=state.seat(active).coins + gained)
    for ally in allies:
        state = state.with_seat(ally, coins=state.seat(ally).coins + 1)
    events.append(IncomeCollected(player=active, coins=gained, allies=allies))
    state = _refill(state, rng, events)
    if not state.pile:
        return dataclasses.replace(state, stage="muster")
    card = state.deck.card(state.pile[0])
    state = dataclasses.replace(state, pile=state.pile[1:])
    if has_ability(state, active, "peek") and state.pile:
        secret = f"the next card of the deck is {state.pile[0]}"
        events.append(SecretLearned(player=active, secret=secret, audience=frozenset({active})))
    if card.kind == "action":  # placed in front of the player, face up: public
        events.append(ActionDrawn(player=active, card=card.name, text=card.text))
        return dataclasses.replace(
            state.with_seat(active, hand=(*state.seat(active).hand, card.name)), stage="muster"
        )
    events.append(CardFlipped(player=active, card=card.name, kind=card.kind, text=card.text))
    return dataclasses.replace(state, stage="vote", flipped=card.name)


def _vote(state: VeneerState, orders: Orders, rng: random.Random, events: list[Event]) -> VeneerState:
    state = _play_actions(state, orders, rng, events)
    card = state.deck.card(state.flipped)
    ballots = {p: _last(orders.get(p, ()), "vote") or Order("vote") for p in state.living}
    yes = [p for p, b in ballots.items() if b.yes]
    no = [p for p, b in ballots.items() if not b.yes]
    ayes, nays = sum(votes_of(state, p) for p in yes), sum(votes_of(state, p) for p in no)
    secret = law_in_force(state, "secret_ballot")
    passed = ayes > nays  # a tie fails
    events.append(
        BallotCounted(
            card=card.name,
            passed=passed,
            yes=ayes,
            no=nays,
            secret=secret,
            yes_voters=() if secret else tuple(yes),
            no_voters=() if secret else tuple(no),
        )
    )
    state = dataclasses.replace(state, flipped="")
    if passed and card.kind == "law":
        events.extend(LawRepealed(law=law, reason=f"the newer law {card.name} passed") for law in state.laws)
        events.append(LawEnacted(law=card.name, text=card.text))
        state = dataclasses.replace(state, laws=(card.name,), discard=state.discard + state.laws)
    else:
        state = dataclasses.replace(state, discard=(*state.discard, card.name))
    if passed and card.kind == "motion":
        events.append(MotionCarried(motion=card.name, text=card.text))
        state = apply_card(state, card, player=state.active, target=None, rng=rng, events=events)
    state = settle_alliances(state, orders, events)
    return dataclasses.replace(eliminate_broke(state, events), stage="muster")


def _muster(state: VeneerState, orders: Orders, rng: random.Random, events: list[Event]) -> VeneerState:
    active = state.active
    state = _play_actions(state, orders, rng, events)
    if not state.seat(active).alive:
        return _next_turn(state, events)
    rest = _checked(state, active, orders.get(active, ()), events)
    state = _buy_and_reassign(state, active, rest, events)
    attacks = [Attack(active, o.name, o.count) for o in rest if o.verb == "attack"]
    forced = not attacks and must_attack(state) and not law_in_force(state, "no_attacks")
    if forced:  # only the attack the rule makes for a player who declared none is "forced"
        state, attacks = _forced_attack(state, active)
    for attack in attacks:
        events.append(
            AttackDeclared(attacker=active, target=attack.target, attackers=attack.attackers, forced=forced)
        )
    state = eliminate_broke(state, events)
    return dataclasses.replace(state, attacks=tuple(attacks), stage="response" if attacks else "end")


def _response(state: VeneerState, orders: Orders, rng: random.Random, events: list[Event]) -> VeneerState:
    state = _play_actions(state, orders, rng, events)
    responses = Responses()
    for player in state.names:
        for order in _checked(state, player, orders.get(player, ()), events):
            if order.verb == "veto":
                responses.vetoes.setdefault(order.name, []).append(player)
            elif order.verb == "lend":
                responses.lends.setdefault(order.name, []).append((player, order.count))
            elif order.verb == "intercept":
                responses.intercept[player] = order.count
    state = settle_alliances(state, orders, events)
    state = eliminate_broke(resolve_attacks(state, responses, events), events)
    debts = tuple(d for d in state.debts if state.seat(d.debtor).alive)
    return dataclasses.replace(state, debts=debts, stage="combat" if debts else "end")


def _combat(state: VeneerState, orders: Orders, rng: random.Random, events: list[Event]) -> VeneerState:
    state = _play_actions(state, orders, rng, events)
    for debt in state.debts:
        chosen = {o.name: o.count for o in _checked(state, debt.debtor, orders.get(debt.debtor, ()), events)}
        available = state.seat(debt.debtor).troops
        state = repay(state, debt.debtor, debt.loans, split_returns(debt.loans, available, chosen), events)
    return dataclasses.replace(state, debts=(), stage="end")


def _end(state: VeneerState, orders: Orders, rng: random.Random, events: list[Event]) -> VeneerState:
    active = state.active
    state = _play_actions(state, orders, rng, events)
    if state.seat(active).alive:
        rest = _checked(state, active, orders.get(active, ()), events)
        state = _buy_and_reassign(state, active, rest, events)
        state = settle_alliances(state, orders, events)
        state = eliminate_broke(state, events)
    lapsed = [o for o in state.offers if o.turn < state.turn and active in (o.sender, o.receiver)]
    state = dataclasses.replace(state, offers=tuple(o for o in state.offers if o not in lapsed))
    return _next_turn(state, events)


HANDLERS: dict[str, Handler] = {
    "setup": _setup,
    "start": _start,
    "vote": _vote,
    "muster": _muster,
    "response": _response,
    "combat": _combat,
    "end": _end,
}


# --- helpers -----------------------------------------------------------------------------------------


def _last(orders: Sequence[Order], verb: str) -> Order | None:
    found = [o for o in orders if o.verb == verb]
    return found[-1] if found else None


def _checked(state: VeneerState, player: str, orders: Sequence[Order], events: list[Event]) -> list[Order]:
    """Orders other than plays, checked again against the state as it now stands."""
    rest = [o for o in orders if o.verb != "play"]
    if not state.seat(player).alive:
        return []
    accepted, refused = check_orders(state, player, rest)
    for order, why in refused:
        events.append(OrderRefused(player=player, order=str(order), reason=why, audience=frozenset({player})))
    return accepted


def _play_actions(state: VeneerState, orders: Orders, rng: random.Random, events: list[Event]) -> VeneerState:
    for player in state.names:
        for order in orders.get(player, ()):
            if order.verb != "play":
                continue
            seat = state.seat(player)
            why = _unplayable(state, player, order)
            if why:
                events.append(
                    OrderRefused(player=player, order=str(order), reason=why, audience=frozenset({player}))
                )
                continue
            hand = list(seat.hand)
            hand.remove(order.card)
            card = state.deck.card(order.card)
            state = dataclasses.replace(
                state.with_seat(player, hand=tuple(hand)), discard=(*state.discard, card.name)
            )
            events.append(
                CardPlayed(player=player, card=card.name, target=order.name or None, text=card.text)
            )
            state = apply_card(state, card, player=player, target=order.name or None, rng=rng, events=events)
    return eliminate_broke(state, events)


def _unplayable(state: VeneerState, player: str, order: Order) -> str | None:
    if not state.seat(player).alive:
        return "you are out of the game"
    if order.card not in state.seat(player).hand:
        return f"you have no {order.card} in your hand"
    if order.name and not state.seat(order.name).alive:
        return f"{order.name} is out of the game"
    return None


def _buy_and_reassign(
    state: VeneerState, player: str, orders: Sequence[Order], events: list[Event]
) -> VeneerState:
    for order in orders:
        seat = state.seat(player)
        if order.verb == "buy":
            cost = order.count * troop_price(state, player)
            state = state.with_seat(
                player, coins=seat.coins - cost, **{order.side: getattr(seat, order.side) + order.count}
            )
            events.append(TroopsBought(player=player, count=order.count, side=order.side, cost=cost))
        elif order.verb == "reassign":
            moved = order.count if order.side == "attackers" else -order.count
            state = state.with_seat(
                player, attackers=seat.attackers + moved, defenders=seat.defenders - moved
            )
            events.append(TroopsReassigned(player=player, count=order.count, side=order.side))
    return state


def _forced_attack(state: VeneerState, active: str) -> tuple[VeneerState, list[Attack]]:
    """A forced player turns a defender into an attacker if it has none, and attacks the next
    living player in seating order with one attacker."""
    seat = state.seat(active)
    if seat.attackers == 0 and seat.defenders:
        state = state.with_seat(active, attackers=1, defenders=seat.defenders - 1)
    if state.seat(active).attackers == 0:
        return state, []
    names = state.names
    start = names.index(active)
    victim = next(n for n in names[start + 1 :] + names[:start] if state.seat(n).alive)
    return state, [Attack(active, victim, 1)]


def _refill(state: VeneerState, rng: random.Random, events: list[Event]) -> VeneerState:
    if state.pile or not state.discard:
        return state
    pile = list(state.discard)
    rng.shuffle(pile)
    events.append(DeckReshuffled(cards=len(pile)))
    return dataclasses.replace(state, pile=tuple(pile), discard=())


def _begin_turn(state: VeneerState, player: str, turn: int, events: list[Event]) -> VeneerState:
    events.append(TurnBegan(turn=turn, player=player))
    return dataclasses.replace(
        state, active=player, turn=turn, stage="start", forced=False, attacks=(), debts=()
    )


def _next_turn(state: VeneerState, events: list[Event]) -> VeneerState:
    names = state.names
    start = names.index(state.active)
    following = [n for n in names[start + 1 :] + names[: start + 1] if state.seat(n).alive]
    if not following:
        return state
    return _begin_turn(state, following[0], state.turn + 1, events)


def check_victory(state: VeneerState, events: list[Event]) -> VeneerState:
    """Both targets out → win. Several at once: the active player wins if among them, else a draw.
    The last player standing wins too."""
    if state.finished:
        return state
    living = state.living
    winners = tuple(p for p in living if not any(state.seat(t).alive for t in state.seat(p).targets))
    if winners and len(winners) > 1 and state.active in winners:
        winners, reason = (
            (state.active,),
            f"{state.active} and others completed their targets on {state.active}'s turn",
        )
    elif len(winners) > 1:
        reason = "several players completed their targets at once, none on their own turn: a draw"
    elif winners:
        reason = f"both of {winners[0]}'s targets were eliminated"
    elif len(living) <= 1:
        winners, reason = living, ("the last player standing" if living else "everyone was eliminated")
    else:
        return state
    events.append(GameWon(winners=winners, reason=reason))
    return dataclasses.replace(state, stage="finished", winners=winners, reason=reason)
