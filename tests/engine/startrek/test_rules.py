"""Star Trek adjudication and abilities, one scenario each: ships on every layer, troops in the core
and convoyed through hyperspace, supports on the supporter's own layer, and every faction's ability
with its limits."""

from __future__ import annotations

import random
from dataclasses import replace

from engine.core import Resolution, Submission
from engine.diplomacy import DislodgedUnit, Phase, Unit
from engine.startrek import STARTREK, Options, StarTrekState
from engine.startrek._events import (
    AbilityUsed,
    AllianceNoted,
    GameDrawn,
    GameWon,
    GornRolled,
    IntelligenceReceived,
    LatinumCounted,
    OrderResolved,
)
from tests.helpers.startrek import PLAYER_OF, board, gorn_seed, named, play, result_of


def test_ships_cross_layers_and_troops_are_convoyed_through_hyperspace() -> None:
    state = board(
        [
            ("Federation", "A", "earth"),
            ("Federation", "F", "hyperspace_alpha"),
            ("Federation", "F", "hyperspace_beta"),
            ("Klingon", "F", "khitomer"),
        ]
    )
    done = play(
        state,
        {
            "Federation": "troop earth - qonos\nship hyperspace_alpha C troop earth - qonos\n"
            "ship hyperspace_beta C troop earth - qonos",
            "Klingon": "ship khitomer - transwarp_north",
        },
    )
    assert result_of(done, "troop earth - qonos") == "succeeds"
    assert result_of(done, "ship khitomer - transwarp_north") == "succeeds"
    assert done.state.position.unit_in("qonos") is not None


def test_troops_cannot_enter_hyperspace() -> None:
    state = board([("Federation", "A", "earth")])
    submission = STARTREK.parse(state, "fed", "troop earth - hyperspace_alpha")
    assert not submission.orders
    assert "troop cannot go to hyperspace" in submission.errors[0].reason


def test_support_only_on_the_supporters_own_layer() -> None:
    state = board(
        [
            ("Federation", "F", "earth"),
            ("Federation", "F", "hyperspace_beta"),
            ("Klingon", "F", "hyperspace_alpha"),
        ]
    )
    orders = "ship hyperspace_beta - hyperspace_alpha\nship earth S ship hyperspace_beta - hyperspace_alpha"
    assert "own layer" in " ".join(STARTREK.parse(state, "fed", orders).notes)
    done = play(state, {"Federation": orders})
    assert result_of(done, "ship earth S ship hyperspace_beta - hyperspace_alpha") == "illegal"
    assert result_of(done, "ship hyperspace_beta - hyperspace_alpha") == "fails"


def test_federation_immunity_once_per_game() -> None:
    units = [("Federation", "F", "earth"), ("Klingon", "F", "vulcan"), ("Klingon", "F", "tellar")]
    attack = {
        "Klingon": "ship vulcan - earth\nship tellar S ship vulcan - earth",
        "Federation": "immunity earth",
    }
    done = play(board(units), attack)
    assert result_of(done, "ship vulcan - earth") == "fails"
    used = named(done.events, AbilityUsed)
    assert used and "cannot be dislodged" in used[0].effect
    again = replace(board(units), used=done.state.used)
    assert "once per game" in STARTREK.parse(again, "fed", "immunity earth").errors[0].reason
    assert result_of(play(board(units), {"Klingon": attack["Klingon"]}), "ship vulcan - earth") == "succeeds"


def test_klingon_rage_adds_to_attack_and_takes_from_defence() -> None:
    units = [("Klingon", "F", "qonos"), ("Federation", "F", "narendra"), ("Klingon", "F", "boreth")]
    calm = play(board(units), {"Klingon": "ship qonos - narendra"})
    assert result_of(calm, "ship qonos - narendra") == "fails"
    angry = play(board(units), {"Klingon": "rage on\nship qonos - narendra"})
    assert result_of(angry, "ship qonos - narendra") == "succeeds"
    assert angry.state.rage
    # the rage stays on: an unsupported Klingon holding unit now falls to a single attack
    later = replace(board([("Klingon", "F", "qonos"), ("Federation", "F", "narendra")]), rage=True)
    hit = play(later, {"Federation": "ship narendra - qonos"})
    assert result_of(hit, "ship narendra - qonos") == "succeeds"
    off = play(later, {"Klingon": "rage off", "Federation": "ship narendra - qonos"})
    assert result_of(off, "ship narendra - qonos") == "fails" and not off.state.rage


def _window_game() -> tuple[StarTrekState, Resolution]:
    units = [("Romulan", "F", "romulus"), ("Klingon", "F", "qonos"), ("Cardassian", "F", "cardassia")]
    state = board(units, window=True)
    first = play(state, {"Romulan": "tal shiar klingon", "Klingon": "ship qonos - organia"})
    return state, first


def test_tal_shiar_and_obsidian_order_open_an_intelligence_window() -> None:
    _, first = _window_game()
    window = first.state
    assert STARTREK.phase(window).kind == "intelligence"
    assert STARTREK.awaiting(window) == {"rom", "car"}  # the Ferengi have no unit here
    assert window.informed == {"rom", "car"}
    intel = named(first.events, IntelligenceReceived)
    tal_shiar = next(e for e in intel if e.faction == "Romulan")
    assert tal_shiar.audience == frozenset({"rom"}) and tal_shiar.lines == ("ship qonos - organia",)
    obsidian = next(e for e in intel if e.faction == "Cardassian")
    assert obsidian.audience == frozenset({"car"}) and obsidian.lines == ("Klingon: a move into organia",)
    assert not named(first.events, OrderResolved)
    amended = STARTREK.parse(window, "rom", "ship romulus - galorndon")
    assert "main deadline" in STARTREK.parse(window, "rom", "tal shiar klingon").errors[0].reason
    done = STARTREK.resolve(
        window, {"rom": amended, "car": STARTREK.default(window, "car", random.Random())}, random.Random()
    )
    assert result_of(done, "ship qonos - organia") == "succeeds"
    assert result_of(done, "ship romulus - galorndon") == "succeeds"
    assert "tal shiar" in done.state.used


def test_intelligence_without_a_window_is_information_only() -> None:
    state = board([("Romulan", "F", "romulus"), ("Klingon", "F", "qonos")])
    done = play(state, {"Romulan": "tal shiar klingon", "Klingon": "ship qonos - organia"})
    intel = named(done.events, IntelligenceReceived)
    assert intel and not intel[0].window
    assert result_of(done, "ship qonos - organia") == "succeeds"


def test_ferengi_income_bribe_sabotage_and_purchase() -> None:
    units = [("Ferengi", "F", "ferenginar"), ("Klingon", "F", "qonos"), ("Klingon", "F", "boreth")]
    centres = {"Ferengi": ["ferenginar", "volchok", "clarus"]}
    state = board(units, centres, latinum=110)
    orders = {
        "Ferengi": "bribe klingon\nsabotage klingon qonos\nbuy bajor",
        "Klingon": "ship qonos - organia\nship boreth - khitomer",
    }
    done = play(state, orders)
    assert result_of(done, "ship qonos - organia") == "fails"
    assert result_of(done, "ship boreth - khitomer") == "succeeds"
    assert "bajor" in done.state.position.centres_of("Ferengi")
    assert done.state.latinum == 110 - 20 - 30 - 50 + 4  # income: one per centre, bajor included
    assert named(done.events, LatinumCounted)[0].income == 4
    assert named(done.events, LatinumCounted)[0].audience == frozenset({"fer"})


def test_an_unaffordable_bribe_sabotage_or_purchase_is_refused_in_the_receipt_with_its_price() -> None:
    """Rulings (2026-11-24). Latinum goes to the bribe first, then sabotage, then a purchase."""
    units = [("Ferengi", "F", "ferenginar"), ("Klingon", "F", "qonos")]
    poor = board(units, latinum=10)
    refused = STARTREK.parse(poor, "fer", "bribe klingon").errors[0]
    assert (refused.line, refused.reason) == ("bribe klingon", "a bribe costs 20 latinum; you have 10")
    assert (
        "sabotage costs 30 latinum" in STARTREK.parse(poor, "fer", "sabotage klingon qonos").errors[0].reason
    )
    assert "a centre costs 50 latinum" in STARTREK.parse(poor, "fer", "buy bajor").errors[0].reason
    some = STARTREK.parse(board(units, latinum=60), "fer", "buy bajor\nsabotage klingon qonos\nbribe klingon")
    assert some.orders == ("sabotage klingon qonos", "bribe klingon")
    assert (
        some.errors[0].reason == "a centre costs 50 latinum; you have 60 (10 once the other lines are paid)"
    )


def test_a_bribe_standing_from_an_earlier_mail_that_cannot_be_paid_is_refused_in_the_report() -> None:
    state = board([("Ferengi", "F", "ferenginar"), ("Klingon", "F", "qonos")], latinum=40)
    lines = ("bribe klingon", "sabotage klingon qonos")  # two mails, each affordable alone
    done = STARTREK.resolve(state, {"fer": Submission("fer", lines)}, random.Random(0))
    refusals = {e.ability: e.refused for e in named(done.events, AbilityUsed) if e.refused}
    assert refusals == {"sabotage klingon qonos": "sabotage costs 30 latinum"}
    assert named(done.events, IntelligenceReceived)[0].source == "bribe of the Klingon"
    done = STARTREK.resolve(replace(state, latinum=10), {"fer": Submission("fer", lines)}, random.Random(0))
    refusals = {e.ability: e.refused for e in named(done.events, AbilityUsed) if e.refused}
    assert refusals["bribe klingon"] == "a bribe costs 20 latinum"
    assert not named(done.events, IntelligenceReceived)


def test_ferengi_win_with_100_latinum() -> None:
    state = board(
        [("Ferengi", "F", "ferenginar")], {"Ferengi": ["ferenginar", "volchok", "clarus"]}, latinum=97
    )
    done = play(state, {})
    assert done.state.result is not None and done.state.result.winners == ("fer",)


def test_breen_freeze_stops_entry_exit_and_support() -> None:
    units = [
        ("Breen", "F", "breen"),
        ("Federation", "F", "frozen_passage"),
        ("Klingon", "F", "breen_gateway"),
        ("Klingon", "F", "benzar"),
    ]
    orders = {
        "Breen": "freeze frozen_passage\nship breen - frozen_passage",
        "Federation": "ship frozen_passage - breen_gateway",
        "Klingon": "ship benzar - breen_gateway\nship breen_gateway S ship benzar - frozen_passage",
    }
    done = play(board(units), orders)
    assert result_of(done, "ship breen - frozen_passage") == "fails"
    assert result_of(done, "ship frozen_passage - breen_gateway") == "fails"
    assert result_of(done, "ship breen_gateway S ship benzar - frozen_passage") != "succeeds"
    assert "freeze" in done.state.used
    assert "once per game" in STARTREK.parse(done.state, "bre", "freeze benzar").errors[0].reason


def test_gorn_unit_with_no_retreat_survives_half_the_time() -> None:
    units = [
        ("Gorn", "F", "void_passage"),
        ("Breen", "F", "quantum_corridor"),
        ("Breen", "F", "gornar"),
    ]
    orders = {"Breen": "ship gornar - void_passage\nship quantum_corridor S ship gornar - void_passage"}
    lucky = play(board(units), orders, seed=gorn_seed(True))
    roll = named(lucky.events, GornRolled)[0]
    assert roll.survived and roll.place == "gornar"  # the nearest free home
    assert lucky.state.position.unit_in("gornar") is not None
    unlucky = play(board(units), orders, seed=gorn_seed(False))
    assert not named(unlucky.events, GornRolled)[0].survived
    assert not unlucky.state.position.units_of("Gorn")


def test_solo_threshold_per_faction() -> None:
    homes = ["romulus", "remus", "rator", "abraxas", "galorndon", "nimbus", "cestus"]
    state = board([("Romulan", "F", "seudath")], {"Romulan": homes}, season="fall")
    done = play(state, {"Romulan": "ship seudath H"})
    assert done.state.result is not None and done.state.result.winners == ("rom",)
    assert named(done.events, GameWon)


def test_allied_victory_needs_both_to_confirm() -> None:
    breen = ["breen", "portas", "dozaria", "breen_core", "breen_citadel", "breen_fortress"]
    breen += ["breen_gateway", "gamma_outpost", "freecloud", "risa", "trill", "betazed"]
    cardassia = ["cardassia", "chintoka", "septimus", "kelvas", "rakal", "bajor"]
    cardassia += ["ds9", "cestus", "starbase375", "benzar", "organia", "archanis"]
    state = board(
        [("Breen", "F", "breen"), ("Cardassian", "F", "cardassia")], {"Breen": breen, "Cardassian": cardassia}
    )
    one = play(state, {"Breen": "ally with cardassian"})
    assert one.state.result is None
    assert named(one.events, AllianceNoted)[0].audience == frozenset({"bre"})
    both = play(one.state, {"Cardassian": "ally with breen"})
    assert both.state.result is not None and both.state.result.winners == ("bre", "car")
    assert named(both.events, AllianceNoted)[0].audience == frozenset({"bre", "car"})


def test_draw_when_2380_begins() -> None:
    state = board([("Federation", "F", "earth")], {"Federation": ["earth"]}, season="fall", year=2379)
    done = play(state, {})
    assert done.state.result is not None and "draw" in done.state.result.reason
    assert named(done.events, GameDrawn)
    assert PLAYER_OF["Federation"] in done.state.result.winners


def test_a_gorn_unit_removed_for_lack_of_centres_may_stay() -> None:
    state = board(
        [("Gorn", "F", "gornar"), ("Gorn", "F", "void_passage")], {"Gorn": ["gornar"]}, season="fall"
    )
    adjusting = play(state, {"Gorn": "ship gornar H\nship void_passage H"}).state
    assert adjusting.position.phase.kind == "adjustment"
    outcomes = {}
    for seed in range(40):
        done = play(adjusting, {}, seed=seed)  # silent: civil disorder removes one ship, then the roll
        (roll,) = named(done.events, GornRolled)
        outcomes[roll.survived] = len(done.state.position.units_of("Gorn"))
    assert outcomes == {True: 2, False: 1}  # with a fixed seed: both fates happen, kept units stay put


def test_ferengi_fall_income_is_the_centres_held_after_the_movement_whatever_happens_elsewhere() -> None:
    """Rulings (2026-11-24): 1 latinum per centre the Ferengi control after the Fall movement. A
    dislodgement elsewhere puts the board's ownership update off until after the retreats; the
    income must not wait for it."""
    ferengi = [("Ferengi", "F", "ferenginar")]
    centres = {"Ferengi": ["ferenginar", "volchok", "clarus"], "Federation": ["organia"]}
    battle = [("Klingon", "F", "qonos"), ("Klingon", "F", "boreth"), ("Federation", "F", "organia")]
    orders = {"Ferengi": "ship ferenginar - risa"}
    quiet = play(board(ferengi + battle, centres, season="fall"), orders)
    fought = play(
        board(ferengi + battle, centres, season="fall"),
        {**orders, "Klingon": "ship qonos - organia\nship boreth S ship qonos - organia"},
    )
    assert fought.state.position.phase.kind == "retreat", "the Federation ship was dislodged"
    incomes = [named(r.events, LatinumCounted)[0].income for r in (quiet, fought)]
    assert incomes == [4, 4]  # ferenginar, volchok, clarus and risa


def test_a_gorn_unit_whose_retreat_failed_survives_half_the_time() -> None:
    """Rulings (2026-11-24): the roll applies to every Gorn unit destroyed after being dislodged."""
    retreating = board(
        [("Breen", "F", "gornar"), ("Klingon", "F", "quantum_corridor"), ("Gorn", "F", "seudath")]
    )
    position = replace(
        retreating.position,
        phase=Phase(2370, "spring", "retreat"),
        dislodged=(
            DislodgedUnit(Unit("Gorn", "F", "gornar"), "cestus"),
            DislodgedUnit(Unit("Breen", "F", "quantum_corridor"), "breen_citadel"),
        ),
    )
    state = replace(retreating, position=position)
    orders = {"Gorn": "ship gornar R void_passage", "Breen": "ship quantum_corridor R void_passage"}
    lucky = play(state, orders, seed=gorn_seed(True))
    assert result_of(lucky, "ship gornar R void_passage") == "fails"  # both bounce
    roll = named(lucky.events, GornRolled)[0]
    assert roll.unit == "ship gornar" and roll.survived and roll.place == "ssgaron"
    assert {u.province for u in lucky.state.position.units_of("Gorn")} == {"seudath", "ssgaron"}
    assert lucky.state.position.phase.kind == "movement"
    unlucky = play(state, orders, seed=gorn_seed(False))
    assert not named(unlucky.events, GornRolled)[0].survived
    assert {u.province for u in unlucky.state.position.units_of("Gorn")} == {"seudath"}
    chosen = play(state, {"Gorn": "ship gornar D"}, seed=gorn_seed(True))
    assert not named(chosen.events, GornRolled), "a chosen disband is not rolled for"


def _noted(resolution: Resolution) -> list[tuple[str, str, frozenset[str] | None]]:
    return [(e.faction, e.status, e.audience) for e in named(resolution.events, AllianceNoted)]


def test_breaking_an_alliance_is_told_to_the_other_side() -> None:
    state = board([("Breen", "F", "breen"), ("Cardassian", "F", "cardassia")])
    one_sided = play(state, {"Breen": "ally with cardassian"}).state
    quietly = play(one_sided, {"Breen": "break with cardassian"})
    assert _noted(quietly) == [("Breen", "withdrawn", frozenset({"bre"}))]  # the Cardassian never knew
    allied = play(one_sided, {"Cardassian": "ally with breen"}).state
    broken = play(allied, {"Breen": "break with the cardassians"})
    assert _noted(broken) == [("Breen", "withdrawn", frozenset({"bre", "car"}))]
    assert ("Breen", "Cardassian") not in broken.state.alliances


def test_an_alliance_both_sides_declare_openly_is_public() -> None:
    state = board([("Breen", "F", "breen"), ("Cardassian", "F", "cardassia"), ("Gorn", "F", "gornar")])
    asked = play(state, {"Breen": "ally openly with cardassian", "Gorn": "ally with cardassian"})
    assert {f: seen for f, _, seen in _noted(asked)} == {
        "Breen": frozenset({"bre"}),
        "Gorn": frozenset({"gor"}),
    }
    secretly = play(asked.state, {"Cardassian": "ally with breen\nally openly with gorn"})
    assert all(seen is not None for _, _, seen in _noted(secretly))  # one side asked: still secret
    public = play(secretly.state, {"Cardassian": "ally openly with breen"})
    assert _noted(public) == [("Cardassian", "confirmed", None)]
    broken = play(public.state, {"Breen": "break with cardassian"})
    assert _noted(broken) == [("Breen", "withdrawn", None)]  # a public alliance ends in public
    assert STARTREK.from_json(STARTREK.to_json(public.state)).openly == public.state.openly


def test_tal_shiar_and_a_bribe_reveal_every_line_abilities_included() -> None:
    units = [("Romulan", "F", "romulus"), ("Klingon", "F", "qonos"), ("Ferengi", "F", "ferenginar")]
    klingon = "ship qonos - organia\nrage on\nally with gorn"
    orders = {"Romulan": "tal shiar klingon", "Ferengi": "bribe klingon", "Klingon": klingon}
    done = play(board(units, latinum=20), orders)
    lines = {e.source: e.lines for e in named(done.events, IntelligenceReceived)}
    whole = ("ship qonos - organia", "rage on", "ally with gorn")
    assert lines == {"Tal Shiar on the Klingon": whole, "bribe of the Klingon": whole}


def test_ferengi_spending_is_private_while_latinum_is() -> None:
    units = [("Ferengi", "F", "ferenginar"), ("Klingon", "F", "qonos")]
    orders = {"Ferengi": "sabotage klingon qonos\nbuy bajor", "Klingon": "ship qonos - organia"}
    private = play(board(units, latinum=80), orders)
    assert {e.ability: e.audience for e in named(private.events, AbilityUsed)} == {
        "sabotage klingon qonos": frozenset({"fer"}),
        "buy bajor": frozenset({"fer"}),
    }
    told = {p: e.reason for e in named(private.events, OrderResolved) for p in e.audience or ()}
    assert told["kli"] == told["fer"] == "sabotaged"  # the victim learns why
    assert told["fed"] is None  # the others see only that it failed: no sabotage, no price
    public = replace(board(units, latinum=80), options=Options(latinum_public=True))
    done = play(public, orders)
    assert all(e.public for e in named(done.events, AbilityUsed) + named(done.events, OrderResolved))
