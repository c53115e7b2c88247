"""The top of a Veneer player's mail (issue 30): what the phase did to them in one line (coins,
attacks on or by them, a ballot), and what the open phase asks. It reads the events the player
may see and their own seat's coins, which the Ledger shows anyway; never a faction."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Event
from engine.veneer._events import (
    AllianceFormed,
    AttackResolved,
    BallotCounted,
    CoinsChanged,
    OrderRefused,
    PlayerEliminated,
)
from engine.veneer._state import VeneerState

__all__ = ["asked", "headline"]


def headline(state: VeneerState, events: Sequence[Event], viewer: str) -> str | None:
    """ "You have 7 coins (+2); Ben's attack on you destroyed 1 coin; Austerity passed 3–2" (one
    sentence: only its first word has a capital)."""
    if viewer not in state.names:
        return None
    if any(isinstance(e, PlayerEliminated) and e.player == viewer for e in events):
        return "You are out of the game"
    change = sum(e.change for e in events if isinstance(e, CoinsChanged) and e.player == viewer)
    coins = state.seat(viewer).coins
    parts = [f"You have {_count(coins, 'coin')}" + (f" ({change:+d})" if change else "")]
    for e in events:
        if isinstance(e, AttackResolved) and viewer in (e.attacker, e.target):
            whose = "your attack on " + e.target if e.attacker == viewer else f"{e.attacker}'s attack on you"
            parts.append(f"{whose} destroyed {_count(e.coins_destroyed, 'coin')}")
        elif isinstance(e, AllianceFormed) and viewer in (e.first, e.second):
            parts.append(f"you are allied with {e.second if e.first == viewer else e.first}")
        elif isinstance(e, BallotCounted):
            parts.append(f"{e.card} {'passed' if e.passed else 'failed'} {e.yes}–{e.no}")
    refused = sum(1 for e in events if isinstance(e, OrderRefused) and e.player == viewer)
    if refused:
        parts.append(f"{_count(refused, 'order')} of yours refused")
    return "; ".join(parts)


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def asked(state: VeneerState, player: str) -> str | None:
    """ "Vote now: Disarmament", "Choose your faction", "Muster and attack", …"""
    match state.stage:
        case "setup":
            return "Choose your faction"
        case "vote":
            return f"Vote now: {state.flipped}"
        case "muster":
            return "Muster and attack"
        case "response":
            return "Vetoes and defence"
        case "combat":
            return "Return the defenders you were lent"
        case "end":
            return "Purchases and alliances" if player == state.active else "Answer the alliance offer"
    return None
