"""The phase machine around the adjudicator: skipped phases, centres changing hands after Fall,
retreat options, civil disorder and the solo win."""

from __future__ import annotations

from engine.diplomacy import (
    STANDARD,
    Bounced,
    Build,
    Disband,
    DislodgedUnit,
    Duplicate,
    Hold,
    Illegal,
    Move,
    MovementOrder,
    NoneAllowed,
    Phase,
    Retreat,
    Support,
    Unit,
    UnitType,
    make_position,
    resolve_adjustments,
    resolve_movement,
    resolve_retreats,
    retreat_options,
    solo_winner,
)

MAP = STANDARD.map
START = STANDARD.start()


def _orders(*orders: MovementOrder) -> dict[Unit, MovementOrder]:
    return {o.unit: o for o in orders}


def test_spring_without_dislodgement_goes_straight_to_fall() -> None:
    result = resolve_movement(MAP, START, {})
    assert result.position.phase == Phase(1901, "fall", "movement")
    assert result.position.units == START.units
    assert result.results == ()


def test_quiet_fall_skips_retreats_and_adjustments() -> None:
    fall = make_position(
        phase=Phase(1901, "fall", "movement"),
        units=[(u.power, u.type, u.location) for u in START.units],
        supply_centers=START.supply_centers,
    )
    after = resolve_movement(MAP, fall, {}).position
    assert after.phase == Phase(1902, "spring", "movement")


def test_fall_capture_changes_owner_and_leads_to_builds() -> None:
    fall = make_position(
        phase=Phase(1901, "fall", "movement"),
        units=[("France", "A", "pic"), ("France", "A", "par")],
        supply_centers={"France": ["par", "bre", "mar"], "England": ["lon"]},
    )
    after = resolve_movement(MAP, fall, _orders(Move(Unit("France", "A", "pic"), "bel"))).position
    assert after.owner("bel") == "France"
    assert after.phase == Phase(1901, "winter", "adjustment")
    built = resolve_adjustments(MAP, after, [Build("France", "F", "bre"), Build("France", "A", "mar")])
    assert [r.succeeded for r in built.results] == [True, True]
    assert built.position.phase == Phase(1902, "spring", "movement")
    extra = resolve_adjustments(
        MAP, after, [Build("France", "F", "bre"), Build("France", "A", "mar"), Build("France", "A", "par")]
    )
    assert not extra.results[2].succeeded


def _dislodged_in_tri() -> tuple[Phase, list[tuple[str, UnitType, str]]]:
    return Phase(1901, "spring", "retreat"), [("Italy", "A", "tri"), ("Italy", "A", "ven")]


def test_retreat_options_exclude_attacker_origin_occupied_and_contested() -> None:
    phase, units = _dislodged_in_tri()
    fleet = DislodgedUnit(Unit("Austria", "F", "tri"), attacker_from="ven")
    position = make_position(phase=phase, units=units, dislodged=[fleet], contested=["alb"])
    assert retreat_options(MAP, position, fleet) == ("adr",)
    army = DislodgedUnit(Unit("Austria", "A", "tri"), attacker_from="adr", via_convoy=True)
    position = make_position(phase=phase, units=[("Italy", "A", "alb")], dislodged=[army])
    # An attacker that came by convoy does not close its origin (DATC 4.A.5) -- but adr is sea.
    assert "alb" not in retreat_options(MAP, position, army)
    assert set(retreat_options(MAP, position, army)) == {"bud", "ser", "tyr", "ven", "vie"}


def test_retreats_to_one_place_both_disband_and_no_order_disbands() -> None:
    phase = Phase(1901, "fall", "retreat")
    a = DislodgedUnit(Unit("Austria", "A", "boh"), attacker_from="mun")
    b = DislodgedUnit(Unit("Russia", "A", "gal"), attacker_from="ukr")
    c = DislodgedUnit(Unit("Turkey", "A", "rum"), attacker_from="bul")
    position = make_position(
        phase=phase,
        units=[("Germany", "A", "boh"), ("Russia", "A", "gal")],
        dislodged=[a, b, c],
        supply_centers={"Austria": ["vie"], "Turkey": ["ank"]},
    )
    result = resolve_retreats(MAP, position, {a.unit: Retreat(a.unit, "vie"), b.unit: Retreat(b.unit, "vie")})
    assert [r.reason for r in result.results] == [Bounced(("gal",)), Bounced(("boh",))]
    assert set(result.disbanded) == {a.unit, b.unit, c.unit}
    assert result.position.phase.kind in {"adjustment", "movement"}
    assert result.position.dislodged == ()


def test_civil_disorder_removes_the_unit_farthest_from_its_centres() -> None:
    position = make_position(
        phase=Phase(1901, "winter", "adjustment"),
        units=[("England", "F", "nth"), ("England", "A", "yor"), ("England", "F", "mao")],
        supply_centers={"England": ["lon", "edi"]},
    )
    result = resolve_adjustments(MAP, position, [])
    assert result.removed == (Unit("England", "F", "mao"),)
    wrong = resolve_adjustments(MAP, position, [Build("England", "A", "lon")])
    assert wrong.results[0].reason == NoneAllowed()


def test_ordered_disband_is_used() -> None:
    position = make_position(
        phase=Phase(1901, "winter", "adjustment"),
        units=[("England", "F", "nth"), ("England", "A", "yor")],
        supply_centers={"England": ["lon"]},
    )
    result = resolve_adjustments(MAP, position, [Disband(Unit("England", "A", "yor"))])
    assert result.removed == (Unit("England", "A", "yor"),)
    assert result.position.units == (Unit("England", "F", "nth"),)


def test_solo_win_at_eighteen_centres() -> None:
    centres = sorted(p for p, v in MAP.provinces.items() if v.supply_center)
    position = make_position(
        phase=Phase(1910, "winter", "adjustment"), units=[], supply_centers={"France": centres[:18]}
    )
    assert solo_winner(position, STANDARD.solo_centers) == "France"
    fewer = make_position(
        phase=Phase(1910, "winter", "adjustment"), units=[], supply_centers={"France": centres[:17]}
    )
    assert solo_winner(fewer, STANDARD.solo_centers) is None


def test_support_hold_and_illegal_results_are_reported() -> None:
    orders = _orders(
        Move(Unit("France", "A", "par"), "lon"),
        Support(Unit("Germany", "A", "mun"), "ber"),
        Support(Unit("France", "A", "mar"), "par"),
        Hold(Unit("Germany", "A", "ber")),
    )
    result = resolve_movement(MAP, START, orders)
    verdicts = {str(r.order): (r.succeeded, r.reason) for r in result.results}
    assert verdicts["A par - lon"][1] is not None and result.results[0].illegal
    assert verdicts["A mun S ber"] == (True, None)
    assert verdicts["A mar S par"] == (False, Illegal("cannot reach"))
    assert verdicts["A ber H"] == (True, None)


def test_second_order_for_a_unit_is_a_duplicate() -> None:
    first = Move(Unit("France", "A", "par"), "bur")
    second = Move(Unit("France", "A", "par/xx"), "pic")  # another key for the same army
    result = resolve_movement(MAP, START, {first.unit: first, second.unit: second})
    assert [r.succeeded for r in result.results] == [True, False]
    assert result.results[1].reason == Duplicate()
    assert Unit("France", "A", "bur") in result.units
