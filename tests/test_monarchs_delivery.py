"""Court mode on receipt: the first eligible courtier to deliver a nation's orders stands, a later
one is refused saying who delivered; and at the start each courtier is told its own loyalty."""

from __future__ import annotations

import random
from email.message import EmailMessage
from pathlib import Path

from engine.core import Submission, visible_to
from engine.monarchs import MONARCHS, NATIONS, LoyaltyDealt, MonarchsState
from tests.conftest import Table
from tests.test_monarchs_court import CONFIG, PLAYERS, ROLES, addr, at, last_text


def court(turns: int = 3) -> MonarchsState:
    return MONARCHS.setup(PLAYERS, {"mode": "court", "turns": turns, "roles": ROLES}, random.Random("court"))


def receive(state: MonarchsState, player: str, text: str) -> tuple[MonarchsState, Submission]:
    """What the shell does with each mail, in arrival order."""
    parsed = MONARCHS.parse(state, player, text)
    after, events = MONARCHS.immediate(state, parsed)
    assert events == ()
    return after, parsed


def test_the_first_delivery_stands_and_a_later_courtier_is_told_who_delivered() -> None:
    state = court()
    assert {"R1", "R2", "R3"} <= MONARCHS.awaiting(state)
    state, first = receive(state, "R1", "5 A5 C5\nmap to R2")
    assert first.orders == ("5 A5 C5", "map to R2")
    state, later = receive(state, "R3", "3 H6 I5")
    assert later.orders == ()
    (error,) = later.errors
    assert error.line == "3 H6 I5"
    assert error.reason == "R1 already delivered Red's orders this turn; the first delivery stands"
    assert "R1 already delivered Red's orders this turn" in MONARCHS.order_template(state, "R3")
    red = {c.name for c in state.court.of("red")} if state.court else set()
    assert MONARCHS.awaiting(state) & red == {"R1"}  # the shell refuses the others, giving the reason
    assert {"G1", "B2"} <= MONARCHS.awaiting(state)  # the other nations still wait
    state, again = receive(state, "R1", "4 A5 C5")  # the first deliverer may still change its orders
    assert again.orders == ("4 A5 C5",) and again.errors == ()
    resolved = MONARCHS.resolve(state, {"R1": again, "R3": later}, random.Random(1)).state
    assert resolved.position.armies["C5"] == ("red", 4)
    assert (
        resolved.court is not None and resolved.court.first == {} and resolved.court.deliverer["red"] == "R1"
    )
    assert MONARCHS.from_json(MONARCHS.to_json(state)) == state


def test_only_an_eligible_courtiers_orders_are_recorded() -> None:
    state = court()
    for player, text in (("Rex", "5 A5 C5"), ("R1", "9 A5 C5"), ("R1", "map to R9")):
        after, _ = receive(state, player, text)
        assert after == state, (player, text)
    after, _ = receive(state, "R1", "# nothing but a comment")  # an empty delivery holds: it counts
    assert after.court is not None and after.court.first == {"red": "R1"}


def test_without_a_record_several_deliveries_are_drawn_by_the_seed() -> None:
    state = court()
    subs = {p: MONARCHS.parse(state, p, "1 A5 C5") for p in ("R1", "R3")}
    events = MONARCHS.resolve(state, subs, random.Random(4)).events
    refused = [e for e in events if type(e).__name__ == "CourtierRefused"]
    assert len(refused) == 1 and "drawn" in getattr(refused[0], "reason", "")


def test_each_courtier_is_told_only_its_own_loyalty_at_the_start() -> None:
    state = court()
    events = MONARCHS.opening_events(state)
    assert len(events) == 15 and all(isinstance(e, LoyaltyDealt) for e in events)
    assert state.court is not None
    for c in state.court.courtiers:
        (told,) = visible_to(events, c.name)
        assert told == LoyaltyDealt(
            audience=frozenset({c.name}), courtier=c.name, serves=c.serves, loyal_to=c.loyal_to
        )
    assert visible_to(events, "Rex") == [] and visible_to(events, None) == []
    board = MONARCHS.setup(["a", "b", "c"], {}, random.Random(0))
    assert MONARCHS.opening_events(board) == ()
    assert sorted({e.serves for e in events if isinstance(e, LoyaltyDealt)}) == sorted(NATIONS)


def images(message: EmailMessage) -> list[str]:
    return [p.get_content_type() for p in message.walk() if p.get_content_type().startswith("image/")]


def test_a_second_courtier_is_refused_through_the_tick_and_only_the_map_holder_gets_the_map(
    tmp_path: Path,
) -> None:
    rows = [{"name": p, "email": addr(p), "role": ROLES[p]} for p in PLAYERS]
    t = Table(tmp_path, CONFIG, rows)
    t.tick(at(0, 8, 5))
    assert "You, R5, are a courtier of Red, but secretly loyal to Blue: you are its spy." in last_text(
        t, "R5"
    )
    assert "You, R1, are a courtier of Red" in last_text(t, "R1")
    assert "You, " not in last_text(t, "Rex")
    t.mail(addr("R1"), "5 A5 C5\nmap to R2")
    t.tick(at(0, 9))
    t.mail(addr("R3"), "3 H6 I5")
    t.tick(at(0, 10))
    refusal = last_text(t, "R3")
    assert "R1 already delivered Red's orders this turn; the first delivery stands" in refusal
    t.tick(at(0, 20, 5))
    assert t.sent(addr("R2"))[-1]["Subject"] and images(t.sent(addr("R2"))[-1])
    for other in ("Rex", "R1", "R3", "R4", "R5"):
        assert images(t.sent(addr(other))[-1]) == [], other
