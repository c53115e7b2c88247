"""A simple, sensible Veneer player: takes the first faction dealt, votes for the cards flipped on
its own or an ally's turn, buys attackers and strikes a weakly defended target of its own, sends
every defender when attacked, lends one to an attacked ally, accepts alliance offers and buys a
defender when an enemy holds more attackers than it has defenders.

It decides from ``VeneerView``: its own seat (hand, targets, dealt factions) and what is public of
the others (coins, troops, factions, alliances, who is alive), never another player's hand or
targets."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.veneer._effects import troop_price
from engine.veneer._state import Attack, Seat, VeneerState


@dataclass(frozen=True)
class Public:
    name: str
    coins: int
    attackers: int
    defenders: int
    alive: bool


@dataclass(frozen=True)
class VeneerView:
    me: Seat
    others: tuple[Public, ...]
    stage: str
    active: str
    allies: tuple[str, ...]
    offers_to_me: tuple[str, ...]
    attacks: tuple[Attack, ...]
    price: int  # what a troop costs me (my faction, the law in force)
    ceasefire: bool


def view_of(state: VeneerState, player: str) -> VeneerView:
    seat = state.seat(player)
    return VeneerView(
        me=seat,
        others=tuple(
            Public(s.name, s.coins, s.attackers, s.defenders, s.alive)
            for s in state.seats
            if s.name != player
        ),
        stage=state.stage,
        active=state.active,
        allies=state.allies(player),
        offers_to_me=tuple(sorted({o.sender for o in state.offers if o.receiver == player})),
        attacks=state.attacks,
        price=troop_price(state, player),
        ceasefire="Ceasefire" in state.laws,
    )


def bot_orders(view: VeneerView, rng: random.Random) -> str:
    me = view.me
    if view.stage == "setup":
        return f"choose faction {me.dealt[0]}" if me.dealt else ""
    if view.stage == "vote":
        return "vote yes" if view.active in (me.name, *view.allies) else "vote no"
    if view.stage == "muster" and view.active == me.name:
        return "\n".join(_muster(view, rng))
    if view.stage == "response":
        return "\n".join(_response(view))
    if view.stage == "end":
        return "\n".join(_end(view))
    return ""


def _others(view: VeneerView) -> dict[str, Public]:
    return {p.name: p for p in view.others}


def _muster(view: VeneerView, rng: random.Random) -> list[str]:
    me, lines = view.me, []
    buy = max(0, (me.coins - 2) // view.price)  # keep a cushion: 0 coins is elimination
    if buy:
        lines.append(f"buy {buy} attacker{'s' if buy != 1 else ''}")
    attackers = me.attackers + buy
    others = _others(view)
    victims = [t for t in me.targets if t in others and others[t].alive]
    if attackers and victims and not view.ceasefire:
        victim = min(victims, key=lambda t: (others[t].defenders, others[t].coins, rng.random()))
        if attackers > 2 * others[victim].defenders or others[victim].coins <= attackers:
            lines.append(f"attack {victim} with {attackers}")
    return lines


def _response(view: VeneerView) -> list[str]:
    me, lines = view.me, []
    if any(a.target == me.name for a in view.attacks) and me.defenders:
        lines.append("intercept with all")
    for attack in view.attacks:
        if attack.target in view.allies and me.defenders > 1 and attack.attacker != me.name:
            lines.append(f"lend 1 defender to {attack.target}")
            break
    return lines


def _end(view: VeneerView) -> list[str]:
    me, lines = view.me, [f"ally with {name}" for name in view.offers_to_me]
    if view.active != me.name:
        return lines
    threat = max((p.attackers for p in view.others if p.alive and p.name not in view.allies), default=0)
    if threat > me.defenders and me.coins - view.price >= 2:
        lines.append("buy 1 defender")
    return lines
