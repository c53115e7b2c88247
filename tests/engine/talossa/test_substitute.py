"""Talossan RISK after `replace Cy with cyrus@… as Cyrus` (issue 29 QA): the plans in mail and
History name the seat's holder as every mail does ("Cyrus (for Cy)"), History gives the substitution
the step it happened in, and what Cy asked for at the start (a colour) stays in Cy's welcome alone."""

from __future__ import annotations

from pathlib import Path

from openpyxl import load_workbook

from courier.journal.replay import replay_game
from tests.conftest import Table, address, last_text, text_of
from tests.helpers.clock import at
from tests.helpers.confirm import TRUSTED_PASS, trust_the_mail_server
from tests.helpers.talossa import CONFIG, ROLES

ORGANISER = "organiser@courier.test"
CYRUS = "cyrus@players.test"
LABEL = "Cyrus (for Cy)"


def test_a_substitutes_seat_is_named_by_its_holder_and_keeps_no_old_request(tmp_path: Path) -> None:
    roles = {**ROLES, "Cy": "Cyland; chartreuse; Farwell"}  # a colour the map does not know
    t = Table(tmp_path, CONFIG, [{"name": n, "email": address(n), "role": r} for n, r in roles.items()])
    t.tick(at(0, 8, 5))
    assert "You asked for the colour chartreuse" in last_text(t, "Cy")
    t.tick(at(0, 20, 5))  # step 1 resolved: the game is under way
    trust_the_mail_server(t)
    t.mail(
        ORGANISER,
        "replace Cy with cyrus@players.test as Cyrus",
        subject="[truce-1] commands",
        headers=TRUSTED_PASS,
    )
    t.tick(at(1, 9))

    welcome = next(text_of(m) for m in t.sent(CYRUS) if m["X-Courier-Kind"] == "welcome")
    assert "You lead Cyland" in welcome and "chartreuse" not in welcome

    t.mail(CYRUS, "R: Farwell, 1")
    t.tick(at(1, 20, 5))  # step 2 resolved: its plans are published
    for text in (last_text(t, "Al"), text_of(t.sent(CYRUS)[-1])):
        plan = next(line for line in text.splitlines() if "Cyland (" in line and "Plan " in line)
        assert f"Cyland ({LABEL})" in plan, plan
    rows = list(load_workbook(tmp_path / "truce-1.xlsx")["History"].iter_rows(values_only=True))
    substitution = next(r for r in rows if r[1] and "Substitute:" in str(r[1]))
    assert substitution[0] not in ("—", None) and "2" in str(substitution[0]), substitution
    plans = [str(r[1]) for r in rows if r[1] and "Cyland (" in str(r[1]) and "Plan " in str(r[1])]
    assert plans[0].count("Cyland (Cy)") == 1 and f"Cyland ({LABEL})" in plans[-1], plans
    journal = t.journal()
    try:
        assert replay_game(journal, "truce-1")[1] == []
    finally:
        journal.close()
