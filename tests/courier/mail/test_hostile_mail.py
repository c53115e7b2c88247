"""Mail that must never stop the arbiter, fool it about who wrote it, or come back as a huge or
garbled reply: each shape is delivered through the tick next to an ordinary order, which must still
be read. Data: tests/data/authorship/cases.yaml, config/autoreplies.toml, tests/data/mail/."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml

from courier.backends.maildir import deliver
from courier.config.deployment import load_deployment
from courier.data import shipped_dir
from courier.mail.incoming import read_mail
from tests.conftest import Table, address, count_fault, text_of
from tests.helpers.clock import at
from tests.helpers.forgiving import BY_MAIL, forgiving_case, forgiving_table
from tests.helpers.paths import DATA

CASES = yaml.safe_load((DATA / "authorship" / "cases.yaml").read_text(encoding="utf-8"))
AUTOREPLIES = tomllib.loads((shipped_dir("config") / "autoreplies.toml").read_text(encoding="utf-8"))
NESTED = "(" * 3000 + ")" * 3000


def _headers(*lines: str, body: str = "loot") -> bytes:
    return ("\r\n".join([*lines, "", body]) + "\r\n").encode()


def _nested_multipart(depth: int, sender: str) -> bytes:
    body = "Content-Type: text/plain\r\n\r\nattack Barney\r\n"
    for i in range(depth):
        body = f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n{body}--b{i}--\r\n'
    return f"From: {sender}\r\nSubject: [truce-1] orders\r\n{body}".encode()


def _nested_messages(depth: int, sender: str) -> bytes:
    body = "Content-Type: text/plain\r\n\r\nattack Barney\r\n"
    for _ in range(depth):
        body = f"Content-Type: message/rfc822\r\n\r\nFrom: {sender}\r\n{body}"
    return f"From: {sender}\r\nSubject: [truce-1] orders\r\n{body}".encode()


AGATHA = address("Agatha")
SHAPES: dict[str, bytes] = {
    "message-id": _headers(f"From: {AGATHA}", "Subject: [truce-1] orders", f"Message-ID: {NESTED}"),
    "content-type": _headers(
        f"From: {AGATHA}", "Subject: [truce-1] orders", f"Content-Type: text/plain; {NESTED}"
    ),
    "from": _headers(f"From: {NESTED} {AGATHA}", "Subject: [truce-1] orders"),
    "to": _headers(f"From: {AGATHA}", f"To: {NESTED} orders@courier.test", "Subject: [truce-1] orders"),
    "multipart": _nested_multipart(1000, AGATHA),
    "rfc822": _nested_messages(1000, AGATHA),
    "huge-headers": _headers(
        f"From: {AGATHA}", "Subject: [truce-1] orders", *[f"X-Pad-{i}: {'x' * 990}" for i in range(700)]
    ),
    "garbage": b"\xff\xfe\x00\x00" * 2000,
}


def _statuses(table: Table) -> list[str]:
    journal = table.journal()
    rows = journal.db.execute("SELECT status FROM inputs ORDER BY id").fetchall()
    journal.close()
    return [r[0] for r in rows]


def _standing(table: Table) -> dict[str, str]:
    journal = table.journal()
    standing = journal.standing("truce-1", "round-1")
    journal.close()
    return {player: str(rows) for player, rows in standing.items()}


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    table = make_table()
    table.tick(at(0, 8, 5))
    return table


def _deliver(table: Table, raw: bytes) -> None:
    deliver(table.root / "mail" / "inbox", raw, at=table.clock + timedelta(minutes=1))


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_hostile_mail_is_set_aside_and_the_next_mail_is_read(table: Table, shape: str) -> None:
    before = len(table.sent("Agatha"))
    _deliver(table, SHAPES[shape])
    table.order("Barney", "loot")
    assert table.tick(at(0, 9)) == []
    assert "loot" in text_of(table.sent("Barney")[-1])  # the next mail in the inbox is read
    assert len(table.sent("Agatha")) == before  # nobody is answered about a mail we cannot read
    assert list(_standing(table)) == ["Barney"]
    unread = [s for s in _statuses(table) if s not in ("used",)]
    assert unread == ["unreadable"] or (shape == "garbage" and unread in (["unreadable"], ["ignored"]))
    table.order("Celeste", "defend")
    assert table.tick(at(0, 10)) == []  # never retried, and the arbiter stays up
    assert "defend" in text_of(table.sent("Celeste")[-1])
    count_fault("hostile mail")


def test_every_sample_of_the_mail_corpus_passes_through_the_tick(table: Table) -> None:
    for sample in sorted((DATA / "mail").glob("*.eml")):
        _deliver(table, sample.read_bytes())
    table.order("Barney", "loot")
    assert table.tick(at(0, 9)) == []
    assert "loot" in text_of(table.sent("Barney")[-1])


def test_a_huge_html_mail_is_cut_before_it_is_converted() -> None:
    message = EmailMessage()
    message["From"] = AGATHA
    message.set_content("<p>loot</p>" + "<div>filler</div>" * 1_500_000, subtype="html")  # 25 MB
    mail = read_mail(message.as_bytes())
    assert mail.text.startswith("loot")
    assert len(mail.full_text) <= 1_000_000


# --- who really sent it ----------------------------------------------------------------------------


def test_a_display_name_holding_a_players_address_moves_nothing(table: Table) -> None:
    before = len(table.sent("Agatha"))
    table.mail("evil@x.example", "attack Barney", sender_name=AGATHA)
    _deliver(
        table, _headers(f"From: {AGATHA}<evil@x.example>", "Subject: [truce-1] orders", body="attack Celeste")
    )
    table.tick(at(0, 9))
    assert _standing(table) == {}
    assert len(table.sent("Agatha")) == before and table.sent("evil@x.example") == []


@pytest.mark.parametrize(
    "from_lines",
    [[f"From: {AGATHA}", "From: evil@x.example"], [f"From: Agatha <{AGATHA}>, Evil <evil@x.example>"]],
    ids=["two-from-headers", "two-mailboxes"],
)
def test_a_mail_with_two_authors_is_refused_and_the_player_told(table: Table, from_lines: list[str]) -> None:
    _deliver(table, _headers(*from_lines, "Subject: [truce-1] orders", body="attack Barney"))
    table.tick(at(0, 9))
    assert _standing(table) == {}
    assert "more than one" in text_of(table.sent("Agatha")[-1])


def _trusting(table: Table, *, strict: bool) -> None:
    toml = table.deployment.path
    auth = '[auth]\ntrusted_authserv_ids = ["mx.courier.test"]\n' + ('require = "pass"\n' if strict else "")
    toml.write_text(toml.read_text().replace("[inbox]", auth + "\n[inbox]"))
    table.deployment = load_deployment(toml)


@pytest.mark.parametrize("strict", [False, True], ids=["default", "strict"])
def test_verdicts_through_the_tick(table: Table, strict: bool) -> None:
    """Each verdict of the known answers, as a mail from Agatha: refused ones are told to her."""
    _trusting(table, strict=strict)
    for number, case in enumerate(CASES["verdicts"]):
        when = at(0, 9) + timedelta(minutes=number)
        sent = len(table.sent("Agatha"))
        table.clock = when - timedelta(minutes=1)
        results = [f"Authentication-Results: {r}" for r in case["results"]]
        _deliver(table, _headers(*results, f"From: {AGATHA}", "Subject: [truce-1] orders"))
        table.tick(when)
        reply = text_of(table.sent("Agatha")[sent])
        refused = "was not used" in reply
        assert refused == case["strict" if strict else "default"], (case, reply)


def test_strict_mode_needs_trusted_servers(table: Table) -> None:
    toml = table.deployment.path
    toml.write_text(toml.read_text().replace("[inbox]", '[auth]\nrequire = "pass"\n\n[inbox]'))
    with pytest.raises(Exception, match="trusted_authserv_ids"):
        load_deployment(toml)


# --- secrets, duplicates, echoes -------------------------------------------------------------------


def test_a_secret_with_spaces_can_be_given(make_table: Callable[..., Table]) -> None:
    table = make_table(secrets={"Agatha": "open sesame"})
    table.tick(at(0, 8, 5))
    table.order("Agatha", "secret: open  sesame \nloot")
    table.tick(at(0, 9))
    assert list(_standing(table)) == ["Agatha"]


def test_an_untypable_secret_is_told_to_the_organiser_once(make_table: Callable[..., Table]) -> None:
    table = make_table(secrets={"Agatha": "line one\nline two"})
    table.tick(at(0, 8, 5))
    table.tick(at(0, 9))
    warnings = [m for m in table.sent("organiser@courier.test") if "Agatha's Secret" in text_of(m)]
    assert len(warnings) == 1


def test_a_reused_message_id_with_new_content_is_read(table: Table) -> None:
    table.order("Agatha", "attack Barney", headers={"Message-ID": "<same@players.test>"})
    table.tick(at(0, 9))
    table.order("Agatha", "defend", headers={"Message-ID": "<same@players.test>"})
    table.tick(at(0, 10))
    receipt = text_of(table.sent("Agatha")[-1])
    assert "defend" in receipt and "reused the Message-ID" in receipt
    assert "defend" in _standing(table)["Agatha"]


def test_the_same_mail_delivered_twice_is_read_once(table: Table) -> None:
    message = EmailMessage()
    message["From"], message["Subject"], message["Message-ID"] = (
        AGATHA,
        "[truce-1] orders",
        "<twice@players.test>",
    )
    message.set_content("loot")
    _deliver(table, b"Received: by relay-a\r\n" + message.as_bytes())
    _deliver(table, b"Received: by relay-b\r\n" + message.as_bytes())
    before = len(table.sent("Agatha"))
    table.tick(at(0, 9))
    assert len(table.sent("Agatha")) == before + 1
    assert sorted(_statuses(table)) == ["duplicate", "used"]


def test_control_characters_are_never_echoed(table: Table) -> None:
    table.order("Agatha", "atack\x00 Barney\x1b[31m\nhello\u202eworld attack")
    table.tick(at(0, 9))
    receipt = text_of(table.sent("Agatha")[-1])
    assert not any(ord(c) < 32 and c not in "\n\t" for c in receipt)
    assert "\u202e" not in receipt and "\x1b" not in receipt


def test_an_ellipsis_in_windows_1252_after_a_name_is_read(table: Table) -> None:
    body = "support barney\x85\r\n".encode("latin-1")
    _deliver(
        table,
        b"From: " + AGATHA.encode() + b"\r\nSubject: [truce-1] orders\r\n"
        b"Content-Type: text/plain; charset=iso-8859-1\r\n\r\n" + body,
    )
    table.tick(at(0, 9))
    assert "support Barney" in _standing(table)["Agatha"]


@pytest.mark.parametrize(
    ("body", "limit"),
    [("\n".join(f"give 1 to Barney x{i}" for i in range(10_000)), 100_000), ("a" * 1_000_000, 100_000)],
)
def test_a_receipt_stays_a_screenful(table: Table, body: str, limit: int) -> None:
    table.order("Agatha", body)
    table.tick(at(0, 9))
    reply = table.sent("Agatha")[-1]
    assert len(reply.as_bytes()) < limit
    if "\n" in body:
        assert "more lines not understood" in text_of(reply)


# --- mail that must not be answered ----------------------------------------------------------------


@pytest.mark.parametrize("prefix", AUTOREPLIES["subject_prefixes"])
def test_every_autoreply_subject_is_recognised(prefix: str) -> None:
    raw = _headers(f"From: {AGATHA}", f"Subject: {prefix} Re: [truce-1] orders")
    assert read_mail(raw).automatic is not None


@pytest.mark.parametrize(
    "subject", ["Autumn plans", "Absent-minded attack", "Automation: loot", "Re: [truce-1] orders"]
)
def test_ordinary_subjects_are_not_autoreplies(subject: str) -> None:
    assert read_mail(_headers(f"From: {AGATHA}", f"Subject: {subject}")).automatic is None


def test_outlooks_automatic_reply_gets_no_receipt(table: Table) -> None:
    before = len(table.sent("Agatha"))
    table.order(
        "Agatha",
        "I am away until Monday.",
        subject="Automatic reply: [truce-1] Round 1 results",
        headers={"X-Auto-Response-Suppress": "All"},
    )
    table.order("Barney", "On holiday", headers={"Precedence": "auto_reply"})
    table.tick(at(0, 9))
    assert len(table.sent("Agatha")) == before
    assert _standing(table) == {}


# --- forwarded text ----------------------------------------------------------------------------------

FORWARD_MARKERS = [
    "---------- Forwarded message ---------",
    "Begin forwarded message:",
    "---------- Weitergeleitete Nachricht ----------",
    "-------- Message transféré --------",
    "---------- Mensaje reenviado ---------",
    "---------- Messaggio inoltrato ---------",
    "-----Original Message-----",
]


@pytest.mark.parametrize("marker", FORWARD_MARKERS)
def test_inline_forwarded_text_never_counts(table: Table, marker: str) -> None:
    forwarded = f"{marker}\nFrom: Barney <{address('Barney')}>\nSubject: orders\n\nattack Celeste\n"
    table.order("Agatha", f"FYI, look at this.\n\n{forwarded}")
    table.tick(at(0, 9))
    assert "attack" not in _standing(table)["Agatha"]


def test_a_forward_and_own_orders_the_receipt_says_what_was_ignored(table: Table) -> None:
    table.order("Agatha", "defend\n\n---------- Forwarded message ---------\nFrom: Barney\n\nattack Agatha\n")
    table.tick(at(0, 9))
    receipt = text_of(table.sent("Agatha")[-1])
    assert "Forwarded text in your mail was ignored" in receipt
    assert "defend" in _standing(table)["Agatha"] and "attack" not in _standing(table)["Agatha"]


@pytest.mark.parametrize("depth", [1, 3])
def test_an_attached_message_never_counts(table: Table, depth: int) -> None:
    inner = EmailMessage()
    inner["From"], inner["Subject"] = address("Barney"), "[truce-1] orders"
    inner.set_content("attack Celeste")
    for _ in range(depth - 1):
        wrapper = EmailMessage()
        wrapper["From"] = address("Barney")
        wrapper.add_attachment(inner)
        inner = wrapper
    outer = EmailMessage()
    outer["From"], outer["Subject"], outer["Message-ID"] = AGATHA, "[truce-1] orders", "<fwd@players.test>"
    outer.add_attachment(inner)
    _deliver(table, outer.as_bytes())
    table.tick(at(0, 9))
    assert "attack" not in _standing(table)["Agatha"]
    assert "Forwarded text in your mail was ignored" in text_of(table.sent("Agatha")[-1])


# --- the organiser's settings ------------------------------------------------------------------------


def test_a_misspelt_setting_is_pointed_out_once(make_table: Callable[..., Table]) -> None:
    table = make_table(config={"initial_stach": "3"})
    toml = table.deployment.path
    toml.write_text(toml.read_text().replace("[inbox]", '[auth]\ntrusted_authserv_id = ["mx.x"]\n\n[inbox]'))
    table.deployment = load_deployment(toml)
    table.tick(at(0, 8, 5))
    table.tick(at(0, 9))
    mails = [text_of(m) for m in table.sent("organiser@courier.test")]
    assert sum("did you mean `initial_stash`?" in m for m in mails) == 1
    assert sum("did you mean `trusted_authserv_ids`?" in m for m in mails) == 1


# --- the same on every game ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", BY_MAIL)
def test_every_game_reads_on_past_hostile_and_forwarded_mail(tmp_path: Path, game: str) -> None:
    table, writer = forgiving_table(tmp_path, game)
    sender = address(writer)
    _deliver(table, _headers(f"From: {NESTED} {sender}", "Subject: [truce-1] orders"))
    _deliver(table, _nested_multipart(1000, sender))
    order = forgiving_case(game, "sentence")
    forward = f"\n\n---------- Forwarded message ---------\nFrom: someone\n\n{order['text']}\n"
    table.mail(sender, f"Hi all,\n\n{order['text']}{forward}")
    assert table.tick(at(0, 9)) == []
    receipt = text_of(table.sent(sender)[-1])
    assert "Forwarded text in your mail was ignored" in receipt
    assert "; ".join(order["orders"]) in receipt
    assert _statuses(table).count("unreadable") == 2


# --- who sent it: issue 26's sender identity --------------------------------------------------------

_BORDER = "Received: from mail.players.test (mail.players.test [192.0.2.7]) by mx.courier.test with ESMTPS"


def test_a_verdict_the_sender_wrote_below_the_border_server_is_not_believed(table: Table) -> None:
    """A forger's own `Authentication-Results: … dmarc=pass` sits below the Received line the receiving
    server wrote; only what that server added counts, so strict mode refuses the mail."""
    _trusting(table, strict=True)
    forged = "Authentication-Results: mx.courier.test; dkim=pass header.d=players.test; dmarc=pass"
    real = "Authentication-Results: mx.courier.test; dkim=none; dmarc=none"
    _deliver(table, _headers(_BORDER, real, f"From: {AGATHA}", forged, "Subject: [truce-1] orders"))
    table.tick(at(0, 9))
    assert _standing(table) == {}
    assert "was not used" in text_of(table.sent("Agatha")[-1])


def test_the_border_servers_verdict_counts_above_or_just_below_its_received_line(table: Table) -> None:
    """Postfix's milters put the verdict above the Received line, Gmail just below it: both count."""
    _trusting(table, strict=True)
    verdict = "Authentication-Results: mx.courier.test; dkim=pass header.d=players.test"
    _deliver(table, _headers(verdict, _BORDER, f"From: {AGATHA}", "Subject: [truce-1] orders", body="loot"))
    table.clock += timedelta(minutes=1)
    spf = "Received-SPF: pass (mx.courier.test: domain of players.test designates 192.0.2.7)"
    raw = _headers(
        _BORDER, spf, verdict, f"From: {address('Barney')}", "Subject: [truce-1] orders", body="loot"
    )
    _deliver(table, raw)
    table.tick(at(0, 9))
    assert set(_standing(table)) == {"Agatha", "Barney"}


def test_a_display_name_holding_angle_brackets_is_read_as_a_name(table: Table) -> None:
    """`"<b>Agatha</b>" <agatha@…>`: the quoted name's brackets are not addresses."""
    _deliver(table, _headers(f'From: "<b>Agatha</b>" <{AGATHA}>', "Subject: [truce-1] orders", body="loot"))
    table.tick(at(0, 9))
    assert set(_standing(table)) == {"Agatha"}


def test_raw_8bit_bytes_in_a_header_stop_nothing(table: Table) -> None:
    """A Cyrillic а sent unencoded in the From address: the mail is a stranger's, the tick goes on and
    the next tick does too."""
    stranger = "From: Agаtha <agаtha@players.test>\r\nSubject: [truce-1] orders\r\n\r\nloot\r\n"
    _deliver(table, stranger.encode())
    raw = f"From: {address('Celeste')}\r\nSubject: [truce-1] приказы\r\nMessage-ID: <ц@x>\r\n\r\nloot\r\n"
    _deliver(table, raw.encode())
    table.order("Barney", "loot")
    assert table.tick(at(0, 9)) == []
    assert table.tick(at(0, 10)) == []
    assert set(_standing(table)) == {"Barney", "Celeste"}
