"""The turn as a table: each stage, who acts in it, the orders it takes, and what follows.

``awaiting`` reads the table against the state: exactly the players with a choice to make now. A
stage where nobody has a choice is run by ``resolve`` without waiting (START always is). Besides,
``card_holders`` may write ``play CARD`` in any stage that waits (an action is played "at any time").
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Phase
from engine.veneer._effects import law_in_force, troop_price, veto_price
from engine.veneer._state import VeneerState


@dataclass(frozen=True)
class Stage:
    name: str
    who: str
    orders: tuple[str, ...]
    then: str


STAGES: tuple[Stage, ...] = (
    Stage("setup", "every player: choose one of the three factions dealt", ("choose",), "start"),
    Stage(
        "start", "nobody: income, then the top card is flipped", (), "vote (law or motion) or muster (action)"
    ),
    Stage("vote", "every living player: yes or no on the flipped card", ("vote", "play", "ally"), "muster"),
    Stage(
        "muster",
        "the active player: buy, reassign, play actions, declare attacks",
        ("buy", "reassign", "play", "attack"),
        "response",
    ),
    Stage(
        "response",
        "the attacker's allies (veto), the attacked (intercept) and their allies (lend)",
        ("veto", "intercept", "lend", "play", "ally"),
        "combat",
    ),
    Stage(
        "combat", "an attacked player who cannot repay two or more lenders in full", ("return", "play"), "end"
    ),
    Stage(
        "end",
        "the active player (buy troops, form or break alliances) and players offered an alliance",
        ("buy", "play", "ally", "break"),
        "start of the next living player's turn",
    ),
)
TABLE = {s.name: s for s in STAGES}
LABELS = {
    "setup": "faction choice",
    "start": "start",
    "vote": "vote on {card}",
    "muster": "muster and attacks",
    "response": "vetoes and defence",
    "combat": "return of lent defenders",
    "end": "purchases and alliances",
}


def phase_of(state: VeneerState) -> Phase:
    if state.finished:
        return Phase("finished", "finished", state.turn, "Finished")
    if state.stage == "setup":
        return Phase("setup", "setup", 0, "Faction choice")
    label = LABELS[state.stage].format(card=state.flipped)
    return Phase(
        f"t{state.turn}-{state.stage}",
        state.stage,
        state.turn,
        f"Turn {state.turn} ({state.active}): {label}",
    )


def awaiting(state: VeneerState) -> frozenset[str]:
    stage = state.stage
    if stage == "setup":
        return frozenset(s.name for s in state.seats if not s.faction)
    if stage == "vote":
        return frozenset(state.living)
    if stage == "muster":
        active = state.active
        return frozenset({active}) if state.seat(active).alive and _can_muster(state, active) else frozenset()
    if stage == "response":
        return _responders(state)
    if stage == "combat":
        return frozenset(d.debtor for d in state.debts)
    if stage == "end":
        offered = {o.receiver for o in state.offers}  # may accept until the offer lapses
        return frozenset(({state.active} | offered) & set(state.living))
    return frozenset()


PLAYABLE = ("vote", "muster", "response", "combat", "end")  # every stage that may wait


def card_holders(state: VeneerState) -> frozenset[str]:
    """Living players with an action card in front of them: they may play it in any stage."""
    if state.stage not in PLAYABLE:
        return frozenset()
    return frozenset(s.name for s in state.seats if s.alive and s.hand)


def _can_muster(state: VeneerState, player: str) -> bool:
    seat = state.seat(player)
    return seat.troops > 0 or seat.hand != () or seat.coins > troop_price(state, player)


def _responders(state: VeneerState) -> frozenset[str]:
    who: set[str] = set()
    vetoes = not law_in_force(state, "no_vetoes")
    for attack in state.attacks:
        if vetoes:
            who |= {
                a
                for a in state.allies(attack.attacker)
                if a != attack.target and state.seat(a).coins > veto_price(state, a)
            }
        target = state.seat(attack.target)
        if target.hand:
            who.add(attack.target)  # no defenders perhaps, but a card it may play
        if state.allied(attack.attacker, attack.target):
            continue  # its defenders are ignored: nothing to intercept with or lend
        if target.defenders:
            who.add(attack.target)
        who |= {a for a in state.allies(attack.target) if a != attack.attacker and state.seat(a).defenders}
    return frozenset(who)
