"""The digests of Courier's own lines (courier/mail/own_lines.py): what counts as the same line, the
kinds a composed mail's lines get, and where a pasted quote starts."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from courier.journal.interface import SENT_LINES_KEPT
from courier.journal.sqlite import SqliteJournal
from courier.mail.compose import Composed, ReceiptContext, compose
from courier.mail.own_lines import SentLines, html_lines, line_digest, normal_line, without_quoted
from courier.mail.render import make_environment, templates_root
from tests.helpers.mail_samples import MAIL

NOON = datetime(2026, 12, 1, 12, tzinfo=UTC)
RECEIPT = ReceiptContext(
    mail=replace(MAIL, order_template="# One action line, e.g.: attack Barney / defend / loot\naction:"),
    orders=["support Émile"],
    standing=["support Émile"],
)


def _sent_lines(env_dir: Path | None = None, ctx: ReceiptContext = RECEIPT) -> SentLines:
    message = compose(
        make_environment(env_dir),
        "receipt",
        ctx,
        sender="Courier <courier@example.org>",
        reply_to=None,
        to="agatha@example.com",
        message_key="test/receipt",
        domain="example.org",
        date=NOON,
    )
    assert isinstance(message, Composed)
    return message.sent_lines


def _digests(*lines: str) -> set[bytes | None]:
    return {line_digest(line) for line in lines}


@pytest.mark.parametrize(
    ("line", "normal"),
    [
        ("Hello Agatha,", "hello agatha,"),
        (">  > Hello   Agatha,", "hello agatha,"),
        ("| Hello Agatha,", "hello agatha,"),
        ("  - Barney attacked Agatha", "barney attacked agatha"),
        ("• support Émile", "support émile"),
        ("   ", ""),
    ],
)
def test_a_line_is_the_same_whatever_the_quoting(line: str, normal: str) -> None:
    assert normal_line(line) == normal


def test_the_packed_form_reads_back() -> None:
    sent = SentLines.of(["Hello,", "loot", "action:"], echoes=["loot"], form=["action:"])
    assert SentLines.unpack(sent.pack()) == sent
    assert sent.echoes == {line_digest("loot")} and sent.form == {line_digest("action:")}


def test_lines_above_the_first_text_line_stay_and_equal_lines_below_go() -> None:
    sent = SentLines.of(
        ["Hello Agatha,", "loot", "Deadline: soon", "action:"], echoes=["loot"], form=["action:"]
    )
    text = "loot\nthanks\n\nHello Agatha,\nloot\naction:\naction: defend\nDeadline: soon"
    assert without_quoted(text, sent, is_order=lambda line: False) == "loot\nthanks\n\naction: defend"


def test_a_line_the_game_reads_as_an_order_starts_no_quote() -> None:
    sent = SentLines.of(["England: F lon - nth", "Hello Ed,"], echoes=[], form=[])
    text = "England: F lon - nth\nHello Ed,"
    assert without_quoted(text, sent, is_order=lambda line: "-" in line) == "England: F lon - nth"


def test_a_receipts_lines_are_sorted_into_echoes_form_and_text() -> None:
    sent = _sent_lines()
    assert sent.echoes == _digests("support Émile")
    heading = "Your orders for Round 3 of 10: copy this block into a reply, fill it in and send it."
    assert _digests(heading, "action:", "# One action line, e.g.: attack Barney / defend / loot") <= sent.form
    assert (
        _digests("Hello Agatha,", "Deadline for Round 3 of 10: Mon 23 Nov 2026 20:00 CET (19:00 UTC)")
        <= sent.text
    )
    # The HTML part's lines too, as a mail program that quotes the HTML it showed writes them.
    assert _digests("Deadline for Round 3 of 10: Mon 23 Nov 2026 20:00 CET (19:00 UTC)") <= sent.text


def test_an_organisers_own_words_for_the_form_heading_are_form_too(tmp_path: Path) -> None:
    base = (templates_root() / "common" / "_base.txt.j2").read_text(encoding="utf-8")
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "_base.txt.j2").write_text(
        base.replace("copy this block into a reply, fill it in and send it.", "fill in and send back:"),
        encoding="utf-8",
    )
    assert _digests("Your orders for Round 3 of 10: fill in and send back:") <= _sent_lines(tmp_path).form


def test_the_journal_keeps_the_last_mails_per_address_and_game(tmp_path: Path) -> None:
    journal = SqliteJournal(tmp_path / "journal.sqlite")
    try:
        for n in range(SENT_LINES_KEPT + 5):
            for game in ("truce-1", "truce-2"):
                with journal.transaction() as db:
                    db.keep_lines(
                        message_id=f"<m{n}@x>",
                        recipient="Agatha@X",
                        game=game,
                        prints=bytes([n]),
                        created_at=NOON,
                    )
        assert journal.db.execute("SELECT COUNT(*) FROM sent_lines").fetchone() == (2 * SENT_LINES_KEPT,)
        assert journal.sent_lines("agatha@x", "truce-1", ["<m3@x>", "<m7@x>"]) == [bytes([7])]  # m3 is gone
        assert journal.sent_lines("agatha@x", "truce-1", ["<elsewhere@x>"]) == [bytes([SENT_LINES_KEPT + 4])]
        assert journal.sent_lines("barney@x", "truce-1", []) == []
    finally:
        journal.close()


def test_html_is_read_in_the_lines_a_mail_program_shows() -> None:
    body = (
        "<html><head><title>Truce</title></head><body>\n<p>Hello\n  Agatha,</p>\n"
        "<p><strong>Deadline:</strong> soon &amp; sure</p>\n<pre># x\naction:</pre>\n"
        "<table><tr>\n<td>Agatha</td>\n<td>3</td></tr></table></body></html>"
    )
    shown = [" ".join(line.split()) for line in html_lines(body) if line.strip()]
    assert shown == ["Hello Agatha,", "Deadline: soon & sure", "# x", "action:", "Agatha 3"]
