"""Diplomacy as a Courier game: seven players (fewer leave powers in civil disorder) send orders
by mail; movement, retreat and adjustment phases each have their own deadline; a draw is agreed by
unanimous, secret vote (`draw` in the orders)."""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
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
    one_role,
)
from engine.diplomacy import _bot, _headline
from engine.diplomacy._defaults import unordered, unordered_adjustments
from engine.diplomacy._events import (
    CentresCounted,
    DrawAgreed,
    GameWon,
    OrderDefaulted,
    OrderResolved,
    PhaseBegun,
)
from engine.diplomacy._forms import order_form
from engine.diplomacy._json import (
    answer_json,
    position_from_json,
    position_to_json,
    reason_text,
    request_position,
)
from engine.diplomacy._legality import check_movement_order
from engine.diplomacy._on_file import DRAW, NO_DRAW, amendment_notes, combine_lines, on_file_of
from engine.diplomacy._orders import Convoy, Disband, Hold, Move, Order, Support, Unit
from engine.diplomacy._parse import order_vocabulary, parse_orders
from engine.diplomacy._phases import adjustment_due, solo_winner
from engine.diplomacy._position import Position
from engine.diplomacy._resolve import resolve_phase
from engine.diplomacy._results import Illegal
from engine.diplomacy._standings import draw_among_survivors
from engine.diplomacy._svg import draw_map, order_rows
from engine.diplomacy._variant import Variant, find_variant
from engine.reading import Vocabulary, forgiving

DRAW_WORDS = frozenset({"draw", "vote draw", "draw yes", "propose draw", "i vote for a draw"})
NO_DRAW_WORDS = frozenset({"no draw", "draw no", "cancel draw", "withdraw draw"})


@dataclass(frozen=True)
class DiplomacyState:
    variant: str
    position: Position
    powers: Mapping[str, str]  # player -> power
    result: Outcome | None = None
    phases: int = 1  # phases played so far, counting this one
    # the phase just resolved and its orders as (power, order, result), public once resolved: the map
    last_phase: str = ""
    last_orders: tuple[tuple[str, str, str], ...] = ()
    # power -> its orders standing in this phase, as its mails left them (``_on_file``): private
    on_file: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def power_of(self, player: str) -> str:
        return self.powers[player]


class Diplomacy(Game):
    name: ClassVar[str] = "diplomacy"
    title: ClassVar[str] = "Diplomacy"
    option_keys: ClassVar[frozenset[str]] = frozenset({"variant"})

    # --- setup and phases ---------------------------------------------------------------------

    def setup(self, players: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> DiplomacyState:
        variant = find_variant(str(options.get("variant", "standard")))
        powers = _assign_powers(variant, players, options.get("roles", {}), rng)
        return DiplomacyState(variant.name, variant.start(), powers)

    def phase(self, state: DiplomacyState) -> Phase:
        if state.result is not None:
            return Phase("finished", "finished", state.phases, "Finished")
        p = state.position.phase
        kind = {"movement": "", "retreat": " retreats", "adjustment": " adjustments"}[p.kind]
        return Phase(p.key, p.kind, state.phases, f"{p.season.title()} {p.year}{kind}")

    def awaiting(self, state: DiplomacyState) -> frozenset[str]:
        if state.result is not None:
            return frozenset()
        variant, position = find_variant(state.variant), state.position
        return frozenset(p for p, power in state.powers.items() if _has_orders(variant, position, power))

    # --- orders -------------------------------------------------------------------------------

    def vocabulary(self, state: DiplomacyState) -> Vocabulary:
        return _vocabulary(state.variant)

    @forgiving
    def parse(self, state: DiplomacyState, player: str, text: str) -> Submission:
        variant, position = find_variant(state.variant), state.position
        words = [(line, line.strip().lower().rstrip(".!")) for line in text.splitlines()]
        withdrawn = any(w in NO_DRAW_WORDS for _, w in words)
        draw = any(w in DRAW_WORDS for _, w in words) and not withdrawn
        rest = "\n".join(line for line, w in words if w not in DRAW_WORDS | NO_DRAW_WORDS)
        power = state.power_of(player)
        orders, errors, notes = parse_orders(
            variant.map,
            _orderable(position),
            power=power,
            phase_kind=position.phase.kind,
            text=rest,
            position=position,
        )
        canonical = [str(o) for o in orders] + ([DRAW] if draw else [NO_DRAW] if withdrawn else [])
        on_file = state.on_file.get(power, ())
        notes = [
            *notes,
            *amendment_notes(on_file, canonical),
            *_legality_notes(variant, position, power, orders, on_file_of(state.on_file, power)),
        ]
        return Submission(player, tuple(canonical), tuple(errors), tuple(notes))

    def combine(self, earlier: Submission | None, later: Submission) -> Submission:
        """A new mail replaces the orders of the units it orders; the others keep theirs."""
        if earlier is None:
            return replace(later, orders=combine_lines((), later.orders))
        return replace(later, orders=combine_lines(earlier.orders, later.orders))

    def immediate(
        self, state: DiplomacyState, submission: Submission
    ) -> tuple[DiplomacyState, tuple[Event, ...]]:
        """A mail's orders go on file at once, so every form shows the orders that stand."""
        power = state.power_of(submission.player)
        lines = combine_lines(state.on_file.get(power, ()), submission.orders)
        return replace(state, on_file={**state.on_file, power: lines}), ()

    def absent_default(self, state: DiplomacyState, player: str) -> str:
        return ABSENT[state.position.phase.kind]

    def default(self, state: DiplomacyState, player: str, rng: random.Random) -> Submission:
        return Submission(player, notes=("No orders came: units hold, dislodged units disband, no builds.",))

    # --- resolution ---------------------------------------------------------------------------

    def resolve(
        self, state: DiplomacyState, submissions: Mapping[str, Submission], rng: random.Random
    ) -> Resolution:
        variant, position = find_variant(state.variant), state.position
        orders = _orders(variant, state, submissions)
        silent = frozenset(unordered(position, orders))  # units nobody ordered: reported too
        outcome = resolve_phase(variant, position, [*orders, *sorted(silent, key=_power_and_line)])
        rows = [_result_row(r) for r in outcome.results if r.order not in silent]
        events: list[Event] = [
            OrderResolved(power=r["power"], order=r["order"], result=r["result"], reason=r["reason"])
            for r in rows
        ]
        events += [
            OrderDefaulted(power=r["power"], order=r["order"], result=r["result"], reason=r["reason"])
            for r in (_result_row(x) for x in outcome.results if x.order in silent)
        ]
        after = outcome.position
        events += [
            OrderDefaulted(power=power, order=order, result="succeeds", reason=None)
            for power, order in unordered_adjustments(variant.map, position, orders, after)
        ]
        if after.phase.year != position.phase.year or after.phase.kind == "adjustment":
            events.append(CentresCounted(year=position.phase.year, centres=_centre_counts(after)))
        result = _result(variant, state, after, submissions, events)
        events.append(PhaseBegun(label="Finished" if result else str(after.phase)))
        played = replace(state, last_phase=self.phase(state).label, last_orders=order_rows(rows), on_file={})
        return Resolution(
            replace(played, position=after, result=result, phases=state.phases + 1), tuple(events)
        )

    def outcome(self, state: DiplomacyState) -> Outcome | None:
        return state.result

    def standings(self, state: DiplomacyState) -> Outcome:
        """An organiser's end is a draw among the surviving powers, ranked by centres."""
        return draw_among_survivors(state.powers, state.position)

    def pictures(self, state: DiplomacyState, viewer: str | None) -> list[Picture]:
        """The standard board after the last phase with its orders, the same for every viewer:
        nothing on it is private (draw votes are not orders and are never drawn)."""
        if state.variant != "standard":
            return []
        position = state.position
        when = f"after {state.last_phase}" if state.last_phase else "at the start"
        title = f"Diplomacy {when}"  # no "now …": the mail says what comes next, and an end has none
        return [
            Picture(f"map-{position.phase.key}", title, draw_map(position, state.last_orders, title=title))
        ]

    def ledger(self, state: DiplomacyState) -> list[dict[str, Any]]:
        position = state.position
        owner = {power: player for player, power in state.powers.items()}
        return [
            {
                "Power": power,
                "Player": owner.get(power, "(civil disorder)"),
                "Centres": len(position.centres_of(power)),
                "Units": " ".join(str(u) for u in position.units_of(power)),
            }
            for power in find_variant(state.variant).powers
        ]

    def headline(self, state: DiplomacyState, events: Sequence[Event], viewer: str) -> str | None:
        return _headline.headline(state, events, viewer)

    def asked(self, state: DiplomacyState, player: str) -> str | None:
        return _headline.asked(state, player)

    def order_template(self, state: DiplomacyState, player: str) -> str:
        """The orders on file for each unit (as njudge's form), the legal retreats, the free home
        centres: a form sent back with one line changed changes that one order. None for a power
        with nothing to order in this phase."""
        power, variant = state.power_of(player), find_variant(state.variant)
        if player not in self.awaiting(state):
            return ""
        return "\n".join(order_form(variant.map, state.position, power, state.on_file.get(power, ())))

    # --- JSON -----------------------------------------------------------------------------------

    def to_json(self, state: DiplomacyState) -> dict[str, Any]:
        data = position_to_json(find_variant(state.variant), state.position)
        result = state.result
        return {
            **data,
            "powers": dict(state.powers),
            "phases": state.phases,
            "last_phase": state.last_phase,
            "last_orders": [list(row) for row in state.last_orders],
            # the phase's orders so far, private to each power: only in the journal, never public
            **({"orders_on_file": {p: list(o) for p, o in state.on_file.items()}} if state.on_file else {}),
            "result": None
            if result is None
            else {
                "ranking": [list(g) for g in result.ranking],
                "winners": list(result.winners),
                "reason": result.reason,
            },
        }

    def from_json(self, data: Mapping[str, Any]) -> DiplomacyState:
        variant, position = position_from_json(data)
        result = data.get("result")
        outcome = (
            None
            if result is None
            else Outcome(
                tuple(tuple(g) for g in result["ranking"]), tuple(result["winners"]), result["reason"]
            )
        )
        return DiplomacyState(
            variant.name,
            position,
            dict(data["powers"]),
            outcome,
            int(data.get("phases", 1)),
            str(data.get("last_phase", "")),
            tuple((str(p), str(o), str(r)) for p, o, r in data.get("last_orders", ())),
            {str(p): tuple(map(str, o)) for p, o in data.get("orders_on_file", {}).items()},
        )

    def read_request(self, request: Mapping[str, Any], seed: str) -> tuple[DiplomacyState, dict[str, str]]:
        """A position with each power's orders; every power is played by a player of its name."""
        variant, position, texts = request_position(request)
        powers = {power: power for power in (*variant.powers, *texts)}
        return DiplomacyState(variant.name, position, powers), texts

    def answer_json(self, played: Played) -> dict[str, Any]:
        return answer_json(find_variant(played.before.variant), played)

    simulated: ClassVar[Simulated] = Simulated(players=7, draws=True)

    view_of = staticmethod(_bot.view_of)
    bot_orders = staticmethod(_bot.bot_orders)

    def seat_labels(self, state: DiplomacyState, seats: Sequence[str]) -> dict[str, str]:
        """A seat is called by its power."""
        return {p: state.powers[p] for p in seats if p in state.powers}


# What the default does for a silent power, by phase kind (receipts and reminders tell it).
ABSENT = {
    "movement": "your units hold",
    "retreat": "your dislodged units disband",
    "adjustment": "no unit is built, and a power that must disband loses the units farthest from its centres",
}


@functools.cache
def _vocabulary(variant: str) -> Vocabulary:
    """A variant's order words, made once: the forgiving reader needs them for every mail."""
    return order_vocabulary(find_variant(variant).map)


def _assign_powers(
    variant: Variant, players: Sequence[str], roles: Mapping[str, str], rng: random.Random
) -> dict[str, str]:
    powers = list(variant.powers)
    if len(players) > len(powers):
        raise ValueError(
            f"{variant.name} Diplomacy has {len(powers)} powers; {len(players)} players is too many"
        )
    chosen = {p: _match_power(powers, roles[p]) for p in players if roles.get(p)}
    if len(set(chosen.values())) != len(chosen):
        raise ValueError("two players have the same power in the Role column")
    free = [p for p in powers if p not in chosen.values()]
    rng.shuffle(free)  # the seeded draw for players without a role
    return {**chosen, **{p: free.pop() for p in players if p not in chosen}}


def _match_power(powers: Sequence[str], role: str) -> str:
    def named(word: str) -> str | None:
        key = word.strip().lower()[:3]
        return next((power for power in powers if key and power.lower().startswith(key)), None)

    power = one_role(role, named)
    if power is None:
        raise ValueError(f"no power {role!r}; the powers are {', '.join(powers)}")
    return power


def _legality_notes(
    variant: Variant, position: Position, power: str, orders: Sequence[Order], on_file: Mapping[str, str]
) -> list[str]:
    """The receipt's word on each unit: orders that will fail as illegal, and units left unordered
    (``on_file``: the orders earlier mails left, by unit)."""
    if position.phase.kind != "movement":
        return []
    notes = []
    for order in orders:
        if isinstance(order, (Hold, Move, Support, Convoy)):
            checked = check_movement_order(variant.map, position, order)
            if isinstance(checked, Illegal):
                notes.append(f"{order}: illegal ({checked.reason}); the unit will hold")
    ordered = {o.unit.province for o in orders if isinstance(o, (Hold, Move, Support, Convoy))}
    notes += [
        f"{u}: no order in this mail; “{on_file[str(u)]}” stands"
        if str(u) in on_file
        else f"{u}: no order in this mail, nor on file: it holds"
        for u in position.units_of(power)
        if u.province not in ordered
    ]
    return notes


def _orderable(position: Position) -> list[Unit]:
    return [d.unit for d in position.dislodged] if position.phase.kind == "retreat" else list(position.units)


def _has_orders(variant: Variant, position: Position, power: str) -> bool:
    kind = position.phase.kind
    if kind == "movement":
        return bool(position.units_of(power))
    if kind == "retreat":
        return any(d.unit.power == power for d in position.dislodged)
    return adjustment_due(variant.map, position, power) != 0


def _orders(variant: Variant, state: DiplomacyState, submissions: Mapping[str, Submission]) -> list[Order]:
    orders: list[Order] = []
    for player, submission in submissions.items():
        text = "\n".join(line for line in submission.orders if line not in (DRAW, NO_DRAW))
        parsed, _, _ = parse_orders(
            variant.map,
            _orderable(state.position),
            power=state.power_of(player),
            phase_kind=state.position.phase.kind,
            text=text,
        )
        orders.extend(parsed)
    return orders


def _result_row(result: Any) -> dict[str, Any]:
    order = result.order
    power = order.unit.power if hasattr(order, "unit") else getattr(order, "power", "")
    verdict = "succeeds" if result.succeeded else ("illegal" if result.illegal else "fails")
    return {"power": power, "order": str(order), "result": verdict, "reason": reason_text(result.reason)}


def _power_and_line(order: Hold | Disband) -> tuple[str, str]:
    return order.unit.power, str(order)


def _centre_counts(position: Position) -> dict[str, int]:
    return {p: len(scs) for p, scs in sorted(position.supply_centers.items()) if scs}


def _result(
    variant: Variant,
    state: DiplomacyState,
    after: Position,
    submissions: Mapping[str, Submission],
    events: list[Event],
) -> Outcome | None:
    winner = solo_winner(after, variant.solo_centers)
    if winner is not None:
        events.append(GameWon(power=winner, centres=len(after.centres_of(winner))))
        return Outcome(((winner,),), (winner,), f"{winner} holds {variant.solo_centers} or more centres")
    alive = [p for p, power in state.powers.items() if after.units_of(power) or after.centres_of(power)]
    voted = {p for p, s in submissions.items() if DRAW in s.orders}
    if alive and set(alive) <= voted:
        powers = tuple(sorted(state.powers[p] for p in alive))
        events.append(DrawAgreed(powers=powers))
        return Outcome((tuple(sorted(alive)),), tuple(sorted(alive)), "draw agreed by every surviving power")
    return None


DIPLOMACY = Diplomacy()
