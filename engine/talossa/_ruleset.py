"""Talossan RISK as a Courier game: conquerors mail Action Plans of up to ten actions; each step's
plans resolve action by action in the order they were submitted (recorded on receipt)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.core import (
    Event,
    Game,
    Outcome,
    Phase,
    Picture,
    Played,
    Resolution,
    Simulated,
    Submission,
    match_name,
    rank_by,
)
from engine.reading import Vocabulary, forgiving
from engine.request import read_request
from engine.talossa import _bot, _headline
from engine.talossa._actions import numbered
from engine.talossa._colours import choose_colour
from engine.talossa._events import ConquerorJoined, StartingLandAssigned
from engine.talossa._examples import form_help
from engine.talossa._json import answer_json, check_players, state_from_json, state_to_json
from engine.talossa._map import MapError, load_map, map_for
from engine.talossa._parse import VERBS, read_plan
from engine.talossa._plan import dice
from engine.talossa._random_plan import random_plan
from engine.talossa._resolve import dry_run, resolve_step
from engine.talossa._state import Arrival, Board, Country, TalossaState
from engine.talossa._svg import draw_map, step_shown

MIN_CONQUERORS = 4  # II.1
DRAWN = "No Action Plan came, so 6 random actions were drawn for you."
NO_PLAN = (
    "No action could be read in this mail, so it is not an Action Plan: unless a plan comes before "
    "the deadline, 6 random actions will be drawn for you (II.5)."
)
STANDS = "No action could be read in this mail, so your earlier plan still stands."


class Talossa(Game):
    name: ClassVar[str] = "talossa"
    title: ClassVar[str] = "Talossan RISK"
    option_keys: ClassVar[frozenset[str]] = frozenset({"map", "min_conquerors", "starting_units"})

    def check_option(self, option: str, value: Any) -> list[str]:
        """Problems with an organiser's map (`map_file` in the Config tab), one sentence each."""
        if option != "map" or not isinstance(value, Mapping):
            return []
        try:
            load_map(value)
        except MapError as e:
            return list(e.problems)
        return []

    # --- setup and joining ------------------------------------------------------------------------

    def setup(self, players: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> TalossaState:
        """Each player's Role is “Country name; colour; starting land” (any part may be left out)."""
        least = int(options.get("min_conquerors", MIN_CONQUERORS))
        if len(set(players)) != len(players) or len(players) < least:
            raise ValueError(
                f"Talossan RISK needs at least {least} conquerors with distinct names, got {list(players)}"
            )
        chosen = options.get("map", "talossa")  # a built-in map's name, or an organiser's map data
        custom = chosen if isinstance(chosen, Mapping) else None
        game_map = map_for(str(chosen), custom) if custom is None else map_for("", custom)
        state = TalossaState(
            map=game_map.name,
            step=1,
            countries=(),
            starting_units=int(options.get("starting_units", 1)),
            custom_map=custom,
        )
        roles = options.get("roles", {})
        for player in players:
            state, _ = self.join(state, player, str(roles.get(player, "")), rng)
        return state

    def join(
        self, state: TalossaState, player: str, role: str, rng: random.Random
    ) -> tuple[TalossaState, tuple[Event, ...]]:
        """A conqueror registers (II.1: until the last free land is conquered): country name,
        colour and starting land from ``role``; a taken or unknown land is replaced by a random
        free one, a colour the map does not know or too like another's by the first distinct one
        (the welcome says why). The new country's Force Stack is filled for the current step."""
        if state.finished or any(c.player == player for c in state.countries):
            raise ValueError(f"{player} cannot join: the game is over or they already play")
        board = Board(state)
        name, asked_colour, asked = ([p.strip() for p in role.split(";")] + ["", "", ""])[:3]
        land, refused, holder = _starting_land(board, asked, rng)
        colour, colour_reason, near = choose_colour(asked_colour, [c.colour for c in state.countries])
        arrival = Arrival(
            land=land,
            asked_land=refused,
            holder=holder,
            asked_colour=asked_colour if colour_reason else None,
            colour_reason=colour_reason,
            colour_holder=state.countries[near].player if near is not None else None,
        )
        country = Country(player=player, name=name or player, colour=colour, arrival=arrival)
        board.countries[player] = country
        board.set_land(land, owner=player, units=state.starting_units)
        board.set_country(player, stack=board.force_due(player))
        after = board.state(state)
        event = ConquerorJoined(
            player=player,
            country=country.name,
            colour=colour,
            land=board.label(land),
            asked=refused,
            holder=_name(board, holder),
        )
        return after, (event,)

    def opening_events(self, state: TalossaState) -> tuple[Event, ...]:
        """Each conqueror learns, privately, where it starts and why not where it asked (rulings)."""
        board = Board(state)
        return tuple(
            StartingLandAssigned(
                audience=frozenset({c.player}),
                player=c.player,
                country=c.name,
                colour=c.colour,
                land=board.label(c.arrival.land),
                # what the seat's first player asked is told to them alone, not to a substitute
                asked=None if c.leader else c.arrival.asked_land,
                holder=_name(board, c.arrival.holder),
                colour_asked=None if c.leader else c.arrival.asked_colour,
                colour_reason=c.arrival.colour_reason,
                colour_holder=_name(board, c.arrival.colour_holder),
            )
            for c in state.countries
            if c.arrival is not None
        )

    amendable_options: ClassVar[frozenset[str]] = frozenset({"holders"})

    def amend(self, state: TalossaState, option: str, value: Any) -> TalossaState:
        """``holders`` (seat → its holder's label, "Cyrus (for Cy Land)") changes when a substitute
        takes a seat: plans, falls and the winner name the country's leader by it from then on."""
        if option != "holders" or not isinstance(value, Mapping):
            raise ValueError(f"`{option}` is fixed when the game begins")
        countries = tuple(
            dataclasses.replace(c, leader=str(value[c.player])) if c.player in value else c
            for c in state.countries
        )
        return dataclasses.replace(state, countries=countries)

    # --- phases -------------------------------------------------------------------------------------

    def phase(self, state: TalossaState) -> Phase:
        if state.finished:
            return Phase("finished", "finished", state.step, "Finished")
        return Phase(f"step-{state.step}", "step", state.step, f"Step {state.step}")

    def awaiting(self, state: TalossaState) -> frozenset[str]:
        return frozenset() if state.finished else frozenset(state.alive)

    # --- plans --------------------------------------------------------------------------------------

    def vocabulary(self, state: TalossaState) -> Vocabulary:
        """The action words (``Q``, ``conquer``...) and every land's names and the players'."""
        players = [c.player for c in state.countries]
        verbs = [v for v in VERBS if len(v) > 1]
        signs = [*(v for v in VERBS if len(v) == 1), ">>", "->", "=>", "→"]
        names = [*Board(state).spellings(), *players]
        return Vocabulary.of(verbs, names, name_shape=r"\[.*", signs=signs)  # [Wellington]: a name given

    @forgiving
    def parse(self, state: TalossaState, player: str, text: str) -> Submission:
        actions, errors = read_plan(Board(state), text, player)
        notes = dry_run(state, player, actions) if actions else []
        if actions:
            earlier = [p for p in state.submitted if p != player]
            notes.append(
                f"Your plan is number {len(earlier) + 1} in submission order so far: its action k resolves "
                "after action k of the plans sent before it."
            )
        else:  # the receipt lists the earlier plan as standing: it must not announce random actions
            notes.append(STANDS if player in state.submitted else NO_PLAN)
        return Submission(player, numbered(actions), tuple(errors), tuple(notes))

    def immediate(
        self, state: TalossaState, submission: Submission
    ) -> tuple[TalossaState, tuple[Event, ...]]:
        """A plan takes its place in the submission order on receipt; a newer plan moves its
        author to the end (rulings: the time of the last accepted plan)."""
        if not submission.orders:
            return state, ()
        order = (*(p for p in state.submitted if p != submission.player), submission.player)
        return dataclasses.replace(state, submitted=order), ()

    def combine(self, earlier: Submission | None, later: Submission) -> Submission:
        """A plan is a whole: a new one replaces the old; a mail with no action leaves it standing."""
        if later.orders or earlier is None:
            return later
        notes = (*(n for n in later.notes if n not in (NO_PLAN, STANDS)), STANDS)
        return dataclasses.replace(earlier, errors=later.errors, notes=notes)

    def absent_default(self, state: TalossaState, player: str) -> str:
        return "6 random actions are drawn for you (II.5)"

    def default(self, state: TalossaState, player: str, rng: random.Random) -> Submission:
        return Submission(player, numbered(random_plan(state, player, rng)), notes=(DRAWN,))

    def resolve(
        self, state: TalossaState, submissions: Mapping[str, Submission], rng: random.Random
    ) -> Resolution:
        if state.finished:
            raise ValueError("the game is over; there is no step to resolve")
        board = Board(state)
        plans = {
            p: read_plan(board, "\n".join(s.orders))[0] for p, s in submissions.items() if p in state.alive
        }
        drawn = {p for p, s in submissions.items() if DRAWN in s.notes}
        for player in sorted(p for p, actions in plans.items() if not actions):
            # II.5: a mail without one readable action is no Action Plan (rulings: no plan → 6 random)
            plans[player] = random_plan(state, player, rng)
            drawn.add(player)
        after, events = resolve_step(state, plans, frozenset(drawn), dice(rng))
        return Resolution(after, tuple(events))

    def outcome(self, state: TalossaState) -> Outcome | None:
        if not state.finished:
            return None
        if state.winner is None:
            return Outcome((), (), "every country fell")
        others = tuple(c.player for c in state.countries if c.player != state.winner)
        country = state.country(state.winner).name
        return Outcome(
            ((state.winner,), others), (state.winner,), f"{country} holds every land that is not free"
        )

    def standings(self, state: TalossaState) -> Outcome:
        """Most lands first, then most units on them; a fallen country last."""
        board = Board(state)

        def holding(player: str) -> tuple[int, int]:
            lands = board.lands_of(player)
            return len(lands), sum(board.units(k) for k in lands)

        ranking = rank_by((c.player for c in state.countries), holding)
        leaders = ranking[0] if ranking else ()
        named = ", ".join(f"{state.country(p).name} ({state.country(p).leader or p})" for p in leaders)
        lands = holding(leaders[0])[0] if leaders else 0
        return Outcome(ranking, leaders, f"{named}: the most lands, {lands}")

    # --- the public view ------------------------------------------------------------------------

    def ledger(self, state: TalossaState) -> list[dict[str, Any]]:
        board = Board(state)
        rows = []
        for c in state.countries:
            lands = board.lands_of(c.player)
            rows.append(
                {
                    "Player": c.player,
                    "Country": c.name,
                    "Colour": c.colour,
                    "Lands": len(lands),
                    "Units": sum(board.units(k) for k in lands),
                    "Borderlands": len(board.borderlands(c.player)),
                    "Capital": board.label(c.capital) if c.capital else "",
                    "Strongholds": ", ".join(board.label(k) for k in lands if board.is_stronghold(k)),
                    "Force stack": c.stack,
                    "Status": "fallen" if c.fallen else ("won" if state.winner == c.player else "playing"),
                }
            )
        return rows

    def pictures(self, state: TalossaState, viewer: str | None) -> list[Picture]:
        """The map after the step just resolved; no fog, so every viewer (and None) gets the same."""
        shown = step_shown(state)
        name = state.game_map.title
        title = f"{name} after step {shown}" if shown else f"{name} at the start"
        return [Picture(f"map-step-{shown}", title, draw_map(state))]

    def headline(self, state: TalossaState, events: Sequence[Event], viewer: str) -> str | None:
        return _headline.headline(state, events, viewer)

    def asked(self, state: TalossaState, player: str) -> str | None:
        return _headline.asked(state, player)

    def order_template(self, state: TalossaState, player: str) -> str:
        board, country = Board(state), state.country(player)
        stack = f"{country.stack} unit{'s' if country.stack != 1 else ''}"
        lines = [f"# Action Plan for {country.name}, step {state.step}. Force Stack: {stack}."]
        for key in board.lands_of(player):
            marks = (
                " (capital)"
                if board.is_capital(key)
                else (" (stronghold)" if board.is_stronghold(key) else "")
            )
            free = [board.label(n) for n in board.map.neighbours(key) if board.owner(n) is None]
            nearby = ", ".join(free) or "none"
            units = f"{board.units(key)} unit{'s' if board.units(key) != 1 else ''}"
            lines.append(f"# {board.label(key)}: {units}{marks}; free next door: {nearby}")
        return "\n".join([*lines, *form_help(board, player)])

    # --- JSON ---------------------------------------------------------------------------------------

    def to_json(self, state: TalossaState) -> dict[str, Any]:
        return state_to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> TalossaState:
        return state_from_json(data)

    def read_request(self, request: Mapping[str, Any], seed: str) -> tuple[TalossaState, dict[str, str]]:
        state, texts = read_request(self, request, seed)
        check_players(state, texts)
        return state, texts

    def answer_json(self, played: Played) -> dict[str, Any]:
        return answer_json(self, played)

    simulated: ClassVar[Simulated] = Simulated(players=4, unit="step")

    view_of = staticmethod(_bot.view_of)
    bot_orders = staticmethod(_bot.bot_orders)


def _name(board: Board, player: str | None) -> str | None:
    return board.countries[player].name if player else None


def _starting_land(board: Board, asked: str, rng: random.Random) -> tuple[str, str | None, str | None]:
    """The land asked for when it is free; else a random free land, the land asked for as written
    and who held it (None when no land has that name)."""
    free = board.free_lands()
    if not free:
        raise ValueError("no free land is left, so no one can join any more")
    wanted, _ = match_name(asked, board.spellings()) if asked else (None, None)
    if wanted in free:
        return wanted, None, None
    holder = board.owner(wanted) if wanted is not None else None
    return rng.choice(free), asked or None, holder
