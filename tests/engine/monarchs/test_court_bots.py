"""Court-mode bots (issue 18): a bot monarch names the eligible courtier it trusts most and hands it
its board orders through Courier; a loyal carrier delivers them, a spy twists them (always on the
last turn); the monarch's own record of its carriers drives its guesses. Each bot sees its seat only.
A person may hand orders through Courier too (``hand LINE``), seen by the carrier alone."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

from courier.journal.replay import replay_game
from engine.bots import bot_submission, bot_text
from engine.core import Submission, rng_for, settle_silent
from engine.monarchs import MONARCHS, NATIONS, MonarchsState
from engine.monarchs._court import Court, Courtier, Delivery
from tests.conftest import Table, address, text_of
from tests.helpers.clock import at
from tests.helpers.monarchs_court import CONFIG, COURTIERS, KINGS, PLAYERS

# Red's court: R4 spies for Green, R5 for Blue, the rest are loyal.
FIXED = {"R4": "red courtier, spy for green", "R5": "red courtier, spy for blue"}
ROLES = {**KINGS, **{c: f"{n} courtier" for c, n in COURTIERS.items()}, **FIXED}
HANDED = ("5 A5 C5", "3 H6 I5", "boost I5")


def court(turns: int = 3) -> MonarchsState:
    return MONARCHS.setup(PLAYERS, {"mode": "court", "turns": turns, "roles": ROLES}, random.Random("c"))


def text(state: MonarchsState, player: str, seed: int = 11) -> str:
    return bot_text(MONARCHS, state, player, random.Random(seed))


def receive(state: MonarchsState, player: str, mail: str) -> tuple[MonarchsState, Submission]:
    submission = MONARCHS.parse(state, player, mail)
    state, _ = MONARCHS.immediate(state, submission)
    return state, submission


def with_court(state: MonarchsState, **changes: object) -> MonarchsState:
    assert state.court is not None
    return dataclasses.replace(state, court=dataclasses.replace(state.court, **changes))  # type: ignore[arg-type]


def handed(state: MonarchsState, carrier: str, lines: tuple[str, ...] = HANDED) -> MonarchsState:
    mail = "\n".join([f"carrier {carrier}", f"map to {carrier}", *(f"hand {x}" for x in lines)])
    state, submission = receive(state, "Rex", mail)
    assert submission.errors == ()
    return state


def test_a_bot_monarch_names_an_eligible_carrier_and_hands_it_its_board_orders() -> None:
    state = court()
    written = text(state, "Rex").splitlines()
    carrier = written[0].removeprefix("carrier ")
    assert written[:2] == [f"carrier {carrier}", f"map to {carrier}"] and carrier in COURTIERS
    assert COURTIERS[carrier] == "red"
    board = MONARCHS.setup(list(KINGS), {"roles": KINGS}, random.Random("b"))
    assert [x.removeprefix("hand ") for x in written[2:]] == text(board, "Rex").splitlines()
    state, submission = receive(state, "Rex", "\n".join(written))
    assert submission.errors == () and state.court is not None
    assert state.court.carrier == {"red": carrier} and state.court.handed["red"] == tuple(
        x.removeprefix("hand ") for x in written[2:]
    )
    assert MONARCHS.awaiting(state) == frozenset(KINGS) | {carrier}


def test_the_monarch_prefers_the_courtiers_its_record_trusts() -> None:
    record = {
        "red": (
            Delivery(1, "R1", True, True),
            Delivery(2, "R3", True, False),
            Delivery(3, "R1", True, True),
            Delivery(4, "R2", True, True),
        )
    }
    state = with_court(court(8), record=record, deliverer={"red": "R2"}, map_holder={"red": "R2"})
    assert {text(state, "Rex", seed).splitlines()[0] for seed in range(20)} == {"carrier R1"}
    barred = with_court(state, deliverer={"red": "R1"})  # R1 carried last: R3, once caught, comes last
    chosen = {text(barred, "Rex", seed).splitlines()[0] for seed in range(20)}
    assert chosen == {"carrier R4", "carrier R5"}  # the untried, by the seeded rng


def test_a_loyal_carrier_delivers_what_it_was_handed_and_is_silent_when_nothing_was() -> None:
    state = handed(court(), "R1")
    assert text(state, "R1") == "\n".join(HANDED)
    assert MONARCHS.parse(state, "R1", text(state, "R1")).orders == HANDED
    assert text(state, "R2") == ""  # not the carrier: nothing to say
    bare, _ = receive(court(), "Rex", "carrier R1\nmap to R2")  # the orders handed in person
    assert text(bare, "R1") == ""


def test_a_spy_carrier_twists_the_orders_always_on_the_last_turn_and_sometimes_before() -> None:
    twisted = "4 A5 C5\n2 H6 I5"  # no boost, one regiment fewer on every move
    last = handed(court(turns=1), "R5")
    assert {text(last, "R5", seed) for seed in range(30)} == {twisted}
    early = handed(court(turns=3), "R5")
    written = [text(early, "R5", seed) for seed in range(60)]
    assert set(written) == {twisted, "\n".join(HANDED)}
    assert 10 <= written.count(twisted) <= 30  # about one turn in three, so it is not caught at once
    nothing, _ = receive(court(), "Rex", "carrier R5")
    assert text(nothing, "R5") == "hold"


def play(state: MonarchsState, carrier: str, seed: int = 0, lines: tuple[str, ...] = HANDED) -> MonarchsState:
    """One turn: Red hands ``lines`` to ``carrier``, whose bot delivers; the others give no orders."""
    state = handed(state, carrier, lines)
    delivery = MONARCHS.parse(state, carrier, text(state, carrier, seed))
    after = MONARCHS.resolve(state, {"Rex": Submission("Rex"), carrier: delivery}, random.Random(1)).state
    assert isinstance(after, MonarchsState)
    return after


def test_the_monarch_records_each_turn_as_it_can_know_it() -> None:
    state = play(court(turns=2), "R1")
    assert state.court is not None and state.court.record == {"red": (Delivery(1, "R1", True, True),)}
    assert state.position.armies["C5"] == ("red", 5)  # the orders moved regiments
    state = play(
        state, "R4", lines=("3 C5 E5", "boost E5")
    )  # on the last turn even a spy's twist goes unseen before the guesses
    assert state.court is not None
    assert state.court.record["red"][1] == Delivery(2, "R4", True, None)
    twists = next(s for s in range(20) if text(handed(court(2), "R5"), "R5", s) != "\n".join(HANDED))
    caught = play(court(turns=2), "R5", seed=twists)
    assert caught.court is not None and caught.court.record["red"] == (Delivery(1, "R5", True, False),)
    assert MONARCHS.from_json(MONARCHS.to_json(caught)) == caught


def guessing(record: tuple[Delivery, ...]) -> MonarchsState:
    state = court(turns=1)
    state = MONARCHS.resolve(state, {}, random.Random(1)).state
    assert MONARCHS.phase(state).kind == "guesses"
    return with_court(state, record={"red": record})


def test_guesses_name_only_caught_courtiers_at_most_two_serving_different_nations() -> None:
    record = (
        Delivery(1, "R5", True, False),
        Delivery(2, "R1", True, True),
        Delivery(3, "R3", True, False),
        Delivery(4, "R5", True, False),
        Delivery(5, "R2", True, False),
        Delivery(6, "R2", True, True),
    )
    state = guessing(record)
    for seed in range(10):
        lines = text(state, "Rex", seed).splitlines()
        assert [x.split(" serves ")[0] for x in lines] == ["R5", "R3"]  # most caught first, then R3
        assert {x.split(" serves ")[1] for x in lines} == {"green", "blue"}
        assert MONARCHS.parse(state, "Rex", "\n".join(lines)).errors == ()
    assert text(guessing((Delivery(1, "R1", True, True), Delivery(2, "R2", True, None))), "Rex") == ""


def loyalties(state: MonarchsState, changed: dict[str, str]) -> tuple[Courtier, ...]:
    assert state.court is not None
    return tuple(
        dataclasses.replace(c, loyal_to=changed.get(c.name, c.loyal_to)) for c in state.court.courtiers
    )


def test_court_bots_see_nothing_beyond_their_seat() -> None:
    """Two states differing only in what a seat cannot see give it the same orders: a monarch sees
    neither its courtiers' loyalties nor other nations' records, carriers or handed orders; a
    carrier sees no other loyalty, no record, no other nation's handed orders; a courtier who does
    not carry does not see what was handed to the carrier."""
    state = handed(court(), "R1")
    state, _ = receive(state, "Gil", "carrier G2\nmap to G3\nhand 3 K5 I5")
    state = with_court(state, record={"red": (Delivery(1, "R3", True, True), Delivery(2, "R5", True, False))})
    assert state.court is not None
    elsewhere = {
        "record": {**state.court.record, "green": (Delivery(1, "G5", True, False),)},
        "handed": {**state.court.handed, "green": ("1 K5 I5",)},
        "carrier": {**state.court.carrier, "green": "G4"},
    }
    monarch = with_court(state, courtiers=loyalties(state, {"R5": "red", "R2": "blue"}), **elsewhere)
    assert text(state, "Rex") == text(monarch, "Rex")
    carrier = with_court(
        state, courtiers=loyalties(state, {"R5": "red", "R2": "blue"}), **{**elsewhere, "record": {}}
    )
    assert text(state, "R1") == text(carrier, "R1") == "\n".join(HANDED)
    bystander = with_court(state, handed={"red": ("1 A5 C5",)})
    assert text(state, "R2") == text(bystander, "R2") == ""
    end = guessing((Delivery(1, "R5", True, False),))
    assert end.court is not None
    other = with_court(
        end,
        courtiers=loyalties(end, {"R5": "red", "R1": "green"}),
        record={"red": (Delivery(1, "R5", True, False),), "blue": (Delivery(1, "B2", True, False),)},
    )
    assert text(end, "Rex") == text(other, "Rex") != ""


def test_a_person_may_hand_orders_through_courier_seen_by_the_carrier_alone() -> None:
    state = court()
    state, first = receive(state, "Rex", "carrier R1\nhand 5 A5 C5\nhand boost Z9")
    assert first.orders == ("carrier R1", "hand 5 A5 C5")
    assert [e.line for e in first.errors] == ["hand boost Z9"]
    state, second = receive(state, "Rex", "map to R2")  # naming the map's recipient keeps the rest
    assert MONARCHS.combine(first, second).orders == ("carrier R1", "map to R2", "hand 5 A5 C5")
    state, third = receive(state, "Rex", "hand 3 H6 I5")  # new orders replace those handed before
    assert MONARCHS.combine(first, third).orders == ("carrier R1", "hand 3 H6 I5")
    assert state.court is not None and state.court.handed == {"red": ("3 H6 I5",)}
    assert "#   3 H6 I5" in MONARCHS.order_template(state, "R1")
    for other in ("R2", "R5", "G1", "Gil", "Bly"):
        assert "3 H6 I5" not in MONARCHS.order_template(state, other), other
    assert "Handed so far: 3 H6 I5." in MONARCHS.order_template(state, "Rex")
    resolved = MONARCHS.resolve(state, {"R1": MONARCHS.parse(state, "R1", "3 H6 I5")}, random.Random(1))
    assert resolved.state.court is not None and resolved.state.court.handed == {}
    assert resolved.state.court.record["red"] == (Delivery(1, "R1", True, True),)


def test_a_court_of_bots_plays_a_whole_game_in_orders_the_game_reads() -> None:
    state = court(turns=4)
    moved = False
    while MONARCHS.outcome(state) is None:
        key = MONARCHS.phase(state).key

        def bot(state: MonarchsState, player: str, key: str = key) -> Submission:
            return bot_submission(MONARCHS, state, player, rng_for("bots", key, "default", player))

        settled, submissions = settle_silent(MONARCHS, state, {}, bot)
        assert all(s.errors == () for s in submissions.values()), submissions
        after = MONARCHS.resolve(settled, submissions, rng_for("bots", key, "resolve")).state
        moved = moved or after.position != state.position
        state = after
    assert moved
    assert isinstance(state.court, Court) and all(state.court.record[n] for n in NATIONS)


def test_orders_handed_by_mail_reach_the_carrier_alone_at_once(tmp_path: Path) -> None:
    t = Table(tmp_path, CONFIG, [{"name": p, "email": address(p), "role": ROLES[p]} for p in PLAYERS])
    t.tick(at(0, 8, 5))
    before = {p: len(t.sent(address(p))) for p in PLAYERS}
    t.mail(address("Rex"), "carrier R1\nmap to R2\nhand 5 A5 C5\nhand boost C5")
    t.tick(at(0, 9))
    got = {p: t.sent(address(p))[before[p] :] for p in PLAYERS}
    assert {p for p, mails in got.items() if mails} == {"Rex", "R1"}  # the receipt, and the notice
    notice = text_of(got["R1"][0])
    assert "Red's monarch names you, R1, its carrier for turn 1" in notice
    assert "hands you these orders through Courier: 5 A5 C5; boost C5" in notice
    assert "Handed so far: 5 A5 C5; boost C5." in text_of(got["Rex"][0])
    t.mail(address("R1"), "5 A5 C5\nboost C5")
    t.tick(at(0, 20, 5))
    journal = t.journal()
    try:
        (played,) = journal.rounds("truce-1")
        checked, problems = replay_game(journal, "truce-1")
    finally:
        journal.close()
    assert played["state_after"]["map"]["C5"] == {"owner": "red", "regiments": 5}
    assert played["state_after"]["court"]["record"]["red"] == [
        {"turn": 1, "carrier": "R1", "delivered": True, "faithful": True}
    ]
    assert (checked, problems) == (1, [])
