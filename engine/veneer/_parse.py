"""Reading a player's orders: each line's syntax (``_orders``), then legality: which of them stand
against the state, checked in the order they take effect (plays, buys, reassignments, attacks...)
with a running budget of coins and troops."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from engine.core import LineError, Submission
from engine.veneer._effects import law_in_force, troop_price, veto_price
from engine.veneer._orders import ALL, RANK, Names, Order, is_blank, read_order
from engine.veneer._phases import TABLE, awaiting
from engine.veneer._state import VeneerState, counted

SINGLE = ("choose", "vote", "intercept")  # the last such line counts
NOT_ASKED = "nothing is asked of you in this phase; only “play CARD” is taken from you now"


@dataclass
class Budget:
    coins: int
    attackers: int
    defenders: int
    hand: list[str]
    committed: int = 0  # attackers sent against someone
    sent: int = 0  # defenders lent or intercepting
    targets: set[str] = field(default_factory=set)


def names_of(state: VeneerState) -> Names:
    return Names(
        players=state.spellings(),
        factions={c.name: c.name for c in state.deck.factions},
        cards={c.name: c.name for c in state.deck.of_kind("action")},
    )


def parse_orders(state: VeneerState, player: str, text: str) -> Submission:
    if player not in state.names:
        raise ValueError(f"{player!r} is not playing in this game of Veneer")
    names = names_of(state)
    read: list[tuple[str, Order]] = []
    errors: list[LineError] = []
    for line in text.splitlines():
        if is_blank(line):
            continue
        order = read_order(line, names)
        if isinstance(order, LineError):
            errors.append(order)
        else:
            read.append((line.strip(), order))
    accepted, refused = check_orders(state, player, [o for _, o in read])
    if not _asked(state, player):  # a card holder who is not asked: its lines other than plays
        refused += [(o, NOT_ASKED) for o in accepted if o.verb != "play"]
        accepted = [o for o in accepted if o.verb == "play"]
    lines = {id(o): line for line, o in read}
    errors += [LineError(lines[id(o)], why) for o, why in refused]
    notes = tuple(
        f"Only your last “{v}” line counts." for v in SINGLE if sum(o.verb == v for _, o in read) > 1
    )
    if not accepted and any(o.verb == "pass" for _, o in read):
        accepted = [Order("pass")]  # a valid empty order: read, and it stands (no default, no reminder)
    return Submission(player, tuple(str(o) for o in accepted), tuple(errors), notes)


def _asked(state: VeneerState, player: str) -> bool:
    """Whether all of the phase's orders are taken from ``player`` (else only plays, any time)."""
    return player in awaiting(state) or state.finished or not state.seat(player).alive


def check_orders(
    state: VeneerState, player: str, orders: Sequence[Order]
) -> tuple[list[Order], list[tuple[Order, str]]]:
    """The orders that stand (canonical, ``all`` counted out) and the refused ones with why."""
    seat = state.seat(player)
    budget = Budget(seat.coins, seat.attackers, seat.defenders, list(seat.hand))
    singles = {o.verb: o for o in orders if o.verb in SINGLE}
    accepted: list[Order] = []
    refused: list[tuple[Order, str]] = []
    for order in sorted(orders, key=lambda o: RANK[o.verb]):
        if order.verb in SINGLE and singles[order.verb] is not order:
            continue
        why = _refusal(state, player, order, budget)
        if why is None:
            accepted.append(_counted(order, budget))
            _spend(state, player, order, budget)
        else:
            refused.append((order, why))
    return [o for o in accepted if o.verb != "pass"], refused


def _counted(order: Order, budget: Budget) -> Order:
    return replace(order, count=budget.defenders - budget.sent) if order.count == ALL else order


def _refusal(state: VeneerState, player: str, order: Order, budget: Budget) -> str | None:
    stage = TABLE.get(state.stage)
    if state.finished:
        return "the game is over"
    if not state.seat(player).alive:
        return "you are out of the game"
    if order.verb == "pass":
        return None
    if state.stage == "end" and order.verb == "reassign":
        return (
            "troops are reassigned only in your muster; the end phase offers buying troops and "
            "forming or breaking alliances"
        )
    if state.stage == "muster" and order.verb == "ally":
        return "an alliance is offered or accepted in a vote, response or end phase, not in a muster"
    if stage is None or order.verb not in stage.orders:
        allowed = ", ".join(stage.orders) if stage else "none"
        return f"“{order.verb}” is not an order of this phase ({state.stage}: {allowed})"
    if order.verb in ("buy", "reassign", "attack") and player != state.active:
        return f"only {state.active}, whose turn it is, may {order.verb} now"
    if order.name == player and order.verb not in ("choose",):
        return f"you cannot {order.verb} yourself"
    if order.name and order.verb != "choose" and not state.seat(order.name).alive:
        return f"{order.name} is out of the game"
    if order.count == 0 and order.verb in ("buy", "reassign", "attack", "lend", "return"):
        return "the number must be at least 1"
    return CHECKS.get(order.verb, _fine)(state, player, order, budget)


def _fine(state: VeneerState, player: str, order: Order, budget: Budget) -> str | None:
    return None


def _choose(state: VeneerState, player: str, order: Order, budget: Budget) -> str | None:
    dealt = state.seat(player).dealt
    return None if order.name in dealt else f"you were dealt {', '.join(dealt)}"


def _buy(state: VeneerState, player: str, order: Order, budget: Budget) -> str | None:
    cost = order.count * troop_price(state, player)
    if cost < budget.coins:
        return None
    troops = "troop costs" if order.count == 1 else "troops cost"
    price = counted(cost, "coin")
    return f"{order.count} {troops} {price}; you have {budget.coins} and must keep one (or be out)"


def _reassign(state: VeneerState, player: str, order: Order, budget: Budget) -> str | None:
    if order.side == "attackers":
        spare, what = budget.defenders - budget.sent, "defender"
    else:
        spare, what = budget.attackers - budget.committed, "uncommitted attacker"
    return None if order.count <= spare else f"you have only {counted(spare, what)}"


def _attack(state: VeneerState, player: str, order: Order, budget: Budget) -> str | None:
    if law_in_force(state, "no_attacks"):
        return "a law in force forbids attacks"
    if order.name in budget.targets:
        return f"you already attack {order.name}; one attack per player"
    spare = budget.attackers - budget.committed
    return None if order.count <= spare else f"you have only {counted(spare, 'attacker')} free"


def _veto(state: VeneerState, player: str, order: Order, budget: Budget) -> str | None:
    attack = next((a for a in state.attacks if a.target == order.name), None)
    if attack is None or (order.side and order.side != attack.attacker):
        return f"nobody attacks {order.name} this turn"
    if law_in_force(state, "no_vetoes"):
        return "a law in force forbids vetoes"
    if not state.allied(player, attack.attacker):
        return f"only allies of {attack.attacker} may veto the attack"
    price = veto_price(state, player)
    if price < budget.coins:
        return None
    return f"a veto costs {counted(price, 'coin')}; you have {budget.coins} and must keep one (or be out)"


def _intercept(state: VeneerState, player: str, order: Order, budget: Budget) -> str | None:
    attack = next((a for a in state.attacks if a.target == player), None)
    if attack is None:
        return "nobody attacks you this turn"
    if state.allied(player, attack.attacker):
        return f"{attack.attacker} is your ally: your defenders are ignored"
    spare = budget.defenders - budget.sent
    return (
        None if order.count == ALL or order.count <= spare else f"you have only {counted(spare, 'defender')}"
    )


def _lend(state: VeneerState, player: str, order: Order, budget: Budget) -> str | None:
    attack = next((a for a in state.attacks if a.target == order.name), None)
    if attack is None:
        return f"nobody attacks {order.name} this turn"
    if not state.allied(player, order.name):
        return f"you may lend defenders only to an ally; {order.name} is not yours"
    if state.allied(order.name, attack.attacker):
        return f"{order.name}'s defenders are ignored: {attack.attacker} is their ally"
    spare = budget.defenders - budget.sent
    return None if order.count <= spare else f"you have only {counted(spare, 'defender')}"


def _return(state: VeneerState, player: str, order: Order, budget: Budget) -> str | None:
    debt = next((d for d in state.debts if d.debtor == player), None)
    lent = dict(debt.loans).get(order.name, 0) if debt else 0
    if not lent:
        return f"you owe no troops to {order.name}"
    return None if order.count <= lent else f"{order.name} lent you only {lent}"


def _play(state: VeneerState, player: str, order: Order, budget: Budget) -> str | None:
    if order.card not in budget.hand:
        return f"you have no {order.card} in your hand"
    card = state.deck.card(order.card)
    if card.targeted and not order.name:
        return f"say on whom: play {card.name} on NAME"
    if not card.targeted and order.name:
        return f"{card.name} is not played on a player"
    return None


def _ally(state: VeneerState, player: str, order: Order, budget: Budget) -> str | None:
    if state.allied(player, order.name):
        return f"you are already allied with {order.name}"
    offered = any(o.sender == order.name and o.receiver == player for o in state.offers)
    if offered or (state.stage == "end" and player == state.active):
        return None
    return f"{order.name} has offered you no alliance; offer one in your own end phase"


def _break(state: VeneerState, player: str, order: Order, budget: Budget) -> str | None:
    return None if state.allied(player, order.name) else f"you are not allied with {order.name}"


def _spend(state: VeneerState, player: str, order: Order, budget: Budget) -> None:
    verb = order.verb
    if verb == "buy":
        budget.coins -= order.count * troop_price(state, player)
        setattr(budget, order.side, getattr(budget, order.side) + order.count)
    elif verb == "reassign":
        moved = -order.count if order.side == "defenders" else order.count
        budget.attackers += moved
        budget.defenders -= moved
    elif verb == "attack":
        budget.committed += order.count
        budget.targets.add(order.name)
    elif verb == "veto":
        budget.coins -= veto_price(state, player)
    elif verb in ("lend", "intercept"):
        budget.sent += budget.defenders - budget.sent if order.count == ALL else order.count
    elif verb == "play":
        budget.hand.remove(order.card)
        card = state.deck.card(order.card)
        budget.coins += card.amount if card.effect == "coins" else 0
        budget.defenders += card.amount if card.effect == "free_troops" else 0


CHECKS = {
    "choose": _choose,
    "buy": _buy,
    "reassign": _reassign,
    "attack": _attack,
    "veto": _veto,
    "intercept": _intercept,
    "lend": _lend,
    "return": _return,
    "play": _play,
    "ally": _ally,
    "break": _break,
}
