"""Veneer's rules, one scenario each: setup, income, votes, actions, troops, attacks, vetoes,
interception, lending, attacking an ally, coins, alliances, elimination, victory, forced attacks,
and the skipping of phases nobody has a choice in."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine.core import Event, visible_to
from engine.veneer import VENEER, Attack, Debt, Offer
from engine.veneer import _events as ev
from tests.helpers.veneer import PLAYERS, run, scene


def of(events: list[Event], kind: type[Event]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


# --- setup ----------------------------------------


@given(st.integers(3, 9), st.integers(0, 10_000))
def test_everyone_targets_two_and_is_targeted_by_two_never_itself(n: int, seed: int) -> None:
    names = [f"P{i}" for i in range(n)]
    state = VENEER.setup(names, {}, random.Random(seed))
    targeted = Counter(t for s in state.seats for t in s.targets)
    assert all(len(set(s.targets)) == 2 and s.name not in s.targets for s in state.seats)
    assert all(targeted[name] == 2 for name in names)
    assert all((s.coins, s.troops, len(s.dealt)) == (3, 1, 3) for s in state.seats)
    assert state.alliances == ()


def test_with_three_players_each_targets_both_others() -> None:
    state = VENEER.setup(PLAYERS[:3], {}, random.Random(5))
    assert all(set(s.targets) == set(PLAYERS[:3]) - {s.name} for s in state.seats)


def test_faction_choice_defaults_to_the_first_dealt_and_targets_are_told_privately() -> None:
    state = VENEER.setup(PLAYERS[:3], {}, random.Random(1))
    assert VENEER.awaiting(state) == frozenset(PLAYERS[:3])
    pick = state.seat("Barney").dealt[2]
    after, events = run(state, {"Barney": f"choose faction {pick}"})
    assert after.seat("Barney").faction == pick
    assert after.seat("Agatha").faction == state.seat("Agatha").dealt[0]
    dealt = of(events, ev.TargetsDealt)
    assert all(e.audience == frozenset({e.player}) for e in dealt)
    assert not [
        e for e in visible_to(events, "Agatha") if isinstance(e, ev.TargetsDealt) and e.player != "Agatha"
    ]


def test_a_role_fixes_the_faction() -> None:
    state = VENEER.setup(PLAYERS[:3], {"roles": {"Agatha": "merch"}}, random.Random(1))
    assert state.seat("Agatha").faction == "Merchants" and "Agatha" not in VENEER.awaiting(state)


# --- start: income and the flipped card ----------------------------------------


def test_income_is_one_plus_allies_and_each_ally_gains_one() -> None:
    state = scene(stage="start", pile=("Windfall",), alliances=(("Agatha", "Barney"), ("Agatha", "Charles")))
    after, events = run(state, {})
    assert (
        after.seat("Agatha").coins == 6 and after.seat("Barney").coins == 4 and after.seat("Darcy").coins == 3
    )
    assert of(events, ev.IncomeCollected)[0].allies == ("Barney", "Charles")


def test_a_flipped_action_is_placed_face_up_in_front_of_the_active_player() -> None:
    """Public since the rulings of 2026-11-24 (it was told only to its holder before)."""
    after, events = run(scene(stage="start", pile=("Sabotage", "Tithe")), {})
    assert after.seat("Agatha").hand == ("Sabotage",) and after.stage == "muster"
    drawn = of(events, ev.ActionDrawn)[0]
    assert drawn.public and (drawn.player, drawn.card) == ("Agatha", "Sabotage")
    assert [r["Actions"] for r in VENEER.ledger(after)] == ["Sabotage", "", "", ""]


def test_a_flipped_law_goes_to_a_vote_of_every_living_player() -> None:
    state = scene(stage="start", pile=("Tithe",), seats={"Darcy": {"alive": False, "coins": 0}})
    after, _ = run(state, {})
    assert after.stage == "vote" and after.flipped == "Tithe"
    assert VENEER.awaiting(after) == frozenset({"Agatha", "Barney", "Charles"})


# --- votes ----------------------------------------


def test_a_majority_passes_a_law_and_every_vote_is_shown() -> None:
    state = scene(stage="vote", flipped="Tithe")
    after, events = run(
        state, {"Agatha": "vote yes", "Barney": "yes", "Charles": "vote yes", "Darcy": "vote no"}
    )
    assert after.laws == ("Tithe",)
    ballot = of(events, ev.BallotCounted)[0]
    assert (
        ballot.passed
        and ballot.yes_voters == ("Agatha", "Barney", "Charles")
        and ballot.no_voters == ("Darcy",)
    )


def test_a_tie_fails_and_absent_players_vote_no() -> None:
    state = scene(stage="vote", flipped="Tithe")
    after, events = run(state, {"Agatha": "vote yes", "Barney": "vote yes"})
    assert after.laws == () and "Tithe" in after.discard
    assert not of(events, ev.BallotCounted)[0].passed


def test_a_secret_ballot_reveals_only_the_tally() -> None:
    state = scene(stage="vote", flipped="Tithe", laws=("Secret Ballot",))
    _, events = run(state, {"Agatha": "vote yes", "Barney": "vote yes", "Charles": "vote yes"})
    ballot = of(events, ev.BallotCounted)[0]
    assert (ballot.yes, ballot.no, ballot.yes_voters, ballot.no_voters, ballot.secret) == (3, 1, (), (), True)


def test_the_newest_law_repeals_the_others() -> None:
    state = scene(stage="vote", flipped="War Tax", laws=("Tithe",))
    after, events = run(state, {p: "vote yes" for p in PLAYERS[:3]})
    assert after.laws == ("War Tax",) and "Tithe" in after.discard
    assert of(events, ev.LawRepealed)[0].law == "Tithe"


def test_a_passed_motion_takes_effect_and_is_discarded() -> None:
    state = scene(stage="vote", flipped="Stimulus")
    after, _ = run(state, {p: "vote yes" for p in PLAYERS[:3]})
    assert [s.coins for s in after.seats] == [4, 4, 4, 4] and after.discard == ("Stimulus",)


def test_senators_vote_twice() -> None:
    state = scene(stage="vote", flipped="Tithe", seats={"Agatha": {"faction": "Senators"}})
    after, _ = run(state, {"Agatha": "vote yes", "Barney": "vote yes"})
    assert after.laws == ("Tithe",)  # 3 yes to 2 no


# --- muster: troops and attacks ----------------------------------------


def test_troops_cost_three_coins_and_can_be_reassigned() -> None:
    state = scene(seats={"Agatha": {"coins": 7}})
    after, events = run(state, {"Agatha": "buy 2 attackers\nreassign 1 to attackers"})
    seat = after.seat("Agatha")
    assert (seat.coins, seat.attackers, seat.defenders) == (1, 3, 0)
    assert of(events, ev.TroopsBought)[0].cost == 6
    assert after.stage == "end"  # no attack: RESPONSE and COMBAT are skipped


def test_buying_beyond_ones_coins_is_refused_with_the_reason() -> None:
    submission = VENEER.parse(scene(), "Agatha", "buy 2 defenders")
    assert submission.orders == () and "cost 6 coins; you have 3" in submission.errors[0].reason
    assert "must keep one" in VENEER.parse(scene(), "Agatha", "buy 1 defender").errors[0].reason


def test_smiths_pay_two_per_troop() -> None:
    after, _ = run(scene(seats={"Agatha": {"faction": "Smiths", "coins": 5}}), {"Agatha": "buy 2 defenders"})
    assert after.seat("Agatha").coins == 1 and after.seat("Agatha").defenders == 3


def test_attacks_on_several_players_each_attacker_used_once() -> None:
    state = scene(seats={"Agatha": {"attackers": 3}})
    parsed = VENEER.parse(state, "Agatha", "attack Barney with 2\nattack Charles with 1\nattack Darcy with 1")
    assert parsed.orders == ("attack Barney with 2", "attack Charles with 1")
    assert "only 0 attackers free" in parsed.errors[0].reason


def test_a_surviving_attacker_destroys_a_coin_and_zero_coins_eliminates() -> None:
    state = scene(seats={"Agatha": {"attackers": 5}, "Barney": {"defenders": 1, "coins": 2}})
    state, _ = run(state, {"Agatha": "attack Barney with 5"})
    after, events = run(state, {})  # Barney is silent: all defenders intercept
    resolved = of(events, ev.AttackResolved)[0]
    assert (resolved.attackers_lost, resolved.defenders_lost, resolved.survivors) == (2, 1, 3)
    assert after.seat("Agatha").attackers == 3
    assert not after.seat("Barney").alive and of(events, ev.PlayerEliminated)[0].player == "Barney"
    assert VENEER.told(after, events) == frozenset(PLAYERS[:4])  # the outcome, and Barney hears he is out


def test_the_attacked_may_hold_defenders_back() -> None:
    state = scene(stage="muster", seats={"Agatha": {"attackers": 2}, "Barney": {"defenders": 2}})
    state, _ = run(state, {"Agatha": "attack Barney with 2"})
    assert state.stage == "response" and VENEER.awaiting(state) == frozenset({"Barney"})
    after, _events = run(state, {"Barney": "intercept with 0"})
    assert after.seat("Barney").coins == 1 and after.seat("Barney").defenders == 2


def test_absent_defenders_all_intercept() -> None:
    state = scene(seats={"Agatha": {"attackers": 2}, "Barney": {"defenders": 2}})
    state, _ = run(state, {"Agatha": "attack Barney with 2"})
    after, _ = run(state, {})
    assert after.seat("Barney").coins == 3 and after.seat("Barney").defenders == 1  # one took both


# --- vetoes, lending, allies ----------------------------------------


def test_an_ally_of_the_attacker_vetoes_for_three_coins() -> None:
    state = scene(
        seats={"Agatha": {"attackers": 2}, "Charles": {"coins": 4}, "Barney": {"defenders": 0}},
        alliances=(("Agatha", "Charles"),),
    )
    state, _ = run(state, {"Agatha": "attack Barney with 2"})
    assert VENEER.awaiting(state) == frozenset({"Charles"})
    after, events = run(state, {"Charles": "veto Agatha's attack on Barney"})
    assert after.seat("Charles").coins == 1 and after.seat("Barney").coins == 3
    assert of(events, ev.AttackVetoed)[0].vetoers == ("Charles",)


def test_only_allies_of_the_attacker_may_veto() -> None:
    state = scene(
        stage="response",
        attacks=(),
        seats={"Agatha": {"attackers": 2}},
    )
    state = dataclasses.replace(state, attacks=(Attack("Agatha", "Barney", 2),))
    parsed = VENEER.parse(state, "Darcy", "veto Agatha's attack on Barney")
    assert "only allies of Agatha may veto" in parsed.errors[0].reason


def test_allies_lend_defenders_and_get_the_survivors_back() -> None:
    state = scene(
        seats={"Agatha": {"attackers": 3}, "Barney": {"defenders": 0}, "Charles": {"defenders": 2}},
        alliances=(("Barney", "Charles"),),
    )
    state, _ = run(state, {"Agatha": "attack Barney with 3"})
    assert VENEER.awaiting(state) == frozenset({"Charles"})
    after, events = run(state, {"Charles": "lend 2 defenders to Barney"})
    assert of(events, ev.AttackResolved)[0].survivors == 0
    assert after.seat("Charles").defenders == 1 and after.seat("Barney").defenders == 0  # one destroyed
    assert of(events, ev.TroopsReturned)[0].count == 1


def test_with_two_lenders_and_a_shortfall_the_attacked_decides_who_is_repaid() -> None:
    state = scene(
        seats={
            "Agatha": {"attackers": 4},
            "Barney": {"defenders": 0},
            "Charles": {"defenders": 1},
            "Darcy": {"defenders": 2},
        },
        alliances=(("Barney", "Charles"), ("Barney", "Darcy")),
    )
    state, _ = run(state, {"Agatha": "attack Barney with 4"})
    state, _ = run(state, {"Charles": "lend 1 defender to Barney", "Darcy": "lend 2 defenders to Barney"})
    assert state.stage == "combat" and VENEER.awaiting(state) == frozenset({"Barney"})
    after, _events = run(state, {"Barney": "return 1 defender to Darcy"})
    assert (after.seat("Charles").defenders, after.seat("Darcy").defenders) == (0, 1)
    assert after.stage == "end"


def test_a_return_with_no_troop_left_is_not_waited_for() -> None:
    """Two lenders, both loans destroyed: nothing to return, so COMBAT is skipped (rulings 2026-11-24)."""
    state = scene(
        seats={
            "Agatha": {"attackers": 4},
            "Barney": {"defenders": 0},
            "Charles": {"defenders": 1},
            "Darcy": {"defenders": 1},
        },
        alliances=(("Barney", "Charles"), ("Barney", "Darcy")),
    )
    state, _ = run(state, {"Agatha": "attack Barney with 4"})
    after, events = run(state, {"Charles": "lend 1 defender to Barney", "Darcy": "lend 1 defender to Barney"})
    assert of(events, ev.AttackResolved)[0].defenders_lost == 2
    assert after.stage == "end" and after.debts == () and "Barney" not in VENEER.awaiting(after)
    assert [(e.lender, e.count) for e in of(events, ev.TroopsReturned)] == [("Charles", 0), ("Darcy", 0)]


def test_attacking_an_ally_ignores_its_defenders() -> None:
    state = scene(
        seats={"Agatha": {"attackers": 2}, "Barney": {"defenders": 3}}, alliances=(("Agatha", "Barney"),)
    )
    state, _ = run(state, {"Agatha": "attack Barney with 2"})
    assert state.stage == "end"  # nobody had a choice: RESPONSE skipped
    assert state.seat("Barney").coins == 1 and state.seat("Barney").defenders == 3


# --- end: alliances ----------------------------------------


def test_an_alliance_needs_the_others_acceptance_and_breaks_alone() -> None:
    state = scene(stage="end")
    state, events = run(state, {"Agatha": "ally with Barney"})
    assert of(events, ev.AllianceOffered)[0].audience == frozenset({"Agatha", "Barney"})
    assert state.alliances == () and state.active == "Barney" and "Barney" in VENEER.awaiting(state)
    state = dataclasses.replace(state, stage="end")
    state, events = run(state, {"Barney": "ally with Agatha"})
    assert state.alliances == (("Agatha", "Barney"),)
    state = dataclasses.replace(state, stage="end", active="Agatha")
    state, events = run(state, {"Agatha": "break alliance with Barney"})
    assert state.alliances == () and of(events, ev.AllianceBroken)


def test_the_end_phase_offers_buying_and_alliances_but_no_reassigning() -> None:
    state = scene(stage="end", seats={"Agatha": {"coins": 4, "defenders": 1}})
    form = VENEER.order_template(state, "Agatha")
    assert (
        "buy 1 defender" in form
        and "buy 2" not in form
        and "ally with NAME" in form
        and "reassign 1" not in form
    )
    parsed = VENEER.parse(state, "Agatha", "reassign 1 to attackers\nbuy 1 attacker")
    assert parsed.orders == ("buy 1 attacker",)
    assert parsed.errors[0].line == "reassign 1 to attackers"
    assert "reassigned only in your muster" in parsed.errors[0].reason


def test_an_unanswered_offer_lapses_after_the_receivers_end() -> None:
    state = scene(stage="end", active="Barney", turn=2, offers=(Offer("Agatha", "Barney", 1),))
    after, _ = run(state, {"Barney": "pass"})
    assert after.offers == ()


def test_accepting_without_an_offer_is_refused() -> None:
    parsed = VENEER.parse(scene(stage="end", active="Agatha"), "Barney", "ally with Charles")
    assert "has offered you no alliance" in parsed.errors[0].reason


# --- actions ----------------------------------------


def test_playing_sabotage_destroys_the_targets_troops() -> None:
    state = scene(seats={"Agatha": {"hand": ("Sabotage",)}, "Barney": {"defenders": 1, "attackers": 2}})
    after, events = run(state, {"Agatha": "play Sabotage on Barney"})
    assert (after.seat("Barney").defenders, after.seat("Barney").attackers) == (0, 1)
    assert after.seat("Agatha").hand == () and "Sabotage" in after.discard
    assert of(events, ev.CardPlayed)[0].public


def test_spyglass_tells_only_the_player_one_target() -> None:
    state = scene(seats={"Agatha": {"hand": ("Spyglass",)}})
    _, events = run(state, {"Agatha": "play Spyglass on Charles"})
    secret = of(events, ev.SecretLearned)[0]
    assert secret.audience == frozenset({"Agatha"}) and secret.secret.startswith("Charles has ")


def test_an_attacked_player_with_no_defenders_but_a_card_is_asked_and_may_play_it() -> None:
    state = scene(seats={"Agatha": {"attackers": 2}, "Barney": {"defenders": 0, "hand": ("Conscripts",)}})
    state, _ = run(state, {"Agatha": "attack Barney with 2"})
    assert state.stage == "response" and VENEER.awaiting(state) == frozenset({"Barney"})
    assert "you have no defenders to intercept with" in VENEER.order_template(state, "Barney")
    after, events = run(state, {"Barney": "play Conscripts"})  # two free defenders, in time to intercept
    assert of(events, ev.AttackResolved)[0].survivors == 0 and after.seat("Barney").coins == 3


def test_a_card_holder_not_asked_may_only_play() -> None:
    state = scene(stage="end", seats={"Charles": {"hand": ("Windfall",)}}, alliances=(("Charles", "Darcy"),))
    assert VENEER.awaiting(state) == frozenset({"Agatha"}) and VENEER.writers(state) == frozenset({"Charles"})
    parsed = VENEER.parse(state, "Charles", "break alliance with Darcy\nplay Windfall")
    assert parsed.orders == ("play Windfall",) and "only “play CARD” is taken" in parsed.errors[0].reason
    after, events = run(state, {"Charles": "play Windfall"})
    assert after.seat("Charles").coins == 5 and after.alliances == (("Charles", "Darcy"),)
    assert VENEER.told(after, events) == frozenset(PLAYERS[:4])  # a played card is an open result


def test_a_card_may_be_played_while_returns_are_decided() -> None:
    state = scene(
        stage="combat",
        seats={"Barney": {"defenders": 1}, "Emmett": {"hand": ("Pickpocket",)}},
        debts=(Debt("Barney", (("Charles", 1), ("Darcy", 1)), 1),),
        n=5,
    )
    assert VENEER.awaiting(state) == frozenset({"Barney"}) and "Emmett" in VENEER.writers(state)
    after, _ = run(state, {"Barney": "return 1 defender to Darcy", "Emmett": "play Pickpocket on Barney"})
    assert (after.seat("Darcy").defenders, after.seat("Barney").coins, after.seat("Emmett").coins) == (
        2,
        2,
        4,
    )


# --- victory and forced attacks ----------------------------------------


def test_a_player_wins_when_both_targets_are_eliminated() -> None:
    state = scene(
        seats={
            "Agatha": {"attackers": 3},
            "Barney": {"alive": False, "coins": 0, "defenders": 0},
            "Charles": {"coins": 1, "defenders": 0},
        }
    )
    after, events = run(state, {"Agatha": "attack Charles with 1"})
    assert after.finished and after.winners == ("Agatha",)
    assert VENEER.outcome(after) is not None and of(events, ev.GameWon)[0].winners == ("Agatha",)


def test_simultaneous_wins_go_to_the_active_player_else_a_draw() -> None:
    # Charles and Darcy both target Emmett and someone already out; Agatha knocks Emmett out.
    seats: dict[str, dict[str, Any]] = {
        "Agatha": {"attackers": 2, "targets": ("Barney", "Emmett")},
        "Barney": {"alive": False, "coins": 0, "defenders": 0},
        "Charles": {"targets": ("Barney", "Emmett")},
        "Emmett": {"coins": 1, "defenders": 0},
    }
    after, _ = run(scene(n=5, seats=seats), {"Agatha": "attack Emmett with 1"})
    assert after.winners == ("Agatha",)
    seats["Agatha"]["targets"] = ("Charles", "Darcy")
    seats["Darcy"] = {"targets": ("Barney", "Emmett")}
    after, _ = run(scene(n=5, seats=seats), {"Agatha": "attack Emmett with 1"})
    assert after.winners == ("Charles", "Darcy") and "draw" in after.reason


def test_a_forced_attack_turns_a_defender_into_an_attacker_and_attacks() -> None:
    state = scene(laws=("Martial Law",), seats={"Agatha": {"defenders": 1, "coins": 2}})
    _after, events = run(state, {"Agatha": "pass"})
    declared = of(events, ev.AttackDeclared)[0]
    assert (declared.target, declared.attackers, declared.forced) == ("Barney", 1, True)


def test_a_ceasefire_forbids_attacks() -> None:
    parsed = VENEER.parse(
        scene(laws=("Ceasefire",), seats={"Agatha": {"attackers": 1}}), "Agatha", "attack Barney with 1"
    )
    assert "forbids attacks" in parsed.errors[0].reason


def test_a_muster_nobody_can_use_is_skipped() -> None:
    state = scene(stage="start", pile=("Tithe",), seats={"Agatha": {"defenders": 0, "coins": 0}})
    state = dataclasses.replace(state, pile=())
    after, _ = run(state, {})
    assert after.stage == "end"  # income 1 < troop price, no troops, no hand: straight to END
