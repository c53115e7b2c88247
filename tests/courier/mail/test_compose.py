"""Outgoing mail: golden files per kind, headers, Message-IDs, escaping, overrides and the sandbox.

Regenerate the golden files after a deliberate template change with
``COURIER_UPDATE_GOLDEN=1 python -m pytest tests/courier/mail/test_compose.py`` and review the diff.
"""

from __future__ import annotations

import email
import email.policy
import os
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from zoneinfo import ZoneInfo

import jinja2
import pytest
from jinja2.exceptions import SecurityError

from courier.mail.compose import (
    KINDS,
    AnswerContext,
    AnyContext,
    ErrorContext,
    GameOverContext,
    MailContext,
    NoticeContext,
    OrganiserContext,
    PressContext,
    ReceiptContext,
    ReminderContext,
    ReportContext,
    WelcomeContext,
    compose,
    is_our_message_id,
    message_id_for,
)
from courier.mail.render import RenderError, make_environment, render_event
from engine.core import Event, LineError
from tests.helpers.mail_samples import MAIL, ORDER_TEMPLATE
from tests.helpers.paths import TESTS

GOLDEN = TESTS / "golden"
UPDATE = os.environ.get("COURIER_UPDATE_GOLDEN") == "1"
DATE = datetime(2026, 11, 23, 18, 5, tzinfo=UTC)
DOMAIN = "courier.example.org"

RECEIPT = ReceiptContext(
    mail=MAIL,
    orders=["support Émile"],
    errors=[LineError("atack barney", "unknown action", "attack Barney")],
    notes=["Only the last action line counts."],
    standing=["support Émile"],
)

REPORT = ReportContext(
    mail=replace(
        MAIL,
        deadline_text="Tue 24 Nov 2026 20:00 CET (19:00 UTC)",
        deadline_at=datetime(2026, 11, 24, 20, 0, tzinfo=ZoneInfo("Europe/Paris")),
        deadline_key="round-4",
    ),
    public_lines=["Barney attacked Agatha and took 1 coin.", "Cecil looted the Stash: 3 coins."],
    private_lines=["Émile supported you."],
    ledger_headers=["Player", "Supply", "Supporters"],
    ledger_rows=[["Agatha", "2", "1"], ["Barney", "5", "0"], ["Cecil", "6", "2"], ["Émile", "3", "0"]],
    next_phase_label="Round 4 of 10",
)

REMINDER = ReminderContext(mail=MAIL)

NO_GAME = MailContext(
    game_id="", game_title="", phase_label="", recipient_name="", recipient_email="stranger@example.net"
)

SEED_HASH = "5d41402abc4b2a76b9719d911017c592" * 2

SAMPLES: dict[str, AnyContext] = {
    "receipt": RECEIPT,
    "report": REPORT,
    "reminder": REMINDER,
    "error": ErrorContext(
        mail=NO_GAME,
        reason="This address is not registered in any game. Which game? Add [game-id] to the subject.",
        quoted_subject="my orders",
    ),
    "game_over": GameOverContext(
        mail=replace(
            MAIL,
            phase_label="Round 10 of 10",
            deadline_text="",
            order_template="",
            deadline_at=None,
            deadline_key="",
        ),
        public_lines=REPORT.public_lines,
        private_lines=REPORT.private_lines,
        ledger_headers=REPORT.ledger_headers,
        ledger_rows=REPORT.ledger_rows,
        winners=["Cecil"],
        ranking=[["Cecil"], ["Agatha", "Barney"], ["Émile"]],
        seed="c0ffee-7f3a",
        seed_hash=SEED_HASH,
    ),
    "notice": NoticeContext(mail=MAIL, lines=["Barney gave you 2 coins."]),
    "organiser": OrganiserContext(
        mail=replace(
            MAIL,
            recipient_name="Olive",
            deadline_text="",
            order_template="",
            deadline_at=None,
            deadline_key="",
        ),
        problem="Players tab, row 4: “barney@example” is not an e-mail address.",
    ),
    "answer": AnswerContext(
        mail=replace(
            MAIL,
            recipient_name="organiser",
            deadline_text="",
            order_template="",
            deadline_at=None,
            deadline_key="",
        ),
        topic="Commands done",
        lines=["pause: done. The game is paused; no deadline passes until you resume it."],
    ),
    "press": PressContext(
        mail=replace(
            MAIL,
            recipient_name="Barney",
            deadline_text="",
            order_template="",
            deadline_at=None,
            deadline_key="",
        ),
        author="Agatha",
        addressees=["Barney", "Émile"],
        text="Shall we leave Cecil alone <this> round?",
    ),
    "welcome": WelcomeContext(
        mail=replace(MAIL, phase_label="Round 1 of 10"),
        players=["Agatha", "Barney", "Cecil", "Émile"],
        rules_summary="Each round, pick one action: attack, defend, loot, support or pass.",
        seed_hash=SEED_HASH,
    ),
}


def make(kind: str, ctx: AnyContext | None = None, env: jinja2.Environment | None = None) -> EmailMessage:
    return compose(
        env or make_environment(),
        kind,
        ctx or SAMPLES[kind],
        sender="Courier <courier@example.org>",
        reply_to="orders@example.org",
        to="agatha@example.com",
        message_key=f"test/{kind}",
        domain=DOMAIN,
        in_reply_to="<player-mail-1@example.com>" if kind in ("receipt", "error") else None,
        date=DATE,
    )


def bodies(msg: EmailMessage) -> tuple[str, str]:
    text, html = (msg.get_body((kind,)) for kind in ("plain", "html"))
    assert isinstance(text, EmailMessage) and isinstance(html, EmailMessage)
    return text.get_content(), html.get_content()


def golden_text(msg: EmailMessage) -> str:
    headers = "".join(f"{k}: {'' if k == 'Date' else v}\n" for k, v in msg.items() if k != "Content-Type")
    return headers + "\n" + bodies(msg)[0]


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_golden(kind: str) -> None:
    msg = make(kind)
    actual = {f"{kind}.txt": golden_text(msg), f"{kind}.html": bodies(msg)[1]}
    for name, text in actual.items():
        path = GOLDEN / name
        if UPDATE:
            GOLDEN.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
        assert text == path.read_text(encoding="utf-8"), f"{name} changed; see the module docstring"


def test_every_kind_has_a_sample() -> None:
    assert set(SAMPLES) == set(KINDS)


def test_headers() -> None:
    msg = make("receipt", replace(RECEIPT, errors=[]))
    assert msg["Subject"] == "[truce-1] Orders received for Round 3 of 10"
    assert msg["From"] == "Courier <courier@example.org>"
    assert msg["To"] == "agatha@example.com"
    assert msg["Reply-To"] == "orders@example.org"
    assert msg["Date"] == "Mon, 23 Nov 2026 18:05:00 +0000"
    assert msg["Message-ID"] == message_id_for("test/receipt", DOMAIN)
    assert msg["In-Reply-To"] == msg["References"] == "<player-mail-1@example.com>"
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["X-Courier-Game"] == "truce-1"
    assert msg["X-Courier-Kind"] == "receipt"
    assert msg.get_content_type() == "multipart/mixed"  # the bodies, then the deadline's calendar event
    alternative, calendar = msg.iter_parts()
    assert calendar.get_content_type() == "text/calendar" and calendar.get_filename() == "deadline.ics"
    parts = list(alternative.iter_parts())
    assert [p.get_content_type() for p in parts] == ["text/plain", "text/html"]
    assert all(p.get_content_charset() == "utf-8" for p in parts)


def test_no_reply_headers_unless_answering() -> None:
    msg = compose(
        make_environment(), "report", REPORT, sender="c@example.org", reply_to=None,
        to="a@example.com", message_key="k", domain=DOMAIN, date=DATE,
    )  # fmt: skip
    assert msg["Reply-To"] is None and msg["In-Reply-To"] is None and msg["References"] is None


@pytest.mark.parametrize(
    ("kind", "subject"),
    [
        # what is asked now and by when first (issue 30), then what the mail tells
        ("report", "[truce-1] Round 4 of 10: your orders - by Tue 24 Nov 20:00 CET (Round 3 of 10: results)"),
        ("reminder", "[truce-1] Reminder: Round 3 of 10: your orders - by Mon 23 Nov 20:00 CET"),
        (
            "receipt",
            "[truce-1] Orders received for Round 3 of 10: 1 line not understood;"
            " correct it by Mon 23 Nov 20:00 CET",
        ),
        ("error", "[courier] Your message could not be used"),
        ("game_over", "[truce-1] Game over: Cecil wins"),
        ("welcome", "[truce-1] Welcome to Truce: Round 1 of 10: your orders - by Mon 23 Nov 20:00 CET"),
        ("notice", "[truce-1] News in Round 3 of 10"),
        ("answer", "[truce-1] Commands done"),
        ("press", "[truce-1] Press from Agatha"),
        (
            "organiser",
            "[truce-1] Problem to fix: Players tab, row 4: “barney@example” is not an …",
        ),
    ],
)
def test_subjects(kind: str, subject: str) -> None:
    assert make(kind)["Subject"] == subject


def test_subjects_and_the_top_say_what_the_game_asks_now() -> None:
    """The game's words for what is asked (``asked``) lead the subject and the top block (issue 30)."""
    mail = replace(REPORT.mail, asked="Vote now: Disarmament")
    msg = make("report", replace(REPORT, mail=mail))
    assert msg["Subject"] == (
        "[truce-1] Vote now: Disarmament - by Tue 24 Nov 20:00 CET (Round 3 of 10: results)"
    )
    text, html = bodies(msg)
    assert "<strong>Vote now: Disarmament</strong>: fill in" in html and "Send your orders" not in html
    assert "\nVote now: Disarmament.\n" in text


def test_a_player_not_awaited_is_not_asked_for_orders() -> None:
    """A form to write in (an action card), but the game does not wait for them: no "Send your
    orders", no "your orders by" in the subject."""
    msg = make("report", replace(REPORT, mail=replace(REPORT.mail, awaited=False)))
    assert msg["Subject"] == "[truce-1] Round 3 of 10: results"
    text, html = bodies(msg)
    assert "Send your orders" not in html
    assert "Nothing is asked of you in Round 4 of 10; you may still send orders" in html
    assert "Nothing is asked of you in Round 4 of 10; you may still send orders" in text


def test_the_report_leads_with_the_players_own_result() -> None:
    msg = make("report", replace(REPORT, headline="Your attack on Barney failed: supply 2 (-1)"))
    text, html = bodies(msg)
    top = html.split('id="courier-now"', 1)[1].split("</div>", 1)[0]
    assert "Your attack on Barney failed: supply 2 (-1)" in top
    assert text.index("Your attack on Barney failed") < text.index("Here are the results")


def test_late_receipt_says_which_round_it_counts_for() -> None:
    msg = make("receipt", replace(RECEIPT, late=True))
    assert msg["Subject"] == "[truce-1] Late orders received: they count for Round 3 of 10"
    assert "after the previous round had closed" in bodies(msg)[0]


def test_a_newline_in_a_name_cannot_inject_a_header() -> None:
    ctx = replace(SAMPLES["welcome"], mail=replace(MAIL, game_title="Truce\nBcc: eve@example.com"))
    subject = make("welcome", ctx)["Subject"]
    assert subject.startswith("[truce-1] Welcome to Truce Bcc: eve@example.com:") and "\n" not in subject


def test_organiser_mail_without_a_game() -> None:
    ctx = OrganiserContext(mail=NO_GAME, problem="IMAP login failed for orders@example.org:\nbad password")
    msg = make("organiser", ctx)
    assert msg["Subject"] == "[courier] Problem to fix: IMAP login failed for orders@example.org: bad …"
    assert "a problem with its setup" in bodies(msg)[0]
    assert "  IMAP login failed for orders@example.org:\n  bad password\n" in bodies(msg)[0]


def test_same_mail_twice_gives_the_same_bytes() -> None:
    assert make("report").as_bytes() == make("report").as_bytes()


def test_bytes_parse_back_to_the_same_text() -> None:
    msg = make("report")
    parsed = email.message_from_bytes(msg.as_bytes(), policy=email.policy.default)
    assert isinstance(parsed, EmailMessage)
    assert bodies(parsed) == bodies(msg)
    assert "Émile supported you." in bodies(parsed)[0]


def test_message_id_is_deterministic() -> None:
    first = message_id_for("report/truce-1/r3/agatha", DOMAIN)
    assert first == message_id_for("report/truce-1/r3/agatha", DOMAIN)
    assert first != message_id_for("report/truce-1/r3/barney", DOMAIN)
    assert first.startswith("<courier.") and first.endswith(f"@{DOMAIN}>")
    assert len(first) == len("<courier.@>") + 24 + len(DOMAIN)


def test_our_message_ids_are_recognised() -> None:
    ours = message_id_for("anything", DOMAIN)
    assert is_our_message_id(ours, DOMAIN)
    assert is_our_message_id(f"  {ours}\n", DOMAIN.upper())
    assert not is_our_message_id(ours, "other.example.org")
    assert not is_our_message_id("<CAF=abc123@mail.gmail.com>", DOMAIN)
    assert not is_our_message_id(f"<courier.xyz@{DOMAIN}>", DOMAIN)


def test_private_section_is_left_out_when_empty() -> None:
    text, html = bodies(make("report", replace(REPORT, private_lines=[])))
    assert "Only for you" not in text and "Only for you" not in html


def test_reminder_without_orders_says_so() -> None:
    assert "we have no orders from you yet" in bodies(make("reminder"))[0]
    ctx = ReminderContext(mail=MAIL, standing=["defend"])
    text = bodies(make("reminder", ctx))[0]
    assert "no orders" not in text and "  defend\n" in text


def test_every_player_mail_ends_with_the_order_template() -> None:
    for kind in ("receipt", "report", "reminder"):
        text, html = bodies(make(kind))
        assert text.rstrip().rsplit("\n", 1)[0].rstrip().endswith(ORDER_TEMPLATE.rstrip()), kind
        assert "attack Barney / defend" in html


def test_html_is_autoescaped_and_text_is_not() -> None:
    evil = "<script>alert(1)</script>"
    ctx = replace(REPORT, mail=replace(MAIL, recipient_name=evil), public_lines=[evil])
    text, html = bodies(make("report", ctx))
    assert "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert f"Hello {evil}," in text


def test_a_missing_variable_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "reminder.txt.j2").write_text("Hello {{ recipient_nmae }}\n")
    with pytest.raises(RenderError, match=r"common/reminder\.txt\.j2.*recipient_nmae"):
        make("reminder", env=make_environment(tmp_path))


def test_override_dir_wins_over_the_packaged_template(tmp_path: Path) -> None:
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "reminder.txt.j2").write_text("Oi {{ recipient_name }}, orders please!\n")
    text, html = bodies(make("reminder", env=make_environment(tmp_path)))
    assert text == "Oi Agatha, orders please!\n"
    assert "closes soon" in html  # the packaged HTML still serves


def test_organiser_templates_run_in_a_sandbox(tmp_path: Path) -> None:
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "reminder.txt.j2").write_text("{{ ''.__class__.__mro__[1].__subclasses__() }}\n")
    with pytest.raises(RenderError) as caught:
        make("reminder", env=make_environment(tmp_path))
    assert isinstance(caught.value.__cause__, SecurityError)


@dataclass(frozen=True, kw_only=True)
class AttackSucceeded(Event):
    attacker: str
    target: str
    coins: int


EVENT = AttackSucceeded(attacker="Barney", target="Agatha", coins=1, audience=frozenset({"Barney"}))


def test_event_without_a_template_falls_back_to_its_fields() -> None:
    line = render_event(make_environment(), "nogame", EVENT)
    assert line == "AttackSucceeded: attacker=Barney, target=Agatha, coins=1"


def test_event_template_renders_one_line(tmp_path: Path) -> None:
    events = tmp_path / "nogame" / "events"
    events.mkdir(parents=True)
    template = (
        "{{ e.attacker }} attacked {{ e.target }}\n and took {{ e.coins }} coin{{ 's' * (e.coins > 1) }}.\n"
    )
    (events / "AttackSucceeded.txt.j2").write_text(template)
    assert (
        render_event(make_environment(tmp_path), "nogame", EVENT) == "Barney attacked Agatha and took 1 coin."
    )


def test_kind_must_match_the_context() -> None:
    with pytest.raises(ValueError, match="does not match"):
        make("report", REMINDER)


def test_naive_date_is_refused() -> None:
    with pytest.raises(ValueError, match="aware"):
        compose(
            make_environment(), "reminder", REMINDER, sender="c@example.org", reply_to=None,
            to="a@example.com", message_key="k", domain=DOMAIN, date=datetime(2026, 11, 23, 18, 5),
        )  # fmt: skip
