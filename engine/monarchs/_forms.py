"""Court mode's order forms: each courtier learns its own loyalty and whether it may deliver; the
courtier holding a nation's map sees that map; a monarch sees who may carry its orders."""

from __future__ import annotations

from engine.monarchs._court import Court
from engine.monarchs._state import MonarchsState
from engine.monarchs._text import map_lines, order_form


def court_form(state: MonarchsState, court: Court, player: str) -> str:
    nation = state.nation_of(player)
    if nation is not None:
        return _monarch_form(state, court, nation)
    courtier = court.courtier(player)
    if courtier is None:
        return ""
    nation = courtier.serves
    secret = (
        f"and loyal to {nation.title()}"
        if courtier.loyal
        else f"but secretly loyal to {courtier.loyal_to.title()}: you are its spy"
    )
    lines = [f"# You are a courtier of {nation.title()}, {secret}. Tell nobody."]
    if court.pending:
        lines.append("# The last orders are in; the monarchs are naming the traitors.")
        return "\n".join(lines)
    barred = court.barred(nation)
    first = court.first.get(nation)
    if player in barred:
        lines.append(f"# You may not deliver {nation.title()}'s orders this turn: {barred[player]}.")
    elif first not in (None, player):
        lines.append(f"# {first} already delivered {nation.title()}'s orders this turn; the first stands.")
    else:
        lines.append(order_form(state.position, nation, turn=state.turn, turns=state.turns, show_map=False))
        lines.append(
            "# Add “map to NAME”: the courtier who receives the next map (not one barred this turn)."
        )
    lines.append(f"# May deliver this turn for {nation.title()}: {', '.join(court.eligible(nation))}.")
    if court.map_holder.get(nation) == player:
        lines.append(f"# {nation.title()}'s map, which you hold (hex, owner, regiments):")
        lines += map_lines(state.position, nation)
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
    else:
        carriers = ", ".join(court.eligible(nation))
        lines.append(f"# Your orders for turn {state.turn} reach Courier only by one of: {carriers}.")
    return "\n".join(lines)
