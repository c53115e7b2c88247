"""What players see between phases: the public ledger and each player's order form (which carries
that player's own secrets: targets and dealt factions)."""

from __future__ import annotations

from typing import Any

from engine.core import Outcome
from engine.veneer._effects import must_attack, troop_price, veto_price
from engine.veneer._on_file import filed
from engine.veneer._phases import TABLE, awaiting, card_holders, phase_of
from engine.veneer._state import Attack, VeneerState, alphabetical, counted


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
            "Actions": ", ".join(s.hand),  # face up in front of the player
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
            f"# You have {counted(seat.coins, 'coin')}, {counted(seat.attackers, 'attacker')}, "
            f"{counted(seat.defenders, 'defender')}; a troop costs {counted(price, 'coin')}."
        )
    play = "play a card in front of you: play CARD  or  play CARD on NAME"
    if player in awaiting(state):
        lines += _standing(state, player, FORMS[state.stage](state, player))
        lines += _offers(state, player)
        lines += [f"# You may also {play}"] if player in card_holders(state) else []
    elif player in card_holders(state):
        lines += _standing(state, player, [f"# Nothing is asked of you in this phase, but you may {play}"])
    else:
        lines.append("# No orders are needed from you in this phase.")
    return "\n".join([*lines, ""])


def _standing(state: VeneerState, player: str, form: list[str]) -> list[str]:
    """The form with the player's orders on file in place of its defaults (issue 29: copied back,
    as the mail says, a form must not revert `vote yes` to `vote no`)."""
    on_file = filed(state, player)
    if not on_file:
        return form
    header = "# Your orders on file (a mail replaces them whole: send back every line to keep):"
    return [*(line for line in form if line.startswith("#")), header, *on_file]


def _secrets(state: VeneerState, player: str) -> list[str]:
    seat = state.seat(player)
    lines = [f"# Only for you: your targets are {' and '.join(alphabetical(seat.targets))}."]
    if seat.hand:
        cards = "; ".join(f"{c} ({state.deck.card(c).text})" for c in seat.hand)
        lines.append(f"# In front of you (public, play at any time): {cards}")
    if seat.faction:
        lines.append(f"# Your faction: {seat.faction} — {state.deck.card(seat.faction).text}")
    return lines


def _setup(state: VeneerState, player: str) -> list[str]:
    default = state.seat(player).dealt[0]
    lines = [f"# Choose one of the factions dealt to you (default: the first, the {default}):"]
    lines += [f"#   {f}: {state.deck.card(f).text}" for f in state.seat(player).dealt]
    return [*lines, f"choose faction {state.seat(player).dealt[0]}"]


def _vote(state: VeneerState, player: str) -> list[str]:
    card = state.deck.card(state.flipped)
    return [
        f"# The {card.kind} {card.name} is up for a vote: {card.text}",
        "# vote yes | vote no (default: no)",
        "vote no",
    ]


def _purchases(state: VeneerState, player: str, *, reassign: bool) -> list[str]:
    """The buys (and reassignments) this player can make now, never one it cannot: a troop costs
    ``troop_price`` and the last coin is never spent."""
    seat = state.seat(player)
    price = troop_price(state, player)
    most = (seat.coins - 1) // price
    offers = [f"buy {most} attackers" if most > 1 else "buy 1 attacker", "buy 1 defender"] if most else []
    if reassign:
        offers += [f"reassign {seat.defenders} to attackers"] if seat.defenders else []
        offers += [f"reassign {seat.attackers} to defenders"] if seat.attackers else []
    lines = (
        []
        if most
        else [f"# You cannot buy a troop now: it costs {counted(price, 'coin')} and you must keep 1."]
    )
    afford = f"   (you can afford {counted(most, 'troop')})" if most else ""
    return [*lines, "# " + " | ".join(offers) + afford] if offers else lines


def _muster(state: VeneerState, player: str) -> list[str]:
    others = ", ".join(n for n in state.living if n != player)
    lines = [
        *_purchases(state, player, reassign=True),
        f"# attack NAME with N   (one line per player attacked: {others})",
    ]
    if must_attack(state):
        lines.append(
            "# You MUST attack this turn; without an attack line one attacker attacks the next player."
        )
    return lines


def _response(state: VeneerState, player: str) -> list[str]:
    lines = []
    for attack in state.attacks:
        if attack.target == player:
            lines.append(_attacked(state, attack))
        elif state.allied(player, attack.target) and attack.attacker != player:
            lines.append(
                f"# {attack.attacker} attacks your ally {attack.target}: lend N defenders to {attack.target}"
            )
        if state.allied(player, attack.attacker) and attack.target != player:
            price = veto_price(state, player)
            lines.append(
                f"# Your ally {attack.attacker} attacks {attack.target}: "
                f"veto {attack.attacker}'s attack on {attack.target} ({counted(price, 'coin')})"
            )
    return lines


def _attacked(state: VeneerState, attack: Attack) -> str:
    attacks = f"# {attack.attacker} attacks you with {counted(attack.attackers, 'attacker')}"
    if state.allied(attack.attacker, attack.target):
        return f"{attacks}: as your ally, it ignores your defenders."
    if not state.seat(attack.target).defenders:
        return f"{attacks}; you have no defenders to intercept with."
    return f"{attacks}: intercept with N (default: all)"


def _combat(state: VeneerState, player: str) -> list[str]:
    debt = next(d for d in state.debts if d.debtor == player)
    owed = ", ".join(f"{lender} lent {n}" for lender, n in debt.loans)
    return [
        f"# You cannot return every lent defender ({owed}); you have {counted(debt.available, 'troop')}.",
        "# return N defenders to NAME (the rest go back in seating order)",
    ]


def _end(state: VeneerState, player: str) -> list[str]:
    if player != state.active:
        return []
    return [
        *_purchases(state, player, reassign=False),
        "# ally with NAME (they accept by writing the same) | break alliance with NAME",
    ]


def _offers(state: VeneerState, player: str) -> list[str]:
    """Pending offers, in the forms of the phases that take ``ally with`` (never muster's)."""
    if "ally" not in TABLE[state.stage].orders:
        return []
    return [
        f"# {o.sender} offers you an alliance: ally with {o.sender}"
        for o in state.offers
        if o.receiver == player
    ]


FORMS = {
    "setup": _setup,
    "vote": _vote,
    "muster": _muster,
    "response": _response,
    "combat": _combat,
    "end": _end,
}
