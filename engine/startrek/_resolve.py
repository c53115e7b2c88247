"""Resolving a phase: alliances (any phase), the intelligence gathered at a movement deadline and
its window, the turn itself, then eliminations, the centre count, victory and the 2380 draw."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

from engine.core import Event, Outcome, Submission
from engine.diplomacy import Move, MovementOrder, Position
from engine.startrek._combine import combine_orders
from engine.startrek._events import (
    AbilitiesLeft,
    AbilityUsed,
    CentresCounted,
    FactionEliminated,
    GameDrawn,
    GameWon,
    GornRolled,
    IntelligenceReceived,
    LatinumCounted,
    OrderResolved,
)
from engine.startrek._factions import FACTIONS, is_alive
from engine.startrek._fog import Sight
from engine.startrek._parse import Ability, Reading, display, read_lines
from engine.startrek._state import Route, StarTrekState, YearRecord
from engine.startrek._turn import BRIBE, PRICED, Turn, adjustment_turn, movement_turn, retreat_turn
from engine.startrek._victory import allied_victory, drawn, solo_victory

INTEL_KINDS = ("tal shiar", "bribe")


def read_submission(state: StarTrekState, player: str, orders: tuple[str, ...]) -> Reading:
    position = state.position
    units = [d.unit for d in position.dislodged] if position.phase.kind == "retreat" else list(position.units)
    return read_lines(
        units, faction=state.factions[player], phase_kind=position.phase.kind, text="\n".join(orders)
    )


def audience(state: StarTrekState, faction: str) -> frozenset[str]:
    player = state.player_of(faction)
    return frozenset({player} if player else ())


# --- intelligence ----------------------------------------------------------------------------


def gather_intelligence(
    state: StarTrekState, readings: Mapping[str, Reading], events: list[Event], *, window: bool
) -> StarTrekState:
    """What the Tal Shiar, a bribe and the Obsidian Order reveal at the main deadline."""
    by_faction = {state.factions[p]: r for p, r in readings.items()}
    used, latinum = set(state.used), state.latinum
    informed: set[str] = set()

    def tell(faction: str, source: str, lines: tuple[str, ...]) -> None:
        seen = audience(state, faction)
        events.append(
            IntelligenceReceived(faction=faction, source=source, lines=lines, window=window, audience=seen)
        )
        informed.update(seen)

    def orders_of(target: str) -> tuple[str, ...]:
        """Every line of the faction's, abilities and alliances included (rulings 2026-11-24)."""
        reading = by_faction.get(target)
        if reading is None:
            return ()
        return tuple(display(o) for o in reading.orders) + tuple(str(a) for a in reading.abilities)

    romulan = _ability(by_faction, "Romulan", "tal shiar")
    if romulan is not None and "tal shiar" not in used:
        used.add("tal shiar")
        tell("Romulan", f"Tal Shiar on the {romulan.faction}", orders_of(romulan.faction) or ("(no orders)",))
    ferengi = _ability(by_faction, "Ferengi", "bribe")
    if ferengi is not None and latinum < BRIBE:  # two mails together may ask for more than there is
        why = f"{PRICED['bribe']} costs {BRIBE} latinum"
        events.append(
            AbilityUsed(
                faction="Ferengi", ability=str(ferengi), refused=why, audience=audience(state, "Ferengi")
            )
        )
    elif ferengi is not None:
        latinum -= BRIBE
        tell("Ferengi", f"bribe of the {ferengi.faction}", orders_of(ferengi.faction) or ("(no orders)",))
    if "Cardassian" in by_faction:
        moves = tuple(
            f"{faction}: a move into {o.destination}"
            for faction, r in sorted(by_faction.items())
            if faction != "Cardassian"
            for o in r.orders
            if isinstance(o, Move)
        )
        tell("Cardassian", "Obsidian Order", moves or ("(no enemy moves)",))
    return replace(state, used=frozenset(used), latinum=latinum, informed=frozenset(informed))


def _ability(by_faction: Mapping[str, Reading], faction: str, kind: str) -> Ability | None:
    reading = by_faction.get(faction)
    return next((a for a in reading.abilities if a.kind == kind), None) if reading else None


# --- the turn --------------------------------------------------------------------------------


def play_turn(
    state: StarTrekState, readings: Mapping[str, Reading], rng: random.Random, events: list[Event]
) -> StarTrekState:
    before = state.position
    turn = Turn(before, state.latinum, set(state.used), state.rage)
    orders = [o for r in readings.values() for o in r.orders]
    kind = before.phase.kind
    if kind == "movement":
        abilities = {
            state.factions[p]: [a for a in r.abilities if a.kind not in (*INTEL_KINDS, "ally", "break")]
            for p, r in readings.items()
        }
        movement_turn(turn, [o for o in orders if isinstance(o, MovementOrder)], abilities, rng)
    elif kind == "retreat":
        retreat_turn(turn, orders, rng)
    else:
        adjustment_turn(turn, orders, rng)
    after = replace(
        state, position=turn.position, latinum=turn.latinum, used=frozenset(turn.used), rage=turn.rage
    )
    events += _turn_events(after, before, turn)
    return replace(after, routes=_routes(after, before, turn))


def _routes(state: StarTrekState, before: Position, turn: Turn) -> tuple[Route, ...]:
    """The phase's moves and retreats, each for the players who read its order line."""
    sight = Sight(state, before)
    return tuple(
        Route(v.faction, kind, origin, target, v.result == "succeeds", sight.who({v.faction}, v.order))
        for v in turn.results
        if v.route is not None and v.result != "illegal"
        for kind, origin, target in [v.route]
    )


def _turn_events(state: StarTrekState, before: Position, turn: Turn) -> list[Event]:
    sight = Sight(state, before)
    private = not state.options.latinum_public  # then so is what the Ferengi spend it on
    events: list[Event] = []
    for v in turn.results:
        privy = {v.faction, "Ferengi"} if v.spent and private else None  # the saboteur and the victim
        events += [
            OrderResolved(
                faction=v.faction, order=v.order, result=v.result, reason=why, given=v.given, audience=seen
            )
            for why, seen in sight.tell({v.faction}, v.order, v.reason, None if privy else v.vague, privy)
        ]
    for faction, line, effect, refused in turn.effects:
        spending = faction == "Ferengi" and private
        seen = sight.who({faction}, f"{line.system} {effect}")
        if refused or spending:
            seen = audience(state, faction)
        events.append(
            AbilityUsed(faction=faction, ability=str(line), effect=effect, refused=refused, audience=seen)
        )
    for unit, survived, place in turn.rolls:
        events += [
            GornRolled(unit=unit, survived=survived, place=where, audience=seen)
            for where, seen in sight.tell({"Gorn"}, unit, place, None)
        ]
    if before.phase.kind == "movement":
        if is_alive(before, "Ferengi"):
            public = state.options.latinum_public
            events.append(
                LatinumCounted(
                    income=turn.income,
                    latinum=state.latinum,
                    audience=None if public else audience(state, "Ferengi"),
                )
            )
        events += _abilities_left(state)
    return events


def _abilities_left(state: StarTrekState) -> list[Event]:
    left = {
        "Federation": ("immunity: " + ("used" if "immunity" in state.used else "available"),),
        "Klingon": (f"rage: {'on' if state.rage else 'off'}",),
        "Romulan": ("Tal Shiar: " + ("used" if "tal shiar" in state.used else "available"),),
        "Cardassian": ("Obsidian Order: every turn",),
        "Ferengi": (f"latinum: {state.latinum}",),
        "Breen": ("freeze: " + ("used" if "freeze" in state.used else "available"),),
        "Gorn": ("resilience: 50% survival",),
    }
    return [
        AbilitiesLeft(faction=f, left=left[f], audience=audience(state, f))
        for f in FACTIONS
        if state.player_of(f) and is_alive(state.position, f)
    ]


# --- after the turn --------------------------------------------------------------------------


def conclude(state: StarTrekState, before: Position, events: list[Event]) -> StarTrekState:
    after = state.position
    events += [
        FactionEliminated(faction=f) for f in FACTIONS if is_alive(before, f) and not is_alive(after, f)
    ]
    year_over = after.phase.year != before.phase.year or (
        after.phase.kind == "adjustment" and before.phase.kind != "adjustment"
    )
    history = state.history
    if year_over:
        centres = {f: len(after.centres_of(f)) for f in FACTIONS if after.centres_of(f)}
        events.append(CentresCounted(year=before.phase.year, centres=centres))
        history = tuple(r for r in history if r.year != before.phase.year)
        history += (YearRecord(before.phase.year, centres, state.latinum),)
    state = replace(state, history=history, phases=state.phases + 1)
    return replace(state, result=_result(state, events))


def _result(state: StarTrekState, events: list[Event]) -> Outcome | None:
    position = state.position
    won = solo_victory(position, state.latinum) or allied_victory(
        position, state.alliances, state.options.allied_centres
    )
    if won is not None:
        factions, reason = won
        events.append(GameWon(factions=factions, reason=reason))
        return _outcome(state, factions, reason)
    if drawn(position):
        living = tuple(f for f in FACTIONS if is_alive(position, f))
        events.append(GameDrawn(year=position.phase.year, factions=living))
        return _outcome(state, living, f"no victory by {position.phase.year}: a draw")
    return None


def _outcome(state: StarTrekState, factions: tuple[str, ...], reason: str) -> Outcome:
    position = state.position
    winners = tuple(sorted(p for p, f in state.factions.items() if f in factions))
    rest = sorted(
        (p for p in state.factions if p not in winners),
        key=lambda p: -len(position.centres_of(state.factions[p])),
    )
    ranking = [winners] if winners else []
    for player in rest:
        count = len(position.centres_of(state.factions[player]))
        if ranking and ranking[-1] and ranking[-1] != winners and _count(state, ranking[-1][0]) == count:
            ranking[-1] = (*ranking[-1], player)
        else:
            ranking.append((player,))
    return Outcome(tuple(ranking), winners, reason)


def _count(state: StarTrekState, player: str) -> int:
    return len(state.position.centres_of(state.factions[player]))


def merged(state: StarTrekState, submissions: Mapping[str, Submission]) -> dict[str, tuple[str, ...]]:
    """Orders at the end of a window: what each player gave at the deadline, amended by the informed."""
    held = dict(state.held or {})
    for player, amendment in submissions.items():
        if player in state.informed:
            held[player] = combine_orders(held.get(player, ()), amendment.orders)
    return held
