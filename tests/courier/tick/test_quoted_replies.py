"""A quoted line never becomes an order, even when the cut fails (issue 26): a reply whose mail program
pasted Courier's receipt or report below the new text, with no `>` and no attribution line Courier
could recognise, is read as the new text alone (courier/mail/own_lines.py)."""

from __future__ import annotations

from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

import pytest

from courier.backends.maildir import deliver
from tests.conftest import Table, address, text_of
from tests.helpers import diplomacy
from tests.helpers.clock import at


def _last(table: Table, name: str, kind: str) -> EmailMessage:
    return [m for m in table.sent(name) if m["X-Courier-Kind"] == kind][-1]


def _reply(table: Table, name: str, answered: EmailMessage, new_text: str, *, to_address: str = "") -> None:
    """A reply from a mail program that pastes the answered mail under the new text unmarked."""
    body = f"{new_text}\n\n{text_of(answered)}" if new_text else text_of(answered)
    table.mail(
        to_address or address(name),
        body,
        subject=f"Re: {answered['Subject']}",
        headers={"In-Reply-To": str(answered["Message-ID"]), "References": str(answered["Message-ID"])},
    )


def _section(text: str, heading: str) -> list[str]:
    """The indented lines under a heading of a receipt."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    found = []
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        found.append(line.strip())
    return found


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    t = make_table()
    t.tick(at(0, 8, 5))  # the welcomes
    return t


def test_a_pasted_receipt_under_new_orders_is_not_read(table: Table) -> None:
    table.order("Agatha", "loot")
    table.tick(at(0, 9))
    receipt = _last(table, "Agatha", "receipt")
    assert _section(text_of(receipt), "Your orders that now stand") == ["loot"]

    _reply(table, "Agatha", receipt, "attack Barney")
    table.tick(at(0, 10))
    text = text_of(_last(table, "Agatha", "receipt"))
    assert _section(text, "Understood from this mail") == ["attack Barney"]
    assert _section(text, "Your orders that now stand") == ["attack Barney"]
    assert "Not understood" not in text  # the pasted greeting, headings and footer are not errors
    assert "Only the last action line counts" not in text


def test_an_order_the_receipt_echoed_is_kept_when_sent_again(table: Table) -> None:
    table.order("Agatha", "loot")
    table.tick(at(0, 9))
    receipt = _last(table, "Agatha", "receipt")
    table.order("Agatha", "attack Barney")
    table.tick(at(0, 10))

    # The reply to the first receipt says "loot" again, with nothing quoted: it counts.
    table.order("Agatha", "loot", headers={"In-Reply-To": str(receipt["Message-ID"])})
    table.tick(at(0, 11))
    assert _section(text_of(_last(table, "Agatha", "receipt")), "Your orders that now stand") == ["loot"]

    # And above a pasted receipt that echoes it: the new text stays, the quote goes.
    _reply(table, "Agatha", _last(table, "Agatha", "receipt"), "loot")
    table.tick(at(0, 12))
    text = text_of(_last(table, "Agatha", "receipt"))
    assert _section(text, "Understood from this mail") == ["loot"]
    assert "Not understood" not in text


def test_a_filled_in_form_line_below_the_quote_start_is_read(table: Table) -> None:
    """An inline answer: the player pastes the receipt and writes an order into its form."""
    table.order("Agatha", "loot")
    table.tick(at(0, 9))
    receipt = _last(table, "Agatha", "receipt")
    body = text_of(receipt).replace("\n# Players:", "\nattack Barney\n# Players:")
    assert body != text_of(receipt)
    table.mail(address("Agatha"), body, headers={"In-Reply-To": str(receipt["Message-ID"])})
    table.tick(at(0, 10))
    text = text_of(_last(table, "Agatha", "receipt"))
    assert _section(text, "Your orders that now stand") == ["attack Barney"]
    assert "Not understood" not in text


def test_the_order_form_copied_alone_still_reads(table: Table) -> None:
    welcome = _last(table, "Barney", "welcome")
    lines = text_of(welcome).splitlines()
    heading = next(i for i, line in enumerate(lines) if "copy this block" in line)
    end = next(i for i, line in enumerate(lines) if line.startswith("# Players:"))
    form = "\n".join([*lines[heading : end + 1], "loot"])
    table.order("Barney", form, headers={"In-Reply-To": str(welcome["Message-ID"])})
    table.tick(at(0, 9))
    text = text_of(_last(table, "Barney", "receipt"))
    assert _section(text, "Your orders that now stand") == ["loot"]


def test_a_pasted_report_under_new_orders_is_not_read(table: Table) -> None:
    table.order("Agatha", "loot")
    table.tick(at(0, 20, 5))  # round 1 resolves: the report
    report = _last(table, "Agatha", "report")
    assert "results" in str(report["Subject"])

    _reply(table, "Agatha", report, "attack Barney")
    table.tick(at(1, 9))
    text = text_of(_last(table, "Agatha", "receipt"))
    assert _section(text, "Understood from this mail") == ["attack Barney"]
    assert "Not understood" not in text


def test_a_report_older_than_two_days_still_guards_the_reply(make_table: Callable[..., Table]) -> None:
    table = make_table({"rounds": "6"})
    table.tick(at(0, 8, 5))
    table.tick(at(0, 20, 5))  # round 1's report
    report = _last(table, "Agatha", "report")
    for day in (1, 2, 3):
        table.tick(at(day, 20, 5))  # three more rounds; the report's bytes are dropped after two days
    journal = table.journal()
    try:
        kept = journal.db.execute(
            "SELECT length(raw) FROM outbox WHERE message_id = ?", (str(report["Message-ID"]),)
        ).fetchone()
    finally:
        journal.close()
    assert kept == (0,)

    _reply(table, "Agatha", report, "attack Barney")
    table.tick(at(4, 9))
    text = text_of(_last(table, "Agatha", "receipt"))
    assert _section(text, "Understood from this mail") == ["attack Barney"]
    assert "Not understood" not in text


def test_a_reply_without_in_reply_to_is_checked_against_the_latest_mail(table: Table) -> None:
    table.order("Agatha", "loot")
    table.tick(at(0, 9))
    receipt = _last(table, "Agatha", "receipt")
    table.order("Agatha", f"attack Barney\n\n{text_of(receipt)}")
    table.tick(at(0, 10))
    text = text_of(_last(table, "Agatha", "receipt"))
    assert _section(text, "Your orders that now stand") == ["attack Barney"]


def test_a_pasted_diplomacy_receipt_under_new_orders_is_not_read(tmp_path: Path) -> None:
    table = diplomacy.table(tmp_path)
    table.tick(at(0, 8, 5))
    table.order("Ed", "F lon - nth\nF edi - nwg\nA lvp - yor")
    table.tick(at(0, 9))
    receipt = _last(table, "Ed", "receipt")
    assert "F lon - nth" in _section(text_of(receipt), "Your orders that now stand")

    _reply(table, "Ed", receipt, "F lon - eng\nF edi - nth\nA lvp - wal")
    table.tick(at(0, 10))
    text = text_of(_last(table, "Ed", "receipt"))
    assert _section(text, "Your orders that now stand") == ["F lon - eng", "F edi - nth", "A lvp - wal"]
    assert "Not understood" not in text


def test_an_html_reply_that_pastes_the_receipt_as_shown_is_not_read(table: Table) -> None:
    """A mail program that quotes the HTML part it showed, inside the reply's HTML, unmarked."""
    table.order("Agatha", "loot")
    table.tick(at(0, 9))
    receipt = _last(table, "Agatha", "receipt")
    shown = receipt.get_body(("html",))
    assert shown is not None
    inner = str(shown.get_content()).split("<body", 1)[1].split(">", 1)[1].split("</body>")[0]
    reply = EmailMessage()
    reply["From"] = address("Agatha")
    reply["To"] = "orders@courier.test"
    reply["Subject"] = f"Re: {receipt['Subject']}"
    reply["Message-ID"] = "<html-reply@players.test>"
    reply["In-Reply-To"] = str(receipt["Message-ID"])
    reply.set_content(f"<html><body><div>attack Barney</div><div>{inner}</div></body></html>", subtype="html")
    deliver(table.root / "mail" / "inbox", reply.as_bytes(), at=at(0, 9, 30))
    table.tick(at(0, 10))
    text = text_of(_last(table, "Agatha", "receipt"))
    assert _section(text, "Understood from this mail") == ["attack Barney"]
    assert _section(text, "Your orders that now stand") == ["attack Barney"]


def test_words_of_relayed_press_written_again_are_the_players_own(table: Table) -> None:
    """Press is another player's words: the recipient may write the same lines, and they stay."""
    table.order("Agatha", "press to Celeste: Hi all,\nsupport Agatha")
    table.tick(at(0, 9))
    assert "support Agatha" in text_of(_last(table, "Celeste", "press"))
    table.order("Celeste", "Hi all,\nsupport Agatha")  # a new mail: checked against the press
    table.tick(at(0, 10))
    assert _section(text_of(_last(table, "Celeste", "receipt")), "Your orders that now stand") == [
        "support Agatha"
    ]


def test_the_answered_mail_is_found_by_references_alone(table: Table) -> None:
    table.order("Agatha", "loot")
    table.tick(at(0, 9))
    receipt = _last(table, "Agatha", "receipt")
    table.order("Agatha", "defend")  # a later receipt: the latest mail is no longer the one answered
    table.tick(at(0, 10))
    welcome = _last(table, "Agatha", "welcome")
    table.order(
        "Agatha",
        f"attack Barney\n\n{text_of(receipt)}",
        headers={"References": f"{welcome['Message-ID']} {receipt['Message-ID']}"},
    )
    table.tick(at(0, 11))
    text = text_of(_last(table, "Agatha", "receipt"))
    assert _section(text, "Your orders that now stand") == ["attack Barney"]
    assert "Not understood" not in text


@pytest.mark.parametrize("command", ["rules", "status", "help"])
def test_a_command_the_help_answer_listed_is_read_in_the_next_mail(table: Table, command: str) -> None:
    """`help` lists `rules`, `status` and `help` as lines of their own; a player who then writes one
    of them in a new mail asks for it, and is answered, not sent a receipt with no orders."""
    table.order("Agatha", "help")
    table.tick(at(0, 9))
    assert f"\n  {command}\n" in text_of(_last(table, "Agatha", "answer"))
    table.order("Agatha", command)
    table.tick(at(0, 10))
    kinds = [m["X-Courier-Kind"] for m in table.sent("Agatha")]
    assert kinds[-1] == "answer" and "receipt" not in kinds
    assert f"{command}:" in text_of(_last(table, "Agatha", "answer"))
