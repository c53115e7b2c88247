"""The order forms: a nation's, with the part of the map it may see, and court mode's. A courtier
learns its own loyalty, whether it may carry its nation's orders this turn (nothing about the
others), the map it holds, and the order form once its monarch names it the carrier; a monarch sees
who may carry its orders and whom it named. On turn 1 everybody sees the starting map of the nation
it serves (feigned, for a spy)."""

from __future__ import annotations

from engine.monarchs._board import HEXES
from engine.monarchs._court import Court
from engine.monarchs._orders import own_boost_hex
from engine.monarchs._position import Position
from engine.monarchs._state import MonarchsState


def map_lines(position: Position, nation: str) -> list[str]:
    """The hexes ``nation`` may see, row by row: ``E3 red 2``; nothing else."""
    visible = set(position.visible_to(nation))
    return [f"#   {position.describe(h)}" for h in HEXES if h in visible]


def order_form(position: Position, nation: str, *, turn: int, turns: int, show_map: bool) -> str:
    last = " (the last: it counts double)" if turn == turns else ""
    lines = [
        f"# Orders for {nation.title()}, turn {turn} of {turns}{last}. Lines starting with # are ignored.",
        "# One move a line: regiments, from, to — “5 C5 D4”, “5 units from C5 to D4”, “C5-D4 5”.",
        f"# One boost a turn: “boost {own_boost_hex(nation, position.armies) or 'HEX'}”; a mail with only"
        " a boost keeps the moves sent before.",
        "# Write “hold” to move nothing. A new mail with moves replaces the last.",
    ]
    if show_map:
        lines.append("# What you can see (hex, owner, regiments):")
        lines += map_lines(position, nation)
    return "\n".join(lines)


def court_form(state: MonarchsState, court: Court, player: str) -> str:
    nation = state.nation_of(player)
    if nation is not None:
        return _monarch_form(state, court, nation)
    courtier = court.courtier(player)
    if courtier is None:
        return ""
    if court.pending:
        return ""  # the last orders are in: a courtier has nothing to write, so no form (issue 29)
    nation = courtier.serves
    secret = (
        f"and loyal to {nation.title()}"
        if courtier.loyal
        else f"but secretly loyal to {courtier.loyal_to.title()}: you are its spy"
    )
    lines = [f"# You are a courtier of {nation.title()}, {secret}. Tell nobody."]
    if court.carrier.get(nation) == player:
        lines.append(f"# You carry {nation.title()}'s orders this turn: only your mail counts as its orders.")
        lines.append(order_form(state.position, nation, turn=state.turn, turns=state.turns, show_map=False))
        handed = court.handed.get(nation, ())
        if handed:
            lines.append("# Your monarch handed you these orders through Courier (only you see them):")
            lines += [f"#   {line}" for line in handed]
    elif player in court.eligible(nation):
        lines.append(
            f"# You may carry {nation.title()}'s orders this turn, if its monarch names you its carrier."
        )
    else:
        lines.append(f"# You may not carry {nation.title()}'s orders this turn.")
    if court.map_holder.get(nation) == player:
        lines.append(f"# {nation.title()}'s map, which you hold (hex, owner, regiments):")
        lines += map_lines(state.position, nation)
    elif state.turn == 1:
        lines += _starting_map(state, nation)
    return "\n".join(lines)


def _monarch_form(state: MonarchsState, court: Court, nation: str) -> str:
    names = ", ".join(c.name for c in court.of(nation))
    lines = [f"# You are the monarch of {nation.title()}. Your courtiers: {names}."]
    if court.pending:
        lines += [
            "# Name the two traitors in your court and whom each serves, one a line:",
            "#   Dora serves blue",
            "# Each right guess earns 5 points; each courtier you name has its score halved.",
        ]
        return "\n".join(lines)
    if state.turn == 1:
        lines += _starting_map(state, nation)
    barred = court.barred(nation)
    why = "".join(f"; not {name}: {reason}" for name, reason in barred.items())
    lines += [
        f"# Turn {state.turn} of {state.turns}: name your carrier and who receives the next map, privately:",
        "#   carrier NAME",
        "#   map to NAME",
        f"# Eligible this turn: {', '.join(court.eligible(nation))}{why}.",
        "# Only your carrier's mail counts as your orders (hand them over yourself, or through Courier:",
        "#   hand 5 A5 C5   — one a line; only your carrier sees them). No carrier, no orders.",
    ]
    chosen = [
        f"{k}{v}"
        for k, v in (("carrier ", court.carrier.get(nation)), ("map to ", court.map_to.get(nation)))
        if v
    ]
    if chosen:
        lines.append(f"# Named so far: {', '.join(chosen)}.")
    if court.handed.get(nation):
        lines.append(f"# Handed so far: {'; '.join(court.handed[nation])}.")
    return "\n".join(lines)


def _starting_map(state: MonarchsState, nation: str) -> list[str]:
    return [f"# {nation.title()}'s starting map (hex, owner, regiments):", *map_lines(state.position, nation)]
