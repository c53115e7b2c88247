"""Mail that multiplies (issue 27), through the tick: one sender's flood of `press to all`, a flood of
forged mails in a player's name, and a Config tab of thousands of stray keys each cause a bounded
amount of mail. What a budget holds is journalled and counted, the address concerned and the
organiser hear of it once, and the game's own reports always go."""

from __future__ import annotations

from collections.abc import Callable
from email.message import EmailMessage

import pytest

from courier.config.deployment import MailBudgets, load_deployment
from courier.errors import ConfigError
from courier.tools.status import status_table
from tests.conftest import Table, address, count_fault, text_of
from tests.helpers.clock import at

FIVE = ["Agatha", "Barney", "Celeste", "Darcy", "Eliza"]
DEFAULTS = MailBudgets()
FORGED = {"Authentication-Results": "mx.courier.test; dkim=fail header.d=players.test; dmarc=fail"}


def of_kind(t: Table, name: str, kind: str) -> list[EmailMessage]:
    """Mail of one kind to a player; kind "held" is the notice that a budget holds their mail."""
    mails = [m for m in t.sent(name) if m["X-Courier-Kind"] == ("answer" if kind == "held" else kind)]
    return [m for m in mails if ("Courier sends no more of them" in text_of(m)) == (kind == "held")]


def held_count(t: Table) -> int:
    journal = t.journal()
    try:
        return journal.outbox_counts().get("held", 0)
    finally:
        journal.close()


def organiser_mail(t: Table) -> list[str]:
    return [text_of(m) for m in t.sent("organiser@courier.test")]


def test_two_hundred_press_to_all_are_bounded_by_the_senders_budget(make_table: Callable[..., Table]) -> None:
    # Today: 200 mails of `press to all` in a five-player game became 800 relays (and 200 answers).
    t = make_table(players=FIVE)
    t.tick(at(0, 8, 5))
    for n in range(200):
        t.order("Barney", f"press to all: Hear me, number {n}.")
    assert t.tick(at(0, 9)) == []
    relays = [m for name in FIVE for m in of_kind(t, name, "press")]
    answers = of_kind(t, "Barney", "answer")
    assert len(relays) + len(answers) <= DEFAULTS.per_sender_hour  # 40 of 1,000
    assert len(relays) == 4 * len(answers) > 0  # whole presses went, then none
    assert held_count(t) == 1000 - len(relays) - len(answers)  # the rest journalled, not lost
    told = of_kind(t, "Barney", "held")
    assert len(told) == 1 and "no more of them until 2026-12-01 10:00 UTC" in text_of(told[0])
    assert f"{held_count(t)} held by mail budgets" in status_table(t.deployment)
    assert sum("Mail budget reached" in text for text in organiser_mail(t)) == 1
    # Another hour, another budget: the next press goes; round reports go whatever was spent.
    t.order("Barney", "press to all: A new hour.")
    t.tick(at(0, 10, 5))
    assert "A new hour." in text_of(of_kind(t, "Agatha", "press")[-1])
    t.order("Barney", "pass")
    t.tick(at(0, 20, 5))
    assert all(of_kind(t, name, "report") for name in FIVE)
    assert len(of_kind(t, "Barney", "held")) == 1  # told once
    count_fault("budgets")


def test_five_hundred_forged_mails_make_one_mail_listing_them(make_table: Callable[..., Table]) -> None:
    # Today: each forged mail in Agatha's name (DKIM failed) got its own error mail to Agatha.
    t = make_table()
    t.tick(at(0, 8, 5))
    for _ in range(500):
        t.order("Agatha", "attack Barney", headers=FORGED)
    t.order("Agatha", "attack Celeste")  # her own mail still counts
    assert t.tick(at(0, 9)) == []
    errors = of_kind(t, "Agatha", "error")
    assert len(errors) == 1
    text = text_of(errors[0])
    assert "500 messages from your address were not used" in text and "writing in your name" in text
    assert "2026-12-01 08:06 UTC “[truce-1] orders”: A message from your address was not used" in text
    assert "…and 480 more." in text
    assert len(of_kind(t, "Agatha", "receipt")) == 1
    journal = t.journal()
    try:
        assert "attack Celeste" in str(journal.standing("truce-1", "round-1")["Agatha"][0])
    finally:
        journal.close()
    t.tick(at(0, 20, 5))
    assert of_kind(t, "Agatha", "report")  # the game's reports are never held
    count_fault("budgets")


def test_forged_mails_tick_after_tick_are_bounded_by_the_recipients_budget(
    make_table: Callable[..., Table],
) -> None:
    """A forger writing a little before every tick: one listing a tick, at most a budget's worth an
    hour, then one notice; the organiser hears of it once."""
    t = make_table()
    t.tick(at(0, 8, 5))
    for minute in range(1, 41):
        t.order("Agatha", "attack Barney", headers=FORGED)
        t.order("Agatha", "attack Darcy", headers=FORGED)
        t.tick(at(0, 9, minute))
    assert len(of_kind(t, "Agatha", "error")) == DEFAULTS.per_recipient_hour
    assert len(of_kind(t, "Agatha", "held")) == 1
    assert held_count(t) == 40 - DEFAULTS.per_recipient_hour
    assert sum("Mail budget reached" in text for text in organiser_mail(t)) == 1
    t.order("Agatha", "attack Barney", headers=FORGED)
    t.tick(at(0, 10, 1))  # a new hour
    assert "2 messages" not in text_of(of_kind(t, "Agatha", "error")[-1])
    assert len(of_kind(t, "Agatha", "error")) == DEFAULTS.per_recipient_hour + 1


def test_five_thousand_unknown_config_keys_make_one_organiser_mail(make_table: Callable[..., Table]) -> None:
    # Today: one organiser mail per unknown key of the Config tab, 5,001 in all.
    stray = {f"stray_key_{n}": "x" for n in range(5000)}
    t = make_table(stray)
    assert t.tick(at(0, 8, 5)) == []
    mails = organiser_mail(t)
    assert len(mails) == 1
    assert "5000 keys are not settings" in mails[0] and "`stray_key_0`" in mails[0]
    assert "…and 4950 more" in mails[0]
    t.tick(at(0, 9))
    assert len(organiser_mail(t)) == 1  # told once
    count_fault("budgets")


def test_budgets_are_set_in_courier_toml(make_table: Callable[..., Table]) -> None:
    t = make_table()
    path = t.root / "courier.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "\n[budgets]\nper_sender_hour = 3\n", encoding="utf-8")
    t.deployment = load_deployment(path)
    assert t.deployment.budgets.per_sender_hour == 3
    t.tick(at(0, 8, 5))
    for _ in range(5):
        t.order("Celeste", "status")
    t.tick(at(0, 9))
    assert len(of_kind(t, "Celeste", "answer")) == 3
    path.write_text(text + "\n[budgets]\nper_sender_hour = 0\n", encoding="utf-8")
    with pytest.raises(
        ConfigError, match=r"\[budgets\] per_sender_hour must be a whole number of at least 1"
    ):
        load_deployment(path)


def test_a_quiet_player_is_never_held(make_table: Callable[..., Table]) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    for hour in range(9, 20):
        t.order("Darcy", f"press to Agatha: hour {hour}")
        t.order("Darcy", "attack Agatha")
        t.tick(at(0, hour))
    assert held_count(t) == 0
    assert len(of_kind(t, "Agatha", "press")) == 11 and len(of_kind(t, "Darcy", "receipt")) == 11
    assert address("Darcy") not in " ".join(organiser_mail(t))
