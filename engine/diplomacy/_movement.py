"""A movement phase: check the orders (``_legality``), resolve every decision with the generic
resolver, then read the outcome off the settled decisions (who moved, who was dislodged, where
standoffs happened)."""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Mapping, Sequence
from functools import partial

from engine.diplomacy._board import Board, make_board, map_index
from engine.diplomacy._convoy import convoy_holds, fix_routes, has_route
from engine.diplomacy._legality import CheckedOrders, check_movement_orders
from engine.diplomacy._map import Map
from engine.diplomacy._move import (
    attack_strength,
    defend_strength,
    hold_strength,
    move_succeeds,
    prevent_strength,
)
from engine.diplomacy._orders import Convoy, Hold, Move, MovementOrder, Support, Unit, moved
from engine.diplomacy._phases import STANDARD_SEASONS, after_movement
from engine.diplomacy._position import DislodgedUnit, Position, Season
from engine.diplomacy._resolver import Resolve, Resolver
from engine.diplomacy._results import (
    ConvoyParadox,
    Dislodged,
    Duplicate,
    Illegal,
    MovementResult,
    NoConvoyRoute,
    OrderResult,
    Reason,
    SupportCut,
    Unmatched,
    bounced,
)
from engine.diplomacy._support import cutters, dislodger, support_given


def resolve_movement(
    map: Map,
    position: Position,
    orders: Mapping[Unit, MovementOrder],
    *,
    seasons: Sequence[Season] = STANDARD_SEASONS,
) -> MovementResult:
    """Adjudicate one movement phase. Units without a (legal) order hold."""
    return adjudicate_movement(map, check_movement_orders(map, position, orders), seasons=seasons)


def adjudicate_movement(
    map: Map, checked: CheckedOrders, *, seasons: Sequence[Season] = STANDARD_SEASONS
) -> MovementResult:
    """``resolve_movement`` for orders already checked: the board, every decision, each order's
    result, and the position at the next phase that needs orders."""
    position = checked.position
    board = make_board(map_index(map), map.modifiers, position.units, checked.legal)
    settled = _settle(board)
    results = _results(board, checked.outcomes, settled)
    units, dislodged = _new_units(board, settled)
    contested = _standoffs(board, settled)
    return MovementResult(
        results=results,
        units=units,
        dislodged=dislodged,
        contested=contested,
        position=after_movement(map, position, units, dislodged, contested, seasons=seasons),
    )


def _settle(board: Board) -> Mapping[str, bool]:
    """Every decision, settled."""
    orders = board.orders

    def adjudicate(province: str, resolve: Resolve) -> bool:  # the rule of the province's order
        return _DECIDERS[type(orders[province])](board, province, resolve)

    fix_routes(board)
    known = _known(board)
    resolver = Resolver(adjudicate, partial(_backup_rule, board), known)
    for province in orders:  # board order: the units' order, fixed by the position
        if province not in known:  # the resolver adds to ``known`` as it goes
            resolver.resolve(province)
    return resolver.settled()


def _known(board: Board) -> dict[str, bool]:
    """The decisions that read no other. No unit dislodges, nor cuts the support of, one of its
    own power's, so: a move into a province where a unit of its power stays fails; so does a
    move nobody supports against a unit that stays (strength 1 against at least 1, unless a
    power is in a rage); a move over land into an empty province nobody else enters succeeds;
    and a hold, support or convoy that no other power moves against stands (a support is given
    if it is matched)."""
    known = {}
    attacked = set()  # staying units that another power moves against
    targets, power, rage = board.targets, board.power, board.rage
    for origin, target in targets.items():
        occupant = power.get(target)
        if occupant is None:
            if len(board.moves_into[target]) == 1 and origin not in board.by_convoy:
                known[origin] = True
        elif target not in targets:
            if occupant == power[origin]:
                known[origin] = False
                continue
            attacked.add(target)
            if origin not in board.backers and origin not in rage and target not in rage:
                known[origin] = False
    matched = board.matched
    for province, order in board.orders.items():
        if province not in targets and province not in attacked:
            known[province] = province in matched if type(order) is Support else True
    return known


def _holds(board: Board, province: str, resolve: Resolve) -> bool:
    """The decision for a hold (or an order the unit did not get): the unit is not dislodged."""
    return dislodger(board, province, resolve) is None


Decider = Callable[[Board, str, Resolve], bool]
_DECIDERS: dict[type, Decider] = {
    Move: move_succeeds,
    Support: support_given,
    Convoy: convoy_holds,
    Hold: _holds,
}

# ``OrderResult(order, succeeded, reason)`` without the Python-level ``__new__`` of a named tuple.
_new_tuple = tuple.__new__

# Reasons without fields, made once: each costs an object to build.
_NO_CONVOY_ROUTE = NoConvoyRoute()
_CONVOY_PARADOX = ConvoyParadox()
_UNMATCHED = Unmatched()


def _backup_rule(board: Board, cycle: Sequence[str]) -> dict[str, bool]:
    """A cycle of moves only is a circular movement: every move in it succeeds. Any other cycle
    is a convoy paradox, settled by the Szykman rule: the convoyed armies in it hold."""
    if all(isinstance(board.orders[p], Move) for p in cycle):
        return dict.fromkeys(cycle, True)
    armies = {o.army for p in cycle if isinstance(o := board.orders[p], Convoy)}
    armies |= {p for p in cycle if p in board.by_convoy}
    board.paradox |= armies
    return {p: False for p in cycle if p in armies or isinstance(board.orders[p], Convoy)}


def _results(
    board: Board,
    outcomes: Sequence[tuple[MovementOrder, str | Illegal | Duplicate]],
    settled: Mapping[str, bool],
) -> tuple[OrderResult, ...]:
    """Each order's result, in the order the orders were given. A decision that holds is an
    order that succeeds, except for a convoy (it may have had nobody to carry)."""
    orders = board.orders
    results = []
    for ordered, province in outcomes:
        reason: Reason | None
        if not isinstance(province, str):  # illegal, or a second order for the unit
            reason = province
        elif settled[province] and type(orders[province]) is not Convoy:
            reason = None
        else:
            reason = _why_failed(board, province, settled.__getitem__)
        results.append(_new_tuple(OrderResult, (ordered, reason is None, reason)))
    return tuple(results)


def _why_failed(board: Board, province: str, resolve: Resolve) -> Reason | None:
    """Why the order of the unit in ``province`` failed (None if it did not: a convoy may hold).
    A unit dislodged says so first, a failed move too: its player must know it has to retreat."""
    order = board.orders[province]
    by = dislodger(board, province, resolve)
    if by is not None:
        return Dislodged(by)
    if type(order) is Move:
        return _why_move_failed(board, province, resolve)
    if type(order) is Support:
        return _why_support_failed(board, province, resolve)
    if type(order) is Convoy:
        return _why_convoy_failed(board, province)
    return None


def _why_move_failed(board: Board, origin: str, resolve: Resolve) -> Reason:
    if origin in board.paradox:
        return _CONVOY_PARADOX
    if origin in board.by_convoy and not has_route(board, origin, resolve):
        return _NO_CONVOY_ROUTE
    target = board.targets[origin]
    attack = attack_strength(board, origin, resolve)
    opponent = board.opponents.get(origin)
    by = []
    if opponent is not None:
        if attack <= defend_strength(board, opponent, resolve):
            by.append(opponent)
    elif attack <= hold_strength(board, target, resolve):
        by.append(target)
    for other in board.moves_into[target]:
        if other != origin and attack <= prevent_strength(board, other, resolve):
            by.append(other)
    return bounced(tuple(by))


def _why_support_failed(board: Board, province: str, resolve: Resolve) -> Reason | None:
    """Why a support that was not dislodged failed (None if it did not)."""
    if province not in board.matched:
        return _UNMATCHED
    cut = cutters(board, province, resolve)
    return SupportCut(cut[0]) if cut else None


def _why_convoy_failed(board: Board, province: str) -> Reason | None:
    """Why a convoy that was not dislodged failed (None if it did not)."""
    order = board.orders[province]
    assert isinstance(order, Convoy)
    if province not in board.convoys.get(order.army, ()):
        return _UNMATCHED
    return _CONVOY_PARADOX if order.army in board.paradox else None


def _new_units(
    board: Board, settled: Mapping[str, bool]
) -> tuple[tuple[Unit, ...], tuple[DislodgedUnit, ...]]:
    """The units after the phase, sorted, and the units dislodged. Only the moves that succeed
    change anything: a unit that stays where one arrives is dislodged."""
    orders, targets = board.orders, board.targets
    arrived: list[Unit] = []
    dislodged: list[DislodgedUnit] = []
    gone = set()  # the provinces of the units that moved or were dislodged
    for origin, target in targets.items():
        if settled[origin]:
            move = orders[origin]
            assert isinstance(move, Move)
            arrived.append(moved(move.unit, move.destination))
            gone.add(origin)
            if _stays(board, settled, target):
                dislodged.append(DislodgedUnit(orders[target].unit, origin, origin in board.by_convoy))
                gone.add(target)
    units = [order.unit for province, order in orders.items() if province not in gone]
    for unit in arrived:  # into the sorted units that stayed: fewer comparisons than a sort
        insort(units, unit)
    return tuple(units), tuple(sorted(dislodged, key=_unit_of))


def _stays(board: Board, settled: Mapping[str, bool], province: str) -> bool:
    """Whether a unit stands in ``province`` and does not move away."""
    return province in board.orders and not (province in board.targets and settled[province])


def _unit_of(dislodged: DislodgedUnit) -> Unit:
    return dislodged.unit


def _standoffs(board: Board, settled: Mapping[str, bool]) -> frozenset[str]:
    """Provinces left empty although two or more units tried to enter them."""
    standoffs = []
    for target, origins in board.moves_into.items():
        if len(origins) < 2 or any(settled[o] for o in origins):
            continue  # one attacker at most, or one got in
        if _stays(board, settled, target):
            continue  # its own unit stayed
        if sum(1 for o in origins if has_route(board, o, settled.__getitem__)) >= 2:
            standoffs.append(target)
    return frozenset(standoffs)
