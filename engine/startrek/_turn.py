"""One movement phase with every ability live, in the order the rulings give: the Klingon rage
switches, Federation immunity and the Breen freeze are declared, Ferengi sabotage turns an order
into a hold, the Diplomacy adjudicator settles the rest, the Gorn roll for units with nowhere to
go, the Ferengi buy a neutral centre and collect their income. Retreats are Diplomacy's; in the
adjustment phase Gorn units removed for lack of centres may stay."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from engine.diplomacy import (
    AdjustmentOrder,
    Bounced,
    Build,
    Convoy,
    Disband,
    Dislodged,
    Hold,
    Modifiers,
    Move,
    MovementOrder,
    Order,
    OrderResult,
    Position,
    Reason,
    Retreat,
    Support,
    SupportCut,
    Unit,
    Waive,
    after_movement,
    end_of_season,
    reason_text,
    resolve_adjustments,
    resolve_movement,
    resolve_retreats,
    retreat_options,
    update_ownership,
)
from engine.startrek._factions import MAP, VARIANT, nearest_free_home
from engine.startrek._parse import Ability, display

BRIBE, SABOTAGE, PURCHASE = 20, 30, 50
PRICES = {"bribe": BRIBE, "sabotage": SABOTAGE, "buy": PURCHASE}  # in the order latinum is spent
PRICED = {"bribe": "a bribe", "sabotage": "sabotage", "buy": "a centre"}


@dataclass(frozen=True)
class Verdict:
    """One order's outcome. ``vague`` is the reason without the systems ``reason`` names, for a
    viewer under the fog of war who cannot see them."""

    faction: str
    order: str
    result: str  # succeeds | fails | illegal
    reason: str | None = None
    vague: str | None = None
    spent: bool = False  # the reason tells of Ferengi spending (sabotage)
    route: tuple[str, str, str] | None = None  # a move or retreat: (kind, from, to), for the map
    given: bool = True  # False: the hold the rules gave a unit nobody ordered


@dataclass
class Turn:
    """What one phase changes, gathered as it goes; ``effects`` are the abilities' outcomes."""

    position: Position
    latinum: int
    used: set[str]
    rage: bool
    results: list[Verdict] = field(default_factory=list)
    effects: list[tuple[str, Ability, str, str]] = field(
        default_factory=list
    )  # faction, line, effect, refusal
    rolls: list[tuple[str, bool, str | None]] = field(default_factory=list)  # Gorn unit, survived, place
    income: int = 0

    def use(self, faction: str, ability: Ability, effect: str) -> None:
        self.effects.append((faction, ability, effect, ""))

    def refuse(self, faction: str, ability: Ability, why: str) -> None:
        self.effects.append((faction, ability, "", why))

    def record(self, results: Sequence[OrderResult]) -> None:
        for r in results:
            verdict = "succeeds" if r.succeeded else ("illegal" if r.illegal else "fails")
            why = reason_text(r.reason)
            verdict_of = Verdict(_power(r.order), display(r.order), verdict, why, _vague(r.reason))
            self.results.append(replace(verdict_of, route=_route(r.order)))


def _route(order: Order) -> tuple[str, str, str] | None:
    """Where a move or a retreat went, by system; None for every other order."""
    if isinstance(order, Move):
        return ("move", order.unit.province, order.destination.split("/")[0])
    if isinstance(order, Retreat):
        return ("retreat", order.unit.province, order.destination.split("/")[0])
    return None


def _vague(reason: Reason | None) -> str | None:
    """A reason as told to whoever cannot see the units it names (the fog of war)."""
    match reason:
        case Bounced():
            return "bounced"
        case Dislodged():
            return "dislodged"
        case SupportCut():
            return "support cut"
    return reason_text(reason)


def _power(order: Order) -> str:
    return order.power if isinstance(order, (Build, Waive)) else order.unit.power


def _one(abilities: Mapping[str, Sequence[Ability]], faction: str, kind: str) -> Ability | None:
    return next((a for a in abilities.get(faction, ()) if a.kind == kind), None)


# --- movement ------------------------------------------------------------------------------------


def movement_turn(
    turn: Turn,
    orders: Sequence[MovementOrder],
    abilities: Mapping[str, Sequence[Ability]],
    rng: random.Random,
) -> None:
    position = turn.position
    _rage(turn, abilities)
    immune = _immunity(turn, abilities)
    frozen = _freeze(turn, abilities)
    sabotaged = _sabotage(turn, abilities, orders)
    kept: dict[Unit, MovementOrder] = {}
    for order in orders:
        if off_layer(order):
            illegal = "illegal: support off its layer"
            turn.results.append(Verdict(order.unit.power, display(order), "illegal", illegal, illegal))
            continue
        why = "sabotaged" if order.unit in sabotaged else _frozen_out(order, frozen, position)
        if why:
            spent = order.unit in sabotaged
            turn.results.append(Verdict(order.unit.power, display(order), "fails", why, why, spent))
        else:
            kept[order.unit] = order
    raging = frozenset({"Klingon"} if turn.rage else ())
    phase_map = replace(MAP, modifiers=Modifiers(immune=immune, raging=raging))
    moved = resolve_movement(phase_map, position, kept, seasons=VARIANT.seasons)
    turn.record(moved.results)
    for d in moved.dislodged:  # a unit without an order the adjudicator saw held: say what befell it
        if d.unit not in kept:
            why = reason_text(Dislodged(d.attacker_from))
            hold = Verdict(d.unit.power, display(Hold(d.unit)), "fails", why, "dislodged", given=False)
            turn.results.append(hold)
    units, dislodged = list(moved.units), list(moved.dislodged)
    for d in moved.dislodged:
        if d.unit.power == "Gorn" and not retreat_options(MAP, moved.position, d):
            dislodged.remove(d)
            place = _gorn_roll(turn, d.unit, rng, units)
            if place is not None:
                units.append(Unit("Gorn", d.unit.type, place))
    turn.position = after_movement(
        MAP, position, tuple(sorted(units)), tuple(dislodged), moved.contested, seasons=VARIANT.seasons
    )
    _purchase(turn, abilities)
    turn.income = len(_centres_held(turn.position, last_season=position.phase.season == VARIANT.seasons[-1]))
    turn.latinum += turn.income


def _centres_held(position: Position, *, last_season: bool) -> frozenset[str]:
    """The Ferengi centres after this movement (rulings: whatever happens elsewhere). At the year's
    last season a centre changes hands as the movement leaves it, even when a dislodgement elsewhere
    puts the ownership update off until after the retreats."""
    return (
        update_ownership(MAP, position).centres_of("Ferengi")
        if last_season
        else position.centres_of("Ferengi")
    )


def _rage(turn: Turn, abilities: Mapping[str, Sequence[Ability]]) -> None:
    line = _one(abilities, "Klingon", "rage")
    if line is not None:
        turn.rage = line.on
        turn.use("Klingon", line, "on: +1 to every Klingon move, -1 to Klingon defence" if line.on else "off")


def _immunity(turn: Turn, abilities: Mapping[str, Sequence[Ability]]) -> frozenset[str]:
    line = _one(abilities, "Federation", "immunity")
    if line is None:
        return frozenset()
    unit = turn.position.unit_in(line.system)
    if "immunity" in turn.used:
        turn.refuse("Federation", line, "immunity was used already")
    elif unit is None or unit.power != "Federation":
        turn.refuse("Federation", line, f"no Federation unit at {line.system}")
    else:
        turn.used.add("immunity")
        turn.use("Federation", line, f"the {display(unit)} cannot be dislodged this turn")
        return frozenset({line.system})
    return frozenset()


def _freeze(turn: Turn, abilities: Mapping[str, Sequence[Ability]]) -> str | None:
    line = _one(abilities, "Breen", "freeze")
    if line is None:
        return None
    if "freeze" in turn.used:
        turn.refuse("Breen", line, "the freeze was used already")
        return None
    turn.used.add("freeze")
    turn.use("Breen", line, "nothing enters or leaves; no support given or received there")
    return line.system


def _sabotage(
    turn: Turn, abilities: Mapping[str, Sequence[Ability]], orders: Sequence[MovementOrder]
) -> set[Unit]:
    line = _one(abilities, "Ferengi", "sabotage")
    if line is None:
        return set()
    target = next(
        (o for o in orders if o.unit.power == line.faction and o.unit.province == line.system), None
    )
    if turn.latinum < SABOTAGE:
        turn.refuse("Ferengi", line, f"{PRICED['sabotage']} costs {SABOTAGE} latinum")
    elif target is None or isinstance(target, Hold):
        turn.refuse("Ferengi", line, f"no {line.faction} order for a unit at {line.system} to sabotage")
    else:
        turn.latinum -= SABOTAGE
        turn.use("Ferengi", line, f"“{display(target)}” becomes a hold")
        return {target.unit}
    return set()


def off_layer(order: MovementOrder) -> bool:
    """A unit supports only into a system on its own layer."""
    if not isinstance(order, Support):
        return False
    target = order.destination or order.supported
    other = MAP.provinces.get(target.split("/")[0])
    return other is not None and MAP.provinces[order.unit.province].layer != other.layer


def _frozen_out(order: MovementOrder, frozen: str | None, position: Position) -> str | None:
    """Why the freeze stops this order, if it does: nothing enters or leaves the frozen system,
    and units there neither give nor receive support."""
    if frozen is None or isinstance(order, Hold):
        return None
    touches = {order.unit.province}
    if isinstance(order, Move):
        touches.add(order.destination)
    elif isinstance(order, Support):
        touches.add(order.supported)
    elif isinstance(order, Convoy):
        touches |= {order.army, order.destination}
    return f"{frozen} is frozen" if frozen in touches else None


def _gorn_roll(turn: Turn, unit: Unit, rng: random.Random, units: list[Unit]) -> str | None:
    survived = rng.random() < 0.5
    taken = [u.province for u in units]
    place = (
        nearest_free_home(replace(turn.position, units=tuple(units)), "Gorn", unit.province, taken)
        if survived
        else None
    )
    turn.rolls.append((display(unit), place is not None, place))
    return place


def _purchase(turn: Turn, abilities: Mapping[str, Sequence[Ability]]) -> None:
    line = _one(abilities, "Ferengi", "buy")
    if line is None:
        return
    position = turn.position
    if not MAP.provinces[line.system].supply_center:
        turn.refuse("Ferengi", line, f"{line.system} is not a supply centre")
    elif position.owner(line.system) is not None:
        turn.refuse("Ferengi", line, f"{line.system} is not neutral")
    elif turn.latinum < PURCHASE:
        turn.refuse("Ferengi", line, f"{PRICED['buy']} costs {PURCHASE} latinum")
    else:
        turn.latinum -= PURCHASE
        centres = dict(position.supply_centers)
        centres["Ferengi"] = centres.get("Ferengi", frozenset()) | {line.system}
        turn.position = replace(position, supply_centers=centres)
        turn.use("Ferengi", line, f"{line.system} now belongs to the Ferengi")


# --- retreats and adjustments --------------------------------------------------------------------


def retreat_turn(turn: Turn, orders: Sequence[Order], rng: random.Random) -> None:
    """Diplomacy's retreats, then the Gorn roll for each Gorn unit whose retreat failed (rulings:
    every Gorn unit destroyed after being dislodged; a chosen disband is not)."""
    retreats = {o.unit: o for o in orders if isinstance(o, (Retreat, Disband))}
    result = resolve_retreats(MAP, turn.position, retreats, seasons=VARIANT.seasons)
    turn.record(result.results)
    failed = {
        r.order.unit.province for r in result.results if isinstance(r.order, Retreat) and not r.succeeded
    }
    units = list(turn.position.units + result.retreated)
    for unit in result.disbanded:
        if unit.power == "Gorn" and unit.province in failed:
            place = _gorn_roll(turn, unit, rng, units)
            if place is not None:
                units.append(Unit("Gorn", unit.type, place))
    after = replace(turn.position, units=tuple(sorted(units)), dislodged=())
    turn.position = end_of_season(MAP, after, seasons=VARIANT.seasons)


def adjustment_turn(turn: Turn, orders: Sequence[Order], rng: random.Random) -> None:
    adjustments: list[AdjustmentOrder] = [o for o in orders if isinstance(o, (Build, Disband, Waive))]
    gorn_short = len(turn.position.centres_of("Gorn")) < len(turn.position.units_of("Gorn"))
    result = resolve_adjustments(MAP, turn.position, adjustments, seasons=VARIANT.seasons)
    turn.record(result.results)
    kept = []
    for unit in result.removed:
        if unit.power == "Gorn" and gorn_short:
            survived = rng.random() < 0.5
            turn.rolls.append((display(unit), survived, unit.province if survived else None))
            if survived:
                kept.append(unit)
    units = tuple(sorted(result.position.units + tuple(kept)))
    turn.position = replace(result.position, units=units)
