"""What players see between phases: the public ledger and each player's order form (which carries
that player's own secrets: targets, hand, dealt factions)."""

from __future__ import annotations

from typing import Any

from engine.core import Outcome
from engine.veneer._effects import must_attack, troop_price, veto_price
from engine.veneer._phases import awaiting, phase_of
from engine.veneer._state import VeneerState, alphabetical


def decide(state: VeneerState) -> Outcome | None:
    if not state.finished:
        return None
    rest = tuple(p for p in state.living if p not in state.winners)
    out = tuple(p for p in state.names if not state.seat(p).alive)
    ranking = tuple(g for g in (state.winners, rest, out) if g)
    return Outcome(ranking=ranking, winners=state.winners, reason=state.reason)


def ledger_rows(state: VeneerState) -> list[dict[str, Any]]:
    law = ", ".join(state.laws) or "none"
    turn = "finished" if state.finished else f"{state.turn} ({state.active})" if state.turn else "setup"
    return [
        {
            "Player": s.name,
            "Faction": s.faction,
            "Coins": s.coins,
            "Attackers": s.attackers,
            "Defenders": s.defenders,
            "Allies": ", ".join(state.allies(s.name)),
            "Status": _status(state, s.name),
            "Law in force": law,
            "Turn": turn,
        }
        for s in state.seats
    ]


def _status(state: VeneerState, name: str) -> str:
    if name in state.winners:
        return "won"
    return "playing" if state.seat(name).alive else "eliminated"


def order_form(state: VeneerState, player: str) -> str:
    seat = state.seat(player)
    lines = [f"# Veneer, {phase_of(state).label} (lines starting with # are ignored)."]
    lines += _secrets(state, player)
    if seat.alive and state.stage != "setup":
        price = troop_price(state, player)
        lines.append(
            f"# You have {seat.coins} coins, {seat.attackers} attackers, {seat.defenders} defenders; "
            f"a troop costs {price} coins."
        )
    if player not in awaiting(state):
        lines.append("# No orders are needed from you in this phase.")
    else:
        lines += FORMS[state.stage](state, player)
    return "\n".join([*lines, ""])


def _secrets(state: VeneerState, player: str) -> list[str]:
    seat = state.seat(player)
    lines = [f"# Only for you: your targets are {' and '.join(alphabetical(seat.targets))}."]
    if seat.hand:
        lines.append(f"# Your hand: {'; '.join(f'{c} ({state.deck.card(c).text})' for c in seat.hand)}")
    if seat.faction:
        lines.append(f"# Your faction: {seat.faction} — {state.deck.card(seat.faction).text}")
    return lines


def _setup(state: VeneerState, player: str) -> list[str]:
    lines = ["# Choose one of the factions dealt to you (default: the first):"]
    lines += [f"#   {f}: {state.deck.card(f).text}" for f in state.seat(player).dealt]
    return [*lines, f"choose faction {state.seat(player).dealt[0]}"]


def _vote(state: VeneerState, player: str) -> list[str]:
    card = state.deck.card(state.flipped)
    return [
        f"# The {card.kind} {card.name} is up for a vote: {card.text}",
        "# vote yes | vote no (default: no)",
        "vote no",
    ]


def _muster(state: VeneerState, player: str) -> list[str]:
    others = ", ".join(n for n in state.living if n != player)
    lines = [
        "# buy 2 attackers | buy 1 defender | reassign 1 to attackers | reassign 1 to defenders",
        f"# attack NAME with N   (one line per player attacked: {others})",
    ]
    if state.seat(player).hand:
        lines.append("# play CARD  or  play CARD on NAME")
    if must_attack(state):
        lines.append(
            "# You MUST attack this turn; without an attack line one attacker attacks the next player."
        )
    return lines


def _response(state: VeneerState, player: str) -> list[str]:
    lines = []
    for attack in state.attacks:
        if attack.target == player and not state.allied(player, attack.attacker):
            lines.append(
                f"# {attack.attacker} attacks you with {attack.attackers}: intercept with N (default: all)"
            )
        elif state.allied(player, attack.target) and attack.attacker != player:
            lines.append(
                f"# {attack.attacker} attacks your ally {attack.target}: lend N defenders to {attack.target}"
            )
        if state.allied(player, attack.attacker) and attack.target != player:
            price = veto_price(state, player)
            lines.append(
                f"# Your ally {attack.attacker} attacks {attack.target}: "
                f"veto {attack.attacker}'s attack on {attack.target} ({price} coins)"
            )
    return lines


def _combat(state: VeneerState, player: str) -> list[str]:
    debt = next(d for d in state.debts if d.debtor == player)
    owed = ", ".join(f"{lender} lent {n}" for lender, n in debt.loans)
    return [
        f"# You cannot return every lent defender ({owed}); you have {debt.available} troops.",
        "# return N defenders to NAME (the rest go back in seating order)",
    ]


def _end(state: VeneerState, player: str) -> list[str]:
    lines = []
    if player == state.active:
        lines += [
            "# buy 2 defenders | buy 1 attacker   (reassigning is for your muster)",
            "# ally with NAME (they accept by writing the same) | break alliance with NAME",
        ]
    lines += [
        f"# {o.sender} offers you an alliance: ally with {o.sender}"
        for o in state.offers
        if o.receiver == player
    ]
    return lines


FORMS = {
    "setup": _setup,
    "vote": _vote,
    "muster": _muster,
    "response": _response,
    "combat": _combat,
    "end": _end,
}
