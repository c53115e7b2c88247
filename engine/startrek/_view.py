"""What a player is shown besides the report: the order form for the phase (only to a player who may
send orders in it) and the welcome's word on their faction."""

from __future__ import annotations

from engine.diplomacy import DislodgedUnit, adjustment_due, retreat_options
from engine.startrek._combine import slot
from engine.startrek._events import FactionDealt
from engine.startrek._factions import ABILITIES, MAP
from engine.startrek._parse import unit_text
from engine.startrek._state import StarTrekState

ALLIANCES = (
    "# Alliance: `ally with <faction>`, secret, counts once they name you too;",
    "#   `ally openly with <faction>`: public once both say so; `break with <faction>`.",
)


def order_form(state: StarTrekState, player: str, label: str) -> list[str]:
    faction, position = state.factions[player], state.position
    kind = position.phase.kind
    lines = [f"# Orders for the {faction}, {label} (lines starting with # are ignored)."]
    # The lines on file stand in the form (issue 29): sent back with one line changed, it changes that one.
    filed = {slot(line): line for line in state.on_file.get(player, ())}
    if filed and state.held is None:
        lines.append("# Your orders on file: change the lines you want to change and send the form back.")
    if state.held is not None:
        lines.append("# Intelligence window: your orders given at the deadline stand; a line here")
        lines.append("# replaces the one for the same unit or ability. They were:")
        lines += [f"#   {line}" for line in (state.held.get(player) or ("(none: units hold)",))]
    elif kind == "movement":
        units = [unit_text(u) for u in position.units_of(faction)]
        lines += [filed.pop(unit, f"{unit} H") for unit in units]
        lines += filed.values()  # abilities and alliances given
        lines.append("# Move: ship <system> - <system>   Support: ship <system> S troop <system> - <system>")
        lines.append(f"# Your ability: {ability_now(state, faction)}")
    elif kind == "retreat":
        mine = [d for d in position.dislodged if d.unit.power == faction]
        lines += [filed.pop(unit_text(d.unit), "") or _retreat_line(state, d) for d in mine]
        lines += filed.values()
    else:
        due = adjustment_due(MAP, position, faction)
        lines.append(f"# {'Builds' if due > 0 else 'Disbands'} due: {abs(due)} (ship <home> B, waive)")
        lines += filed.values()
    return lines + list(ALLIANCES)


# The once-per-game abilities by the name ``StarTrekState.used`` keeps them under.
_ONCE = {"Federation": "immunity", "Romulan": "tal shiar", "Breen": "freeze"}


def ability_now(state: StarTrekState, faction: str) -> str:
    """The faction's ability as it stands: a once-per-game one already used is not offered again."""
    if _ONCE.get(faction) in state.used:
        return f"{ABILITIES[faction]}: used already, no longer available"
    if faction == "Ferengi":
        return f"{ABILITIES[faction]}; you have {state.latinum}"
    if faction == "Klingon":
        return f"{ABILITIES[faction]}: now {'on' if state.rage else 'off'}"
    return ABILITIES[faction]


def _retreat_line(state: StarTrekState, dislodged: DislodgedUnit) -> str:
    options = sorted(retreat_options(MAP, state.position, dislodged))
    unit = unit_text(dislodged.unit)
    if not options:
        return f"{unit} D   # no retreat is possible"
    return f"{unit} D   # or {unit} R <system>, one of: {', '.join(options)}"


def welcome(state: StarTrekState) -> list[FactionDealt]:
    """Each player's faction and ability, told to that player alone."""
    return [
        FactionDealt(faction=f, ability=ABILITIES[f], audience=frozenset({p}))
        for p, f in state.factions.items()
    ]
