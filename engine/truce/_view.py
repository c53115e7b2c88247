"""What players see between rounds: the winner, the public ledger, the order form."""

from __future__ import annotations

import itertools
from typing import Any

from engine.core import Outcome
from engine.truce._state import Result, TruceState


def decide(state: TruceState) -> Outcome:
    """Most Supply wins; tie → most supporters in the final round; still tied → shared victory."""
    supporters = {r.player: r.supporters for r in state.last}

    def key(name: str) -> tuple[int, int]:
        return state.player(name).supply, supporters.get(name, 0)

    ordered = sorted(state.names, key=key, reverse=True)
    ranking = tuple(tuple(group) for _, group in itertools.groupby(ordered, key=key))
    winners = ranking[0]
    supply, backing = key(winners[0])
    coins = f"{supply} coin{'s' if supply != 1 else ''}"
    rivals = [p for p in ordered if state.player(p).supply == supply]
    if len(winners) > 1:
        reason = f"shared victory: {_and(winners)} tied on {coins} and {backing} supporters"
    elif len(rivals) > 1:
        reason = (
            f"{winners[0]} won: tied on {coins}, but had the most supporters ({backing}) in the final round"
        )
    else:
        reason = f"{winners[0]} won with {coins} in Supply"
    return Outcome(ranking=ranking, winners=winners, reason=reason)


def _and(names: tuple[str, ...]) -> str:
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]


def ledger_rows(state: TruceState) -> list[dict[str, Any]]:
    last = {r.player: r for r in state.last}
    return [
        {
            "Player": p.name,
            "Supply": p.supply,
            "Last action": describe(last[p.name]) if p.name in last else "",
            "Supporters": last[p.name].supporters if p.name in last else 0,
            "Stash": state.stash,
        }
        for p in state.players
    ]


def describe(result: Result) -> str:
    """Short: "attack Barney ✓", "loot +2", "defend", "loot → pass (no Supply)"."""
    text = f"{result.action} {result.target}" if result.target else result.action
    if not result.valid:
        return f"{text} → pass" if result.action != "pass" else text
    if result.succeeded is not None:
        text += " ✓" if result.succeeded else " ✗"
    if result.gained and result.action in ("attack", "loot"):
        text += f" +{result.gained}"
    return text


def order_form(state: TruceState, player: str) -> str:
    others = ", ".join(name for name in state.names if name != player)
    supply = state.player(player).supply
    return "\n".join(
        [
            f"# Your orders for round {state.round} of {state.rounds} (lines starting with # are ignored).",
            f"# You have {supply} coin{'s' if supply != 1 else ''} in Supply; the Stash holds {state.stash}.",
            "# One action: attack NAME | support NAME | defend | loot | pass",
            "# Gifts from your Supply, any number of lines: gift 2 to NAME",
            f"# Players: {others}",
            "",
        ]
    )
