"""A movement phase: check the orders, resolve every decision with the generic resolver, then read
the outcome off the settled decisions (who moved, who was dislodged, where standoffs happened)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.diplomacy._board import Board, board_orders, convoyed_moves
from engine.diplomacy._convoy import convoy_holds, has_route
from engine.diplomacy._legality import check_movement_order
from engine.diplomacy._map import Map
from engine.diplomacy._move import (
    attack_strength,
    defend_strength,
    hold_strength,
    move_succeeds,
    prevent_strength,
)
from engine.diplomacy._orders import Convoy, Move, MovementOrder, Support, Unit
from engine.diplomacy._phases import STANDARD_SEASONS, after_movement
from engine.diplomacy._position import DislodgedUnit, Position, Season
from engine.diplomacy._resolver import Resolve, Resolver
from engine.diplomacy._results import (
    Bounced,
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
)
from engine.diplomacy._support import cutter, dislodger, is_matched, support_given


def resolve_movement(
    map: Map,
    position: Position,
    orders: Mapping[Unit, MovementOrder],
    *,
    seasons: Sequence[Season] = STANDARD_SEASONS,
) -> MovementResult:
    """Adjudicate one movement phase. Units without a (legal) order hold."""
    checked: dict[MovementOrder, MovementOrder | Illegal | Duplicate] = {}
    legal: dict[str, MovementOrder] = {}
    for order in orders.values():
        outcome = check_movement_order(map, position, order)
        if isinstance(outcome, Illegal):
            checked[order] = outcome
        elif outcome.unit.province in legal:
            checked[order] = Duplicate()  # the first order given for a unit stands
        else:
            checked[order] = legal[outcome.unit.province] = outcome
    ordered = board_orders(position.units, legal)
    board = Board(map, ordered, convoyed_moves(map, ordered))
    resolver = Resolver(
        lambda key, resolve: _adjudicate(board, key, resolve), lambda c: _backup_rule(board, c)
    )
    for province in sorted(ordered):
        resolver.resolve(province)
    resolve = resolver.resolve
    results = tuple(
        OrderResult(order, False, outcome)
        if isinstance(outcome, Illegal | Duplicate)
        else _result(board, order, outcome.unit.province, resolve)
        for order, outcome in checked.items()
    )
    units, dislodged = _new_units(board, resolve)
    contested = _standoffs(board, units, resolve)
    return MovementResult(
        results=results,
        units=units,
        dislodged=dislodged,
        contested=contested,
        position=after_movement(map, position, units, dislodged, contested, seasons=seasons),
    )


def _adjudicate(board: Board, province: str, resolve: Resolve) -> bool:
    order = board.orders[province]
    if isinstance(order, Move):
        return move_succeeds(board, province, resolve)
    if isinstance(order, Support):
        return support_given(board, province, resolve)
    if isinstance(order, Convoy):
        return convoy_holds(board, province, resolve)
    return dislodger(board, province, resolve) is None


def _backup_rule(board: Board, cycle: Sequence[str]) -> dict[str, bool]:
    """A cycle of moves only is a circular movement: every move in it succeeds. Any other cycle
    is a convoy paradox, settled by the Szykman rule: the convoyed armies in it hold."""
    if all(isinstance(board.orders[p], Move) for p in cycle):
        return dict.fromkeys(cycle, True)
    armies = {o.army for p in cycle if isinstance(o := board.orders[p], Convoy)}
    armies |= {p for p in cycle if p in board.by_convoy}
    board.paradox |= armies
    return {p: False for p in cycle if p in armies or isinstance(board.orders[p], Convoy)}


def _result(board: Board, ordered: MovementOrder, province: str, resolve: Resolve) -> OrderResult:
    order = board.orders[province]
    reason: Reason | None
    if isinstance(order, Move):
        reason = None if resolve(province) else _why_move_failed(board, province, resolve)
    elif isinstance(order, Support):
        reason = _why_support_failed(board, province, resolve)
    elif isinstance(order, Convoy):
        reason = _why_convoy_failed(board, province, resolve)
    else:
        by = dislodger(board, province, resolve)
        reason = None if by is None else Dislodged(by)
    return OrderResult(ordered, reason is None, reason)


def _why_move_failed(board: Board, origin: str, resolve: Resolve) -> Reason:
    if origin in board.paradox:
        return ConvoyParadox()
    if not has_route(board, origin, resolve):
        return NoConvoyRoute()
    target = board.target(origin)
    attack = attack_strength(board, origin, resolve)
    opponent = board.head_to_head(origin)
    by = []
    if opponent is not None:
        if attack <= defend_strength(board, opponent, resolve):
            by.append(opponent)
    elif attack <= hold_strength(board, target, resolve):
        by.append(target)
    by += [
        o for o in board.moves_into(target) if o != origin and attack <= prevent_strength(board, o, resolve)
    ]
    return Bounced(tuple(by))


def _why_support_failed(board: Board, province: str, resolve: Resolve) -> Reason | None:
    by = dislodger(board, province, resolve)
    if by is not None:
        return Dislodged(by)
    if not is_matched(board, province):
        return Unmatched()
    cut = cutter(board, province, resolve)
    return None if cut is None else SupportCut(cut)


def _why_convoy_failed(board: Board, province: str, resolve: Resolve) -> Reason | None:
    order = board.orders[province]
    assert isinstance(order, Convoy)
    by = dislodger(board, province, resolve)
    if by is not None:
        return Dislodged(by)
    if province not in board.convoys_for(order.army):
        return Unmatched()
    return ConvoyParadox() if order.army in board.paradox else None


def _new_units(board: Board, resolve: Resolve) -> tuple[tuple[Unit, ...], tuple[DislodgedUnit, ...]]:
    units: list[Unit] = []
    dislodged: list[DislodgedUnit] = []
    for province, order in board.orders.items():
        unit = order.unit
        if isinstance(order, Move) and resolve(province):
            units.append(Unit(unit.power, unit.type, order.destination))
            continue
        by = dislodger(board, province, resolve)
        if by is None:
            units.append(unit)
        else:
            dislodged.append(DislodgedUnit(unit, by, via_convoy=by in board.by_convoy))
    return tuple(sorted(units)), tuple(sorted(dislodged, key=lambda d: d.unit))


def _standoffs(board: Board, units: tuple[Unit, ...], resolve: Resolve) -> frozenset[str]:
    """Provinces left empty although two or more units tried to enter them."""
    occupied = {u.province for u in units}
    return frozenset(
        target
        for target in {board.target(p) for p, o in board.orders.items() if isinstance(o, Move)}
        if target not in occupied
        and sum(1 for o in board.moves_into(target) if has_route(board, o, resolve)) >= 2
    )
