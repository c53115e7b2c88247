"""Star Trek Diplomacy as a Courier game: seven factions (the Players tab's Role column, or a seeded
draw) send orders and ability lines by mail. A movement phase with the intelligence window on runs
in two steps: at the main deadline the informed factions get their intelligence and a window (phase
kind ``intelligence``) in which only they may amend; at its deadline the turn is adjudicated."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from engine.core import (
    Event,
    Game,
    LineError,
    Outcome,
    Phase,
    Picture,
    Played,
    Resolution,
    Simulated,
    Submission,
    one_role,
)
from engine.diplomacy import Support, adjustment_due, draw_among_survivors, order_vocabulary
from engine.reading import Vocabulary, forgiving
from engine.startrek import _bot, _headline
from engine.startrek._alliances import register_alliances
from engine.startrek._combine import combine_orders, replaced_notes
from engine.startrek._events import AllianceNoted, GornRolled, OrderResolved, PhaseBegun
from engine.startrek._factions import FACTIONS, MAP, VARIANT, faction_named, is_alive
from engine.startrek._json import answer_json
from engine.startrek._legality import illegal_notes
from engine.startrek._parse import Ability, display, read_lines, unit_text
from engine.startrek._resolve import (
    INTEL_KINDS,
    conclude,
    gather_intelligence,
    merged,
    play_turn,
    read_submission,
)
from engine.startrek._state import Options, StarTrekState, state_from_json, state_to_json
from engine.startrek._svg import pictures
from engine.startrek._turn import PRICED, PRICES, off_layer
from engine.startrek._view import order_form, welcome

INFORMED = ("Romulan", "Cardassian", "Ferengi")  # the factions whose abilities bring intelligence
_SEASON = {"spring": "Spring", "fall": "Fall", "winter": "Fall"}
_ONCE = {"immunity": "immunity", "tal shiar": "tal shiar", "freeze": "freeze"}
_OWNER = {
    "rage": "Klingon",
    "immunity": "Federation",
    "tal shiar": "Romulan",
    "bribe": "Ferengi",
    "sabotage": "Ferengi",
    "buy": "Ferengi",
    "freeze": "Breen",
}


class StarTrek(Game):
    name: ClassVar[str] = "startrek"
    title: ClassVar[str] = "Star Trek Diplomacy"
    option_keys: ClassVar[frozenset[str]] = frozenset(
        {"intelligence_window", "fog_of_war", "allied_victory_centres", "latinum_public"}
    )
    example_config: ClassVar[tuple[tuple[str, Any, str], ...]] = (
        ("fog_of_war", "no", "yes: each faction sees only the systems next to its units and centres."),
        ("intelligence_window", "yes", "no: intelligence arrives with the results, for information only."),
        ("intelligence_duration", "2h", "How long the intelligence window after a movement deadline lasts."),
        (
            "allied_victory_centres",
            24,
            "Centres a confirmed alliance needs together to win (0: no allied win).",
        ),
        ("latinum_public", "no", "yes: the Ferengi latinum is on the public ledger."),
    )
    # Config defaults the shell applies unless the organiser sets them: the window's own clock.
    default_config: ClassVar[dict[str, str]] = {"intelligence_duration": "2h"}

    def setup(self, players: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> StarTrekState:
        factions = _assign(players, options.get("roles", {}), rng)
        return StarTrekState(VARIANT.start(), factions, _options(options))

    def phase(self, state: StarTrekState) -> Phase:
        if state.result is not None:
            return Phase("finished", "finished", state.phases, "Finished")
        p = state.position.phase
        if state.held is not None:
            key = p.key[:-1] + "I"
            return Phase(
                key, "intelligence", state.phases, f"{_SEASON[p.season]} {p.year} intelligence window"
            )
        kind = {"movement": "", "retreat": " retreats", "adjustment": " builds"}[p.kind]
        return Phase(p.key, p.kind, state.phases, f"{_SEASON[p.season]} {p.year}{kind}")

    def awaiting(self, state: StarTrekState) -> frozenset[str]:
        if state.result is not None:
            return frozenset()
        if state.held is not None:  # everyone who might have been informed, so nobody learns who was
            return frozenset(
                p for p, f in state.factions.items() if f in INFORMED and is_alive(state.position, f)
            )
        return frozenset(p for p, f in state.factions.items() if _has_orders(state, f))

    def writers(self, state: StarTrekState) -> frozenset[str]:
        """Every living faction may write, units or not: a Ferengi with centres and latinum but no
        ship still bribes, sabotages and buys, and any faction allies in any phase. Only those with
        units to order are awaited; in a window only the informed may amend (``parse``)."""
        if state.result is not None or state.held is not None:
            return frozenset()
        return frozenset(p for p, f in state.factions.items() if is_alive(state.position, f))

    # --- orders -----------------------------------------------------------------------------------

    def vocabulary(self, state: StarTrekState) -> Vocabulary:
        abilities = (
            "rage",
            "immunity",
            "shiar",
            "bribe",
            "sabotage",
            "buy",
            "freeze",
            "ally",
            "alliance",
            "break",
        )
        units = ("ship", "ships", "troop", "troops", "t")
        return order_vocabulary(MAP, verbs=abilities, words=units, signs=["tal"])  # "tal shiar": one order

    @forgiving
    def parse(self, state: StarTrekState, player: str, text: str) -> Submission:
        faction = state.factions[player]
        position = state.position
        if state.held is not None and player not in state.informed:
            why = "you received no intelligence this turn: your orders given at the deadline stand"
            lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
            return Submission(player, errors=tuple(LineError(line, why) for line in lines[:1]))
        units = (
            [d.unit for d in position.dislodged] if position.phase.kind == "retreat" else list(position.units)
        )
        reading = read_lines(units, faction=faction, phase_kind=position.phase.kind, text=text)
        errors, notes = list(reading.errors), list(reading.notes)
        abilities = []
        problems = _ability_problems(state, faction, reading.abilities)
        for ability in reading.abilities:
            if ability in problems:
                errors.append(LineError(str(ability), problems[ability]))
            else:
                abilities.append(ability)
        notes += [
            f"{display(o)}: illegal, a unit supports only on its own layer; the unit will hold"
            for o in reading.orders
            if isinstance(o, Support) and off_layer(o)
        ]
        notes += illegal_notes(position, reading.orders)  # said now, not first in the results
        orders = tuple(display(o) for o in reading.orders) + tuple(str(a) for a in abilities)
        notes = replaced_notes(state.on_file.get(player, ()), orders) + notes
        return Submission(player, orders, tuple(errors), tuple(notes))

    def combine(self, earlier: Submission | None, later: Submission) -> Submission:
        if earlier is None:
            return later
        return replace(later, orders=combine_orders(earlier.orders, later.orders))

    def immediate(
        self, state: StarTrekState, submission: Submission
    ) -> tuple[StarTrekState, tuple[Event, ...]]:
        """A mail's lines go on file at once, so every form shows the orders that stand (a form sent
        back with one line changed changes that line alone). A window keeps its own (``held``)."""
        if state.held is not None or not submission.orders:
            return state, ()
        player = submission.player
        lines = combine_orders(state.on_file.get(player, ()), submission.orders)
        return replace(state, on_file={**state.on_file, player: lines}), ()

    def absent_default(self, state: StarTrekState, player: str) -> str:
        if state.held is not None:
            return "the orders given at the deadline stand"
        return {
            "movement": "your units hold",
            "retreat": "your dislodged units disband",
            "adjustment": "no unit is built, and a faction that must disband loses units",
        }[state.position.phase.kind]

    def default(self, state: StarTrekState, player: str, rng: random.Random) -> Submission:
        if state.held is not None:
            return Submission(player, notes=("No amendment came: the orders given at the deadline stand.",))
        return Submission(player, notes=("No orders came: units hold, dislodged units disband, no builds.",))

    # --- resolution -------------------------------------------------------------------------------

    def resolve(
        self, state: StarTrekState, submissions: Mapping[str, Submission], rng: random.Random
    ) -> Resolution:
        if state.result is not None:
            return Resolution(state, ())
        events: list[Event] = []
        before = state.position
        state = replace(state, on_file={})  # the phase's orders are the submissions now
        closing = state.held is not None
        if closing:  # the window closes: the deadline's orders, amended by the informed
            orders = merged(state, submissions)
            state = replace(state, held=None, informed=frozenset())
        else:
            orders = {p: s.orders for p, s in submissions.items()}
        readings = {p: read_submission(state, p, lines) for p, lines in orders.items()}
        if not closing and before.phase.kind == "movement":
            state = gather_intelligence(state, readings, events, window=state.options.window)
            if state.options.window:  # alliances too wait for the window to close: told to all then
                state = replace(state, held=orders, phases=state.phases + 1)
                events.append(_next(self.phase(state).label))
                return Resolution(state, tuple(events))
        state = register_alliances(state, readings, events)
        state = replace(play_turn(state, readings, rng, events), informed=frozenset())
        state = conclude(state, before, events)
        events.append(_next(self.phase(state).label))
        return Resolution(state, tuple(events))

    def outcome(self, state: StarTrekState) -> Outcome | None:
        return state.result

    def standings(self, state: StarTrekState) -> Outcome:
        """As Diplomacy: an organiser's end is a draw among the surviving factions, by centres."""
        return draw_among_survivors(state.factions, state.position)

    def ledger(self, state: StarTrekState) -> list[dict[str, Any]]:
        position = state.position
        rows = []
        for faction in FACTIONS:
            row: dict[str, Any] = {
                "Faction": faction,
                "Player": state.player_of(faction) or "(civil disorder)",
                "Centres": len(position.centres_of(faction)),
            }
            if not state.options.fog:
                row["Units"] = " ".join(unit_text(u) for u in position.units_of(faction))
            if faction == "Ferengi" and state.options.latinum_public:
                row["Latinum"] = state.latinum
            for record in state.history:
                row[str(record.year)] = record.centres.get(faction, 0)
            rows.append(row)
        return rows

    def headline(self, state: StarTrekState, events: Sequence[Event], viewer: str) -> str | None:
        return _headline.headline(state, events, viewer)

    def asked(self, state: StarTrekState, player: str) -> str | None:
        return _headline.asked(state, player)

    def order_template(self, state: StarTrekState, player: str) -> str:
        """The form to copy into a reply; none for a player who may send nothing in this phase."""
        if state.held is not None:
            may_write = player in state.informed
        else:  # a faction without units has abilities to use in a movement phase
            movement = state.position.phase.kind == "movement"
            may_write = player in self.awaiting(state) or (movement and player in self.writers(state))
        return "\n".join(order_form(state, player, self.phase(state).label)) if may_write else ""

    def standing(self, state: StarTrekState, player: str) -> Submission | None:
        """In an intelligence window, the orders given at the main deadline stand (the informed may
        amend them; the others' `status` shows them too)."""
        if state.held is None or player not in state.factions:
            return None
        return Submission(player, tuple(state.held.get(player, ())))

    def told(self, state: StarTrekState, events: Sequence[Event]) -> frozenset[str]:
        """A public alliance is told to every player, whoever else hears of the phase."""
        return frozenset(state.factions) if self.open_results(events) else frozenset()

    def open_results(self, events: Sequence[Event]) -> list[Event]:
        """History lists each public alliance, its confirmation and its end."""
        return [e for e in events if isinstance(e, AllianceNoted) and e.public]

    def organiser_events(self, events: Sequence[Event]) -> list[Event]:
        """Each order's and Gorn roll's line once, in full: under the fog of war (or where a
        reason tells of private spending) it is told again, vaguer, to the players who may not
        read it all, and the full line always comes first (``_fog.Sight.tell``)."""
        told: set[tuple[str, ...]] = set()
        kept = []
        for event in events:
            key = _retold_key(event)
            if key is None or key not in told:
                kept.append(event)
            if key is not None:
                told.add(key)
        return kept

    def reported_to(self, state: StarTrekState) -> frozenset[str] | None:
        """A window opens for the informed alone; every other phase is reported to all."""
        return frozenset(state.informed) if state.held is not None and state.result is None else None

    def window_opened(self, state: StarTrekState) -> tuple[str, str] | None:
        """The movement deadline only opens the intelligence window: nothing is resolved yet."""
        if state.held is None or state.result is not None:
            return None
        window = self.phase(state).label
        return (
            f"{window} open",
            f"The {window} is open: nothing has been resolved yet. The informed may amend their"
            " orders until the window's deadline; every other faction's orders given at the"
            " deadline stand.",
        )

    def results_label(self, state: StarTrekState) -> str:
        """The window's close gives the season's results, filed under the season."""
        p = state.position.phase
        return f"{_SEASON[p.season]} {p.year}" if state.held is not None else self.phase(state).label

    def opening_events(self, state: StarTrekState) -> list[Event]:
        return list(welcome(state))

    def pictures(self, state: StarTrekState, viewer: str | None) -> list[Picture]:
        """The map, drawn as the viewer may see it (``None``: the organiser, everything)."""
        return pictures(state, viewer)

    # --- JSON -------------------------------------------------------------------------------------

    def to_json(self, state: StarTrekState) -> dict[str, Any]:
        return state_to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> StarTrekState:
        return state_from_json(data)

    def answer_json(self, played: Played) -> dict[str, Any]:
        return answer_json(self, played)

    simulated: ClassVar[Simulated] = Simulated(players=7, draws=True)

    view_of = staticmethod(_bot.view_of)
    bot_orders = staticmethod(_bot.bot_orders)

    def seat_labels(self, state: StarTrekState, seats: Sequence[str]) -> dict[str, str]:
        """A seat is called by its faction."""
        return {p: state.factions[p] for p in seats if p in state.factions}


def _retold_key(event: Event) -> tuple[str, ...] | None:
    """What an event tells, whoever reads it: a line told again to others says the same thing."""
    if isinstance(event, OrderResolved):
        return ("order", event.faction, event.order)
    if isinstance(event, GornRolled):
        return ("gorn", event.unit)
    return None


def _has_orders(state: StarTrekState, faction: str) -> bool:
    position = state.position
    kind = position.phase.kind
    if kind == "movement":
        return bool(position.units_of(faction))
    if kind == "retreat":
        return any(d.unit.power == faction for d in position.dislodged)
    return adjustment_due(MAP, position, faction) != 0


def _ability_problem(state: StarTrekState, faction: str, ability: Ability) -> str | None:
    if ability.kind in ("ally", "break"):
        return "you cannot ally with yourself" if ability.faction == faction else None
    owner = _OWNER[ability.kind]
    if owner != faction:
        return f"only the {owner} can use “{ability.kind}”"
    if state.position.phase.kind != "movement":
        return "abilities are used with movement orders"
    if state.held is not None and ability.kind in INTEL_KINDS:
        return "intelligence is gathered at the main deadline, not in the window"
    if ability.kind in _ONCE and _ONCE[ability.kind] in state.used:
        return f"{ability.kind} can be used once per game, and was used already"
    if ability.faction == faction:
        return "name another faction"
    if ability.kind == "buy" and not MAP.provinces[ability.system].supply_center:
        return f"{ability.system} is not a supply centre"
    return None


def _ability_problems(state: StarTrekState, faction: str, abilities: Sequence[Ability]) -> dict[Ability, str]:
    """Why each refused line is refused. Latinum is counted in the order it is spent (the bribe at
    the deadline, then sabotage, then a purchase): a line the treasury cannot pay is refused."""
    problems: dict[Ability, str] = {}
    left = state.latinum
    for ability in sorted(abilities, key=lambda a: list(PRICES).index(a.kind) if a.kind in PRICES else -1):
        problem = _ability_problem(state, faction, ability)
        price = PRICES.get(ability.kind, 0)
        if problem is None and price > left:
            rest = "" if left == state.latinum else f" ({left} once the other lines are paid)"
            problem = f"{PRICED[ability.kind]} costs {price} latinum; you have {state.latinum}{rest}"
        if problem is None:
            left -= price
        else:
            problems[ability] = problem
    return problems


def _options(options: Mapping[str, Any]) -> Options:
    window = options.get("intelligence_window", True)
    return Options(
        fog=bool(options.get("fog_of_war", False)),
        window=bool(window) and str(window).strip().lower() not in ("0", "no", "off", "false"),
        allied_centres=int(options.get("allied_victory_centres", 24)),
        latinum_public=bool(options.get("latinum_public", False)),
    )


def _assign(players: Sequence[str], roles: Mapping[str, str], rng: random.Random) -> dict[str, str]:
    if len(players) > len(FACTIONS):
        raise ValueError(
            f"Star Trek Diplomacy has {len(FACTIONS)} factions; {len(players)} players is too many"
        )
    chosen: dict[str, str] = {}
    for player in players:
        if roles.get(player):
            faction = one_role(roles[player], faction_named)
            if faction is None:
                raise ValueError(f"no faction {roles[player]!r}; the factions are {', '.join(FACTIONS)}")
            chosen[player] = faction
    if len(set(chosen.values())) != len(chosen):
        raise ValueError("two players have the same faction in the Role column")
    free = [f for f in FACTIONS if f not in chosen.values()]
    rng.shuffle(free)
    return {**chosen, **{p: free.pop() for p in players if p not in chosen}}


STARTREK = StarTrek()


def _next(label: str) -> PhaseBegun:
    """The phase that begins, told to nobody: every mail says "Next comes …" itself, and History
    lists what happened, not a row saying only what comes next."""
    return PhaseBegun(label=label, audience=frozenset())
