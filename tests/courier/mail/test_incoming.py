"""Incoming mail → order text, sender, tags and the never-answer / forgery verdicts."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from courier.mail.incoming import cut_reply, game_tag, html_to_text, plus_tag, read_mail
from tests.helpers.paths import DATA

MAIL_DIR = DATA / "mail"
EXPECTED: dict[str, dict[str, Any]] = tomllib.loads((MAIL_DIR / "expected.toml").read_text("utf-8"))


def test_every_sample_has_expectations() -> None:
    assert sorted(p.name for p in MAIL_DIR.glob("*.eml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_message(name: str) -> None:
    mail = read_mail((MAIL_DIR / name).read_bytes())
    expected = dict(EXPECTED[name])
    for verdict in ("automatic", "refusal"):  # empty unless the sample says otherwise
        if f"{verdict}_contains" not in expected:
            expected.setdefault(verdict, None)
    for key, want in expected.items():
        if key == "game_tag":
            assert game_tag(mail.subject) == want
        elif key == "plus_tags":
            assert [t for t in map(plus_tag, mail.recipients) if t] == want
        elif key == "recipients":
            assert list(mail.recipients) == want
        elif key.endswith("_contains"):
            assert want in (getattr(mail, key.removesuffix("_contains")) or "")
        else:
            assert getattr(mail, key) == want, key


# --- cutting quotes and signatures ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "orders"),
    [
        ("attack Barney", "attack Barney"),
        ("loot\n\nOn Mon, 23 Nov 2026, Courier wrote:\n> Round 2 ...", "loot"),
        ("defend\n-- \nAgatha\nSent from my phone", "defend"),
        ("defend\n\nSent from my iPhone", "defend"),
        ("- attack Barney\n- support Agatha\n\nThanks,\nAgatha", "- attack Barney\n- support Agatha"),
        ("A Par - Bur\nF Lon - Nth\n\n--\nKaiser", "A Par - Bur\nF Lon - Nth"),
        ("loot\nAm 23.11.2026 um 08:00 schrieb Courier <o@x.org>:\n> Runde 2", "loot"),
        ("Le lun. 23 nov. 2026 à 08:00, Courier <o@x.org> a écrit :\n> Tour 2\nloot", "loot"),
        ("El lun, 23 nov 2026 a las 8:00, Courier (<o@x.org>) escribió:\n> Ronda 2\n\nloot", "loot"),
        ("Il giorno lun 23 nov 2026, Courier ha scritto:\n> Turno 2\nloot", "loot"),
        ("Op ma 23 nov. 2026 om 08:00 schreef Courier <o@x.org>:\n> Ronde 2\nloot", "loot"),
        ("defend\n\n-----Original Message-----\nFrom: Courier\nRound 2", "defend"),
        ("defend\n\n----- Message d'origine -----\nDe : Courier\nTour 2", "defend"),
        ("defend\n\n*From:* Courier <o@x.org>\n*Sent:* Monday\n*To:* me\n\nRound 2", "defend"),
        ("defend\n\nVon: Courier <o@x.org>\nGesendet: Montag\nAn: ich\n\nRunde 2", "defend"),
        # Lines that look like mail headers but are not an Outlook block stay.
        ("move 3 troops\nFrom: Alpha\nTo: Beta", "move 3 troops\nFrom: Alpha\nTo: Beta"),
        # Inline answers between quoted lines stay; the gaps shrink to one blank line.
        ("> Orders?\nattack Barney\n> Anything else?\n\n\nsupport Agatha", "attack Barney\n\nsupport Agatha"),
        ("Thanks, Barney, for nothing.\nattack Barney", "Thanks, Barney, for nothing.\nattack Barney"),
        ("> only a quote", ""),
        ("", ""),
    ],
)
def test_cut_reply(body: str, orders: str) -> None:
    assert cut_reply(body) == orders
    assert cut_reply(body.replace("\n", "\r\n")) == orders


_word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=8)
_line = st.lists(_word, min_size=1, max_size=6).map(" ".join)


@given(st.lists(_line, min_size=1, max_size=10))
def test_plain_order_lines_are_never_cut(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert cut_reply(text) == text


# --- headers: never answer, forgeries ------------------------------------------------------------


def _mail(headers: str = "", *, sender: str = "agatha@example.org", body: str = "loot\n") -> bytes:
    head = f"From: {sender}\nTo: orders@courier.example\nSubject: [truce-1] orders\n{headers}"
    return f"{head}Content-Type: text/plain; charset=utf-8\n\n{body}".encode()


@pytest.mark.parametrize(
    ("headers", "sender", "reason"),
    [
        ("Auto-Submitted: auto-generated\n", "a@x.org", "Auto-Submitted: auto-generated"),
        ("Auto-Submitted: auto-replied; owner-email=a@x.org\n", "a@x.org", "auto-replied"),
        ("Precedence: bulk\n", "a@x.org", "Precedence: bulk"),
        ("Precedence: junk\n", "a@x.org", "Precedence: junk"),
        ("Precedence: list\n", "a@x.org", "Precedence: list"),
        ("X-Autoreply: yes\n", "a@x.org", "X-Autoreply"),
        ("X-Autorespond: vacation\n", "a@x.org", "X-Autorespond"),
        ("List-Id: Truce players <truce.lists.example.org>\n", "a@x.org", "List-Id"),
        ("Return-Path: <>\n", "a@x.org", "Return-Path"),
        ("", "MAILER-DAEMON@mx.example.org", "mailer-daemon@mx.example.org"),
        ("", "Postmaster <postmaster@example.org>", "postmaster@example.org"),
    ],
)
def test_automatic_mail_is_recognised(headers: str, sender: str, reason: str) -> None:
    automatic = read_mail(_mail(headers, sender=sender)).automatic
    assert automatic is not None
    assert reason in automatic


def test_read_receipt_report_is_automatic() -> None:
    raw = (
        b"From: barney@example.net\nTo: orders@courier.example\nSubject: Read: [truce-1] report\n"
        b'Content-Type: multipart/report; report-type=disposition-notification; boundary="b"\n\n'
        b"--b\nContent-Type: text/plain\n\nYour message was displayed.\n"
        b"--b\nContent-Type: message/disposition-notification\n\n"
        b"Disposition: manual-action/MDN-sent-manually; displayed\n"
        b"--b--\n"
    )
    assert read_mail(raw).automatic == "multipart/report (disposition-notification), a bounce or receipt"


@pytest.mark.parametrize(
    "headers", ["", "Auto-Submitted: no\n", "Precedence: first-class\n", "Return-Path: <a@x.org>\n"]
)
def test_ordinary_mail_is_not_automatic(headers: str) -> None:
    assert read_mail(_mail(headers)).automatic is None


@pytest.mark.parametrize(
    ("results", "failed"),
    [
        ("mx.courier.example; dkim=pass header.d=example.org; spf=fail smtp.mailfrom=example.org", None),
        ("mx.courier.example; spf=softfail smtp.mailfrom=example.org; dmarc=pass", None),
        (
            "mx.courier.example; dkim=none; dmarc=fail (p=none) header.from=example.org",
            "dmarc=fail (p=none) header.from=example.org",
        ),
        ("mx.courier.example;\n\tDKIM=Fail header.d=example.org", "DKIM=Fail header.d=example.org"),
        ("mx.courier.example; dkim=failed-not-a-result", None),
    ],
)
def test_authentication_results(results: str, failed: str | None) -> None:
    refusal = read_mail(_mail(f"Authentication-Results: {results}\n")).refusal
    assert refusal == (failed and f"the receiving server reported {failed}")


def test_failure_in_any_of_several_authentication_results_headers_counts() -> None:
    headers = "Authentication-Results: a.example; dkim=pass\nAuthentication-Results: b.example; dkim=fail\n"
    assert read_mail(_mail(headers)).refusal == "the receiving server reported dkim=fail"


# --- addresses and tags --------------------------------------------------------------------------


def test_recipients_collect_every_delivery_header_once() -> None:
    headers = (
        "Cc: Fred <FRED@example.org>, orders@courier.example\n"
        "Delivered-To: orders+truce-1@courier.example\nX-Original-To: Orders+Truce-1@Courier.Example\n"
    )
    mail = read_mail(_mail(headers))
    assert mail.recipients == ("orders@courier.example", "fred@example.org", "orders+truce-1@courier.example")


def test_missing_headers_give_empty_values() -> None:
    mail = read_mail(b"\nattack Barney\n")
    assert (mail.sender, mail.subject, mail.message_id, mail.recipients) == ("", "", "", ())
    assert mail.text == "attack Barney"


def test_message_id_without_brackets_gets_them() -> None:
    assert read_mail(_mail("Message-ID: abc@example.org\n")).message_id == "<abc@example.org>"


@pytest.mark.parametrize(
    ("subject", "tag"),
    [
        ("[truce-1] orders", "truce-1"),
        ("Re: [truce-1] Round 2 report", "truce-1"),
        ("RE: AW: Fwd: [Truce-1] Round 2 report", "truce-1"),
        ("Re[2]: WG: [monarchs.2026] turn 3", "monarchs.2026"),
        ("[EXTERNAL] Re: [veneer_7] votes", "veneer_7"),
        ("orders for round 3 [dip-3]", "dip-3"),
        ("Re: Round 2 report", None),
        ("[ not a tag ] orders", None),
        ("", None),
    ],
)
def test_game_tag(subject: str, tag: str | None) -> None:
    assert game_tag(subject) == tag


@pytest.mark.parametrize(
    ("address", "tag"),
    [
        ("orders+truce-1@x.org", "truce-1"),
        ("Courier <Orders+Truce-1@X.org>", "truce-1"),
        ("orders+dip+3@x.org", "dip+3"),
        ("orders@x.org", None),
        ("orders+@x.org", None),
        ("", None),
    ],
)
def test_plus_tag(address: str, tag: str | None) -> None:
    assert plus_tag(address) == tag


# --- decoding ------------------------------------------------------------------------------------


def _part(content_type: str, body: bytes, encoding: str = "8bit") -> bytes:
    head = f"From: a@x.org\nContent-Type: {content_type}\nContent-Transfer-Encoding: {encoding}\n\n"
    return head.encode() + body


@pytest.mark.parametrize(
    ("content_type", "body", "text"),
    [
        ("text/plain; charset=x-unknown-charset", "attack Zoë".encode(), "attack Zoë"),
        ("text/plain; charset=utf-8", "attack Zoë".encode("cp1252"), "attack Zoë"),
        ("text/plain; charset=iso-8859-1", "attack Zoë".encode("latin-1"), "attack Zoë"),
        (
            "text/plain",
            b"attack Zo\x81",
            "attack Zo",
        ),  # undefined in cp1252: latin-1 takes it, a C1 control, never echoed
        ("text/plain; charset=utf-8", "\ufeffattack Barney".encode(), "attack Barney"),
    ],
)
def test_decoding_falls_back(content_type: str, body: bytes, text: str) -> None:
    assert read_mail(_part(content_type, body)).text == text


def test_empty_plain_part_falls_back_to_html() -> None:
    raw = (
        b'From: a@x.org\nContent-Type: multipart/alternative; boundary="b"\n\n'
        b"--b\nContent-Type: text/plain\n\n\n--b\nContent-Type: text/html\n\n<p>defend</p>\n--b--\n"
    )
    assert read_mail(raw).text == "defend"


def test_html_to_text_keeps_order_lines_verbatim() -> None:
    html = (
        "<html><head><title>t</title><style>p{}</style><script>x()</script></head><body>"
        "<ol><li>1. attack <b>Barney</b></li><li>- support&nbsp;Agatha</li></ol>"
        "<p>A Par - Bur</p>give 3 to Fred<br>x_y_z * 2"
        "<blockquote>Round 2<blockquote>Round 1</blockquote></blockquote></body></html>"
    )
    assert html_to_text(html) == (
        "1. attack Barney\n- support Agatha\nA Par - Bur\ngive 3 to Fred\nx_y_z * 2\n> Round 2\n> > Round 1"
    )


@given(st.binary(max_size=400))
def test_any_bytes_are_read_without_raising(raw: bytes) -> None:
    read_mail(raw)


def _with_results(*headers: str) -> bytes:
    lines = [f"Authentication-Results: {h}" for h in headers]
    return ("\r\n".join([*lines, "From: a@x.test", "Subject: s", "", "loot"]) + "\r\n").encode()


def test_only_trusted_authserv_ids_are_believed() -> None:
    forged = _with_results(
        "evil.test; dkim=fail header.d=x.test", "mx.courier.test; dkim=pass header.d=x.test"
    )
    assert read_mail(forged).refusal is not None  # nothing configured: every header counts
    assert read_mail(forged, trusted_authserv_ids=["mx.courier.test"]).refusal is None
    failing = _with_results("mx.courier.test 1; dkim=pass; dmarc=fail header.from=x.test")
    assert (
        read_mail(failing, trusted_authserv_ids=["MX.courier.test"]).refusal
        == "the receiving server reported dmarc=fail header.from=x.test"
    )
