"""Who gets which map. In the welcome, everybody the starting map of its nation (a courtier's: the
nation it serves openly). After a turn, board mode: each monarch its nation's fogged map; court
mode: only the courtier chosen to receive a nation's map gets it (fogged to what that nation sees).
The organiser, and everybody once the game is over, gets the whole map.

Over it the last turn: a nation's map shows that nation's moves and boost and the battles it fought
(each in its winner's colour: the loser was told who beat it); the organiser's shows every nation's.
The final map shows every battle (the notes under it name them all) but only the viewer's own
moves and boost: orders stay private. In court mode the courtier holding a nation's map sees its
battles only, not its orders."""

from __future__ import annotations

from engine.core import Picture
from engine.monarchs._board import NATIONS
from engine.monarchs._marks import Round, round_of
from engine.monarchs._state import MonarchsState, Recap
from engine.monarchs._svg import draw_map


def pictures(state: MonarchsState, viewer: str | None) -> list[Picture]:
    if state.court is not None and state.court.pending:
        return []  # the last turn waits for the guesses
    if not state.recap:
        return _starting(state, viewer) if state.turn == 1 else []
    turn = state.turn - 1
    if viewer is None or state.finished:
        title = f"Turn {turn}, the final map" if state.finished else f"Turn {turn}, all nations"
        notes = [line for n in NATIONS for line in _summary(state, n, turn)]
        shown = _whole_round(state, viewer)
        svg = draw_map(state.position, title=title, seen=None, notes=notes, shown=shown)
        return [Picture(f"map-turn-{turn}", title, svg)]
    nation = map_nation(state, viewer)
    if nation is None:
        return []
    title = f"Turn {turn}, {nation.title()}"
    svg = draw_map(
        state.position,
        title=title,
        seen=state.position.visible_to(nation),
        notes=_summary(state, nation, turn),
        shown=_nation_round(state, nation),
    )
    return [Picture(f"map-turn-{turn}-{nation}", title, svg)]


def _starting(state: MonarchsState, viewer: str | None) -> list[Picture]:
    """The welcome's map: the nation's view for its monarch, and in court mode for each courtier of
    the nation it serves openly; the organiser's shows the whole board."""
    if viewer is None:
        title = "The start, all nations"
        return [Picture("map-start", title, draw_map(state.position, title=title, seen=None, notes=[]))]
    courtier = state.court.courtier(viewer) if state.court is not None else None
    nation = courtier.serves if courtier is not None else state.nation_of(viewer)
    if nation is None:
        return []
    title = f"The start, {nation.title()}"
    svg = draw_map(state.position, title=title, seen=state.position.visible_to(nation), notes=[])
    return [Picture(f"map-start-{nation}", title, svg)]


def _recaps(state: MonarchsState) -> dict[str, Recap]:
    return {n: state.recap.get(n, Recap()) for n in NATIONS}


def _nation_round(state: MonarchsState, nation: str) -> Round:
    """A nation's map: its battles, and its moves and boost when its monarch reads the map. In
    court mode a courtier holds the map (perhaps a spy): it is told the battles, never the orders
    (only the carrier sees those)."""
    shown = round_of(_recaps(state), (nation,))
    return shown if state.court is None else Round(battles=shown.battles)


def _whole_round(state: MonarchsState, viewer: str | None) -> Round:
    """The organiser's marks: everything. The final map's for a player: every battle, and the
    moves and boost of the nation the player ruled, if any."""
    recaps = _recaps(state)
    if viewer is None:
        return round_of(recaps, NATIONS)
    every = round_of(recaps, NATIONS)
    nation = state.nation_of(viewer)
    own = round_of(recaps, (nation,)) if nation is not None else Round()
    return Round(moves=own.moves, boosts=own.boosts, battles=every.battles)


def map_nation(state: MonarchsState, viewer: str) -> str | None:
    """The nation whose map ``viewer`` receives this turn, if any."""
    if state.court is None:
        return state.nation_of(viewer)
    return next((n for n in NATIONS if state.court.map_holder.get(n) == viewer), None)


def _summary(state: MonarchsState, nation: str, turn: int) -> list[str]:
    recap = state.recap.get(nation, Recap())
    doubled = " (doubled: the last turn)" if turn == state.turns else ""
    return [
        f"{nation.title()} {_battles('won', recap.won)} and {_battles('lost', recap.lost)}.",
        f"{nation.title()} scored {recap.points} this turn{doubled}, {state.scores[nation]} in all.",
    ]


def _battles(verb: str, places: tuple[str, ...]) -> str:
    if not places:
        return f"{verb} no battle"
    noun = "battle" if len(places) == 1 else "battles"
    return f"{verb} the {noun} at {', '.join(places)}"
