"""Court mode: who carries the orders (rulings 2026-11-24). The monarch names, privately, its
carrier and who receives the next map; only the carrier's mail counts, whatever it says; every other
courtier is refused with one line naming nobody; no carrier, no orders; the monarch hears after the
turn whether its carrier delivered, never what. At the start each courtier learns its own loyalty."""

from __future__ import annotations

import random
from email.message import EmailMessage
from pathlib import Path

from engine.core import LineError, Submission, visible_to
from engine.monarchs import MONARCHS, NATIONS, CarrierReported, LoyaltyDealt, MapShown, MonarchsState
from tests.conftest import Table, address, last_text, text_of
from tests.helpers.clock import at
from tests.helpers.monarchs_court import CONFIG, PLAYERS, ROLES

NOT_RED = "you are not carrying Red's orders this turn"


def court(turns: int = 3) -> MonarchsState:
    return MONARCHS.setup(PLAYERS, {"mode": "court", "turns": turns, "roles": ROLES}, random.Random("court"))


def receive(state: MonarchsState, player: str, text: str) -> tuple[MonarchsState, Submission]:
    """What the shell does with each mail, in arrival order."""
    parsed = MONARCHS.parse(state, player, text)
    after, events = MONARCHS.immediate(state, parsed)
    assert events == ()
    return after, parsed


def refused(parsed: Submission, line: str) -> bool:
    return parsed.orders == () and parsed.errors == (LineError(line, NOT_RED),)


def test_only_the_named_carriers_mail_counts_and_a_spy_mailing_first_changes_nothing() -> None:
    state = court()
    assert MONARCHS.awaiting(state) == frozenset({"Rex", "Gil", "Bly"})  # no carrier named yet
    state, spy = receive(state, "R5", "5 A5 C5\nmap to R5")
    assert refused(spy, "5 A5 C5")
    state, choice = receive(state, "Rex", "carrier R1\nmap to R2")
    assert choice.orders == ("carrier R1", "map to R2") and choice.errors == ()
    assert MONARCHS.awaiting(state) == frozenset({"Rex", "Gil", "Bly", "R1"})
    state, spy = receive(state, "R5", "5 A5 C5")
    assert refused(spy, "5 A5 C5")  # the same line, carrier named or not
    state, carried = receive(state, "R1", "3 H6 I5\nmap to R4")
    assert carried.orders == ("3 H6 I5",)
    assert carried.notes == ("“map to R4” was ignored: the monarch names who receives the map.",)
    resolution = MONARCHS.resolve(state, {"Rex": choice, "R1": carried, "R5": spy}, random.Random(1))
    after = resolution.state
    assert after.position.armies["I5"] == ("red", 3) and after.position.armies["A5"] == ("red", 5)
    assert {e.nation: e.audience for e in resolution.events if isinstance(e, MapShown)}["red"] == frozenset(
        {"R2"}
    )
    reports = {e.nation: e for e in resolution.events if isinstance(e, CarrierReported)}
    assert reports["red"] == CarrierReported(
        audience=frozenset({"Rex"}), nation="red", turn=1, carrier="R1", delivered=True
    )
    assert reports["green"].carrier == "" and not reports["green"].delivered
    assert after.court is not None and after.court.deliverer == {"red": "R1"}
    assert after.court.carrier == {} and after.court.eligible("red") == ["R3", "R4", "R5"]


def test_the_monarch_chooses_among_the_eligible_and_a_refusal_names_the_right_courtier() -> None:
    state = court()
    _, wrong = receive(state, "Rex", "5 A5 C5\ncarrier R9")
    assert [e.reason for e in wrong.errors] == [
        "in court mode your orders reach Courier only in your carrier's mail: name it with “carrier NAME” "
        "and hand it your orders (yourself, or through Courier: “hand 5 A5 C5”, one a line)",
        "no courtier of Red is called that",
    ]
    state, _ = receive(state, "Rex", "carrier R1\nmap to R2")
    state, orders = receive(state, "R1", "1 A5 C5")
    state = MONARCHS.resolve(state, {"R1": orders}, random.Random(1)).state
    _, barred = receive(state, "Rex", "carrier R1\nmap to R2\nmy carrier is R3")
    assert [e.reason for e in barred.errors] == [
        "R1 may not carry your orders this turn: R1 delivered Red's previous orders",
        "R2 may not receive your map this turn: R2 received Red's latest map",
    ]
    assert barred.orders == ("carrier R3",)
    form = MONARCHS.order_template(state, "Rex")
    assert "Eligible this turn: R3, R4, R5; not R2: received Red's latest map; not R1: delivered" in form


def test_no_carrier_or_a_silent_carrier_gives_no_orders() -> None:
    state = court()
    _, unnamed = receive(state, "R1", "5 A5 C5")
    assert refused(unnamed, "5 A5 C5")
    state, _ = receive(state, "Gil", "carrier G1\nmap to G2")  # G1 never mails
    resolution = MONARCHS.resolve(state, {"R1": unnamed}, random.Random(1))
    assert resolution.state.position == state.position  # nothing moved
    reports = {e.nation: e for e in resolution.events if isinstance(e, CarrierReported)}
    assert reports["red"].carrier == "" and reports["green"] == CarrierReported(
        audience=frozenset({"Gil"}), nation="green", turn=1, carrier="G1", delivered=False
    )
    court_after = resolution.state.court
    assert court_after is not None and "green" not in court_after.deliverer  # G1 delivered nothing
    assert court_after.map_holder["green"] == "G2"


def test_the_carrier_named_last_counts() -> None:
    state = court()
    state, _ = receive(state, "Rex", "carrier R1")
    state, orders = receive(state, "R1", "5 A5 C5")
    state, _ = receive(state, "Rex", "carrier R3")  # R3 never mails: R1's orders no longer count
    assert "R1" not in MONARCHS.awaiting(state) and "R3" in MONARCHS.awaiting(state)
    assert refused(MONARCHS.parse(state, "R1", "5 A5 C5"), "5 A5 C5")
    resolution = MONARCHS.resolve(state, {"R1": orders}, random.Random(1))
    assert resolution.state.position == state.position
    reports = [e for e in resolution.events if isinstance(e, CarrierReported) and e.nation == "red"]
    assert [(e.carrier, e.delivered) for e in reports] == [("R3", False)]


def test_a_mail_without_moves_wipes_nothing() -> None:
    state = court()
    state, first = receive(state, "Rex", "carrier R1\nmap to R2")
    state, second = receive(state, "Rex", "map to R3")  # only the map: the carrier stays
    assert MONARCHS.combine(first, second).orders == ("carrier R1", "map to R3")
    assert state.court is not None and state.court.carrier == {"red": "R1"}
    assert state.court.map_to == {"red": "R3"}
    state, moves = receive(state, "R1", "5 A5 C5\nboost C5")
    for text in ("map to R4", "# thinking"):
        state, empty = receive(state, "R1", text)
        assert MONARCHS.combine(moves, empty).orders == ("5 A5 C5", "boost C5"), text
    state, hold = receive(state, "R1", "hold")
    assert MONARCHS.combine(moves, hold).orders == ("hold",)  # an explicit hold does replace them
    assert MONARCHS.from_json(MONARCHS.to_json(state)) == state


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


def play(root: Path, *, spy: bool) -> Table:
    """Turn 1 by mail: Rex names R1 to carry and R2 to get the map; maybe R5, a spy, mails first."""
    rows = [{"name": p, "email": address(p), "role": ROLES[p]} for p in PLAYERS]
    t = Table(root, CONFIG, rows)
    t.tick(at(0, 8, 5))
    if spy:
        t.mail(address("R5"), "5 A5 C5\nmap to R5")
        t.tick(at(0, 8, 30))
    t.mail(address("Rex"), "carrier R1\nmap to R2")
    t.tick(at(0, 9))
    if spy:
        t.mail(address("R5"), "5 A5 C5")
        t.tick(at(0, 9, 30))
    t.mail(address("R1"), "3 H6 I5\nboost I5")
    t.tick(at(0, 10))
    t.tick(at(0, 20, 5))
    return t


def test_a_spy_mailing_first_changes_nothing_through_the_tick(tmp_path: Path) -> None:
    honest, spied = play(tmp_path / "honest", spy=False), play(tmp_path / "spied", spy=True)
    for refusal in [text_of(m) for m in spied.sent(address("R5"))[1:3]]:
        assert f"{NOT_RED}. No orders are needed from you in this phase." in refusal
        assert not any(name in refusal for name in ("R1", "R2", "R3", "R4", "Rex"))
    for name in ("Rex", "R1", "R2", "Gil", "G1"):
        assert text_of(honest.sent(address(name))[-1]) == text_of(spied.sent(address(name))[-1]), name
    report = last_text(spied, "Rex")
    assert "Your carrier R1 delivered Red's orders for turn 1." in report
    assert "H6" not in report and "boost" not in report  # never what it delivered
    assert "You named no carrier for turn 1: Green gave no orders." in last_text(spied, "Gil")
    assert "I5 (3)" in last_text(spied, "R2") and images(spied.sent(address("R2"))[-1])
    for other in ("Rex", "R1", "R3", "R4", "R5"):
        assert images(spied.sent(address(other))[-1]) == [], other
