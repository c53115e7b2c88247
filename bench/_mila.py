"""The MILA side of the benchmark: random play in ``diplomacy.Game`` (the PyPI ``diplomacy`` package,
AGPL, bench-only), its adjudication core timed on its own, and the conversion of its positions and
order strings into our engine's values. Nothing in the product imports this."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import diplomacy

from engine.diplomacy import (
    STANDARD,
    Convoy,
    Hold,
    Move,
    MovementOrder,
    MovementResult,
    NoConvoyRoute,
    Phase,
    Position,
    Support,
    Unit,
    make_position,
    province_of,
    resolve_movement,
)

MilaGame = Any  # diplomacy.Game has no type hints

# How often pass 1 picks each kind of order for a unit (then pass 2 matches supports and convoys).
# "V" is an explicit "via convoy" to a province the army could walk to: rare, since MILA's land
# fallback for it (a known rule difference) would otherwise swamp the comparison.
KIND_WEIGHTS = {"-": 0.5, "S": 0.3, "C": 0.12, "H": 0.08, "V": 0.02}
MATCH_CHANCE = 0.8  # a supporter/convoyer that can back an order actually given, does so this often


@dataclass(frozen=True)
class Outcome:
    """A movement phase's result as both engines can state it: units on the board afterwards, and
    dislodged units with the province their dislodger came from (all keys lower-case)."""

    units: frozenset[tuple[str, str, str]]
    dislodged: frozenset[tuple[str, str, str, str]]


def new_game() -> MilaGame:
    return diplomacy.Game()


# --- random play ------------------------------------------------------------------------------


def _kind(order: str) -> str:
    words = order.split()
    if words[-1] == "VIA" and STANDARD.map.adjacent("A", words[1].lower(), words[3].lower()):
        return "V"
    return words[2]


def _matches(backing: str, given: dict[str, str]) -> bool:
    """Does a support/convoy order back an order that was actually given? ``given`` maps a unit's
    province (3 letters) to its order."""
    words = backing.split()
    target = given.get(words[4][:3])
    if target is None:
        return False
    if len(words) == 5:  # "X S A BER": support to hold, so the unit must not move
        return target.split()[2] != "-"
    dest = words[6][:3]
    moved = target.split()
    return moved[2] == "-" and moved[3][:3] == dest


def _possible_orders(game: MilaGame) -> dict[str, list[str]]:
    """MILA's possible orders by location, sorted: MILA builds them through sets, whose order changes
    with Python's string hashing, and ``--seed`` must replay the same games in every process."""
    return {loc: sorted(orders) for loc, orders in game.get_all_possible_orders().items()}


def random_movement_orders(game: MilaGame, rng: random.Random) -> dict[str, list[str]]:
    """One random order per unit, biased towards moves and supports; supports and convoys are
    mostly chosen to back orders that were actually given, so phases have real fights."""
    possible = _possible_orders(game)
    chosen: dict[str, tuple[str, str, str]] = {}  # province -> (power, location, order)
    for power, locs in sorted(game.get_orderable_locations().items()):
        for loc in sorted(locs):
            options = possible.get(loc) or []
            by_kind: dict[str, list[str]] = {}
            for order in options:
                by_kind.setdefault(_kind(order), []).append(order)
            if not by_kind:
                continue
            kinds = sorted(by_kind)
            kind = rng.choices(kinds, weights=[KIND_WEIGHTS.get(k, 0.05) for k in kinds])[0]
            chosen[loc[:3]] = (power, loc, rng.choice(by_kind[kind]))
    given = {prov: order for prov, (_, _, order) in chosen.items()}
    for prov, (power, loc, order) in sorted(chosen.items()):
        if _kind(order) in "SC" and rng.random() < MATCH_CHANCE:
            backing = [o for o in possible[loc] if _kind(o) == _kind(order) and _matches(o, given)]
            if backing:
                chosen[prov] = (power, loc, rng.choice(backing))
    orders: dict[str, list[str]] = {}
    for power, _, order in chosen.values():
        orders.setdefault(power, []).append(order)
    return orders


def random_other_orders(game: MilaGame, rng: random.Random) -> dict[str, list[str]]:
    """Random retreats, or random builds/disbands up to what each power is due."""
    possible = _possible_orders(game)
    orders: dict[str, list[str]] = {}
    for power, locs in sorted(game.get_orderable_locations().items()):
        options = ([o for o in possible.get(loc, []) if o != "WAIVE"] for loc in sorted(locs))
        picks = [rng.choice(opts) for opts in options if opts]
        if game.phase_type == "A":
            mila_power = game.get_power(power)
            due = abs(len(mila_power.centers) - len(mila_power.units))
            rng.shuffle(picks)
            picks = picks[:due]
        orders[power] = picks
    return orders


def play_to_movement(game: MilaGame, rng: random.Random) -> None:
    """Process retreat and adjustment phases with random orders until the next movement phase."""
    while not game.is_game_done and game.phase_type != "M":
        for power, orders in random_other_orders(game, rng).items():
            game.set_orders(power, orders)
        game.process()


# --- MILA adjudication ------------------------------------------------------------------------


def mila_adjudicate(game: MilaGame) -> tuple[Outcome, dict[str, list[str]], int]:
    """Run MILA's movement adjudication core on the orders set, without advancing the game.

    Timed: ``_determine_orders`` (which orders belong to which unit), ``_add_coasts`` (coast
    normalisation of supports/convoys) and ``_resolve_moves`` (the adjudication). Not timed: order
    parsing/validation in ``set_orders``, and the bookkeeping of ``process()`` (history, retreat
    options, moving units, phase advance). Those three calls only rebuild scratch state that
    ``process()`` rebuilds again, so the game is unchanged. Returns the outcome, MILA's result
    codes per unit (``"A PAR"`` → ``["bounce"]``), and the nanoseconds taken."""
    start = time.perf_counter_ns()
    game._determine_orders()
    game._add_coasts()
    game._resolve_moves()
    elapsed = time.perf_counter_ns() - start
    units: set[tuple[str, str, str]] = set()
    dislodged: set[tuple[str, str, str, str]] = set()
    for power in game.powers.values():
        name = power.name.capitalize()
        for unit in power.units:
            words = game.command[unit].split()
            if words[0] == "-" and not game.result[unit]:
                dest = words[-2] if words[-1] == "VIA" else words[-1]
                units.add((name, unit[0], dest.lower()))
            elif unit in game.dislodged:
                dislodged.add((name, unit[0], unit[2:].lower(), game.dislodged[unit][:3].lower()))
            else:
                units.add((name, unit[0], unit[2:].lower()))
    codes = {unit: [str(r) for r in results] for unit, results in game.result.items()}
    return Outcome(frozenset(units), frozenset(dislodged)), codes, elapsed


def mila_process(game: MilaGame) -> int:
    """``game.process()`` in full, timed (nanoseconds): adjudication plus all of MILA's bookkeeping."""
    start = time.perf_counter_ns()
    game.process()
    return time.perf_counter_ns() - start


# --- conversion to our values -----------------------------------------------------------------


def our_position(game: MilaGame) -> Position:
    """The MILA movement position as ours: ``F STP/SC`` of ``RUSSIA`` → ``("Russia", "F", "stp/sc")``."""
    season, year, kind = game.phase.split()
    units = [
        (power.name.capitalize(), unit[0], unit[2:].lower())
        for power in game.powers.values()
        for unit in power.units
    ]
    centres = {p.name.capitalize(): [c.lower() for c in p.centers] for p in game.powers.values()}
    return make_position(
        phase=Phase(int(year), season.lower(), kind.lower()),
        units=units,
        supply_centers=centres,
    )


def our_order(power: str, text: str) -> MovementOrder:
    """One MILA movement order string as our order value."""
    words = text.lower().split()
    unit = Unit(power.capitalize(), _unit_type(words[0]), words[1])
    verb, rest = words[2], words[3:]
    if verb == "h":
        return Hold(unit)
    if verb == "-":
        return Move(unit, rest[0], via_convoy=rest[-1] == "via")
    if verb == "s":
        dest = rest[3] if len(rest) == 4 else None
        return Support(unit, rest[1], dest, _unit_type(rest[0]))
    if verb == "c":
        return Convoy(unit, rest[1], rest[3])
    raise ValueError(f"not a movement order: {text!r}")


def _unit_type(letter: str) -> Any:
    if letter.upper() not in ("A", "F"):
        raise ValueError(f"not a unit type: {letter!r}")
    return letter.upper()


def our_orders(mila_orders: dict[str, list[str]]) -> dict[Unit, MovementOrder]:
    orders = (our_order(power, text) for power, texts in mila_orders.items() for text in texts)
    return {order.unit: order for order in orders}


def our_outcome(result: MovementResult) -> Outcome:
    return Outcome(
        units=frozenset((u.power, u.type, u.location) for u in result.units),
        dislodged=frozenset(
            (d.unit.power, d.unit.type, d.unit.location, d.attacker_from) for d in result.dislodged
        ),
    )


def power_units(units: Iterable[tuple[str, ...]]) -> dict[str, list[str]]:
    """Units grouped by power for printing: ``{"Russia": ["F stp/sc", ...]}``."""
    grouped: dict[str, list[str]] = {}
    for power, *rest in sorted(units):
        grouped.setdefault(power, []).append(" ".join(rest))
    return grouped


# --- known classes of disagreement ------------------------------------------------------------

LAND_FALLBACK = "MILA falls back to the land route (DATC 4.A.3 / 6.G.8: no fallback)"
CONVOYED_SELF_SUPPORT = "MILA counts the defender's own support for a convoyed attack (DATC 6.D.13 by convoy)"
HEAD_TO_HEAD_SELF_SUPPORT = "MILA voids a support against its own unit in a head-to-head (DATC 6.E.12)"
SELF_SUPPORTED_DISRUPTION = "MILA disrupts a convoy by an attack the fleet's own power supports (DATC 6.F.4)"
UNKNOWN = "unclassified"

Rewrite = Callable[[MovementResult], dict[Unit, MovementOrder]]  # MILA's rule as replacement orders


def classify(result: MovementResult, position: Position, mila: Outcome) -> str:
    """Which known difference of MILA's explains a disagreement: replay our side with MILA's rule
    where it is an order rewrite, or look for MILA's pattern where it is not."""
    for label, rewrite in (
        (LAND_FALLBACK, _land_fallback),
        (HEAD_TO_HEAD_SELF_SUPPORT, _head_to_head_self_support),
        (SELF_SUPPORTED_DISRUPTION, _self_supported_disruption),
    ):
        if _replay(result, position, rewrite) == mila:
            return label
    if _convoyed_self_support(result, mila):
        return CONVOYED_SELF_SUPPORT
    return UNKNOWN


def _replay(result: MovementResult, position: Position, rewrite: Rewrite) -> Outcome:
    """Our adjudication again, with some orders replaced as MILA's rule would have them."""
    orders: dict[Unit, MovementOrder] = {
        r.order.unit: r.order for r in result.results if isinstance(r.order, Hold | Move | Support | Convoy)
    }
    orders.update(rewrite(result))
    return our_outcome(resolve_movement(STANDARD.map, position, orders))


def _land_fallback(result: MovementResult) -> dict[Unit, MovementOrder]:
    """Every adjacent army move that found no convoy route made a plain land move (and its own
    side's convoy orders for it made holds), as MILA does."""
    stranded = {
        r.order.unit.province: province_of(r.order.destination)
        for r in result.results
        if isinstance(r.order, Move)
        and isinstance(r.reason, NoConvoyRoute)
        and STANDARD.map.adjacent("A", r.order.unit.location, r.order.destination)
    }
    rewritten: dict[Unit, MovementOrder] = {}
    for r in result.results:
        order = r.order
        if isinstance(order, Move) and order.unit.province in stranded:
            rewritten[order.unit] = Move(order.unit, order.destination)
        elif isinstance(order, Convoy) and stranded.get(order.army) == order.destination:
            rewritten[order.unit] = Hold(order.unit)
    return rewritten


def _head_to_head_self_support(result: MovementResult) -> dict[Unit, MovementOrder]:
    """Each support for one side of a (non-convoyed) head-to-head given by the power of the unit that
    side attacks made a hold: MILA's swap step weighs attack against attack, so such a support
    (which cannot dislodge the supporter's own unit) is lost for the defence too."""
    convoyed = {o.army for r in result.results if isinstance(o := r.order, Convoy)}
    moves = {
        o.unit.province: o
        for r in result.results
        if isinstance(o := r.order, Move)
        and not r.illegal
        and not o.via_convoy
        and o.unit.province not in convoyed
    }
    rewritten: dict[Unit, MovementOrder] = {}
    for r in result.results:
        support = r.order
        if not isinstance(support, Support) or support.destination is None:
            continue
        move, back = moves.get(province_of(support.supported)), moves.get(province_of(support.destination))
        if (
            move is not None
            and back is not None
            and province_of(move.destination) == back.unit.province
            and province_of(back.destination) == move.unit.province
            and back.unit.power == support.unit.power
        ):
            rewritten[support.unit] = Hold(support.unit)
    return rewritten


def _self_supported_disruption(result: MovementResult) -> dict[Unit, MovementOrder]:
    """Convoying fleets made holds where an attack outweighs them only by counting support from the
    fleet's own power: MILA's disruption check weighs all supports, its dislodgement check does not."""
    backers: dict[tuple[str, str | None], list[Unit]] = {}  # (supported, destination) -> supporters
    for r in result.results:
        if isinstance(o := r.order, Support) and r.succeeded:
            dest = province_of(o.destination) if o.destination else None
            backers.setdefault((province_of(o.supported), dest), []).append(o.unit)
    moves = [o for r in result.results if isinstance(o := r.order, Move) and not r.illegal]
    rewritten: dict[Unit, MovementOrder] = {}
    for r in result.results:
        if not isinstance(convoy := r.order, Convoy):
            continue
        fleet, where = convoy.unit, convoy.unit.province
        attacks = sorted(
            (
                (backers.get((m.unit.province, where), []), m.unit)
                for m in moves
                if province_of(m.destination) == where
            ),
            key=lambda attack: -len(attack[0]),
        )
        if not attacks:
            continue
        (support, attacker), rest = attacks[0], attacks[1:]
        if (
            attacker.power != fleet.power
            and any(b.power == fleet.power for b in support)
            and len(support) > len(backers.get((where, None), []))  # outweighs the fleet's hold...
            and all(len(other) < len(support) for other, _ in rest)  # ...and every other attack
        ):
            rewritten[fleet] = Hold(fleet)
    return rewritten


def _convoyed_self_support(result: MovementResult, mila: Outcome) -> bool:
    """A unit MILA dislodges by a convoyed move that a unit of the victim's own power supported."""
    moves = {r.order.unit.province: r.order for r in result.results if isinstance(r.order, Move)}
    for power, _, location, attacker in mila.dislodged:
        move = moves.get(attacker)
        if move is None:
            continue
        walked = STANDARD.map.adjacent("A", attacker, province_of(location)) and not move.via_convoy
        if walked:
            continue
        if any(
            isinstance(r.order, Support) and r.order.supported == attacker and r.order.unit.power == power
            for r in result.results
        ):
            return True
    return False
