"""Orders written the way people write them, by mail through the tick: sentences, labels and
greetings in the body, orders in the subject when the body holds none (tests/data/forgiving.yaml
says how each game reads the texts; tests/contract/test_game_contract.py checks the engine side)."""

from __future__ import annotations

import random
import tomllib
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest

from courier.backends.maildir import deliver
from courier.journal.replay import replay_game
from courier.tick.interpret import read_orders
from engine import RULESETS
from tests.conftest import Table, address, text_of
from tests.helpers.clock import at
from tests.helpers.forgiving import BY_MAIL, FORGIVING, forgiving_case, forgiving_table
from tests.helpers.paths import DATA

SAMPLES = DATA / "reading"
EXPECTED = tomllib.loads((SAMPLES / "expected.toml").read_text(encoding="utf-8"))
PREFIXES = "Re: AW: Fwd: SV: [truce-1]"


def _receipt(table: Table, writer: str, body: str, subject: str) -> str:
    table.mail(f"{writer.lower()}@players.test", body, subject=subject)
    table.tick(at(0, 9))
    return text_of(table.sent(f"{writer.lower()}@players.test")[-1])


@pytest.mark.parametrize("game", BY_MAIL)
def test_a_sentence_is_taken_and_echoed(tmp_path: Path, game: str) -> None:
    table, writer = forgiving_table(tmp_path, game)
    case = forgiving_case(game, "sentence")
    receipt = _receipt(table, writer, f"Hi all,\n\n{case['text']}\n\nCheers,\n{writer}", "[truce-1] orders")
    assert f"Read “{case['text']}” as “{'; '.join(case['orders'])}”" in receipt
    assert "not understood" not in receipt and "Did you mean" not in receipt
    assert "Hi all" not in receipt  # the greeting and the signature are skipped silently


@pytest.mark.parametrize("game", BY_MAIL)
def test_orders_in_the_subject_count_when_the_body_has_none(tmp_path: Path, game: str) -> None:
    table, writer = forgiving_table(tmp_path, game)
    case = forgiving_case(game, "label")
    quote = "> On Monday the arbiter wrote:\n> Round 1 results\n"
    body = f"Hello,\n\nsee the subject.\n\nThanks,\n{writer}\n\n{quote}"
    receipt = _receipt(table, writer, body, f"{PREFIXES} {case['text']}")
    assert f"its subject was read as your orders: “{case['text']}”" in receipt
    for order in case["orders"]:
        assert order in receipt.split("Notes:")[0]
    table.tick(at(0, 20, 5))  # the round resolves with them, and replays the same from the journal
    journal = table.journal()
    assert replay_game(journal, "truce-1")[1] == []
    journal.close()


def test_a_typo_in_a_subject_only_order_gets_a_did_you_mean(tmp_path: Path) -> None:
    table, writer = forgiving_table(tmp_path, "truce")
    receipt = _receipt(table, writer, "", "Re: [truce-1] I want to attack barny")
    assert "“I want to attack barny”: there is no player called “barny”" in receipt
    assert "Did you mean “attack Barney”?" in receipt
    assert "its subject was read as your orders" in receipt


def test_a_reply_to_a_report_with_an_empty_body_is_no_order(tmp_path: Path) -> None:
    """Our own subjects ("Round 1 of 3: results") are no order attempt: nothing is quoted back."""
    table, writer = forgiving_table(tmp_path, "truce")
    receipt = _receipt(table, writer, "Thanks!\n", "Re: [truce-1] Round 1 of 3: results")
    assert "No orders could be read from this mail." in receipt
    assert "subject" not in receipt and "Did you mean" not in receipt


def test_the_body_wins_over_the_subject(tmp_path: Path) -> None:
    table, writer = forgiving_table(tmp_path, "truce")
    receipt = _receipt(table, writer, "loot", "Re: [truce-1] attack Barney")
    assert "loot" in receipt and "attack Barney" not in receipt and "subject" not in receipt


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_every_game_reads_orders_from_the_subject(game: str) -> None:
    """The shell's subject reading over every game: prefixes and tags off, then the game's reader."""
    spec = FORGIVING[game]
    ruleset = RULESETS[game]
    state = ruleset.setup(spec["players"], spec["options"], random.Random(1))
    case = forgiving_case(game, "sentence")
    body = f"Hi,\n\nCheers,\n{spec['writer']}"
    text, parsed, subject = read_orders(
        ruleset, state, spec["writer"], text=body, subject=f"{PREFIXES} {case['text']}"
    )
    assert (text, subject) == (case["text"], case["text"])
    assert list(parsed.orders) == case["orders"]


@pytest.mark.parametrize("sample", sorted(EXPECTED))
def test_mail_from_real_clients(make_table: Callable[..., Table], sample: str) -> None:
    """tests/data/reading/*.eml: greetings, labels, sentences and subjects as mail programs send them."""
    expected = EXPECTED[sample]
    table = make_table()
    table.tick(at(0, 8, 5))
    deliver(table.root / "mail" / "inbox", (SAMPLES / sample).read_bytes(), at=at(0, 8, 6))
    table.tick(at(0, 9) + timedelta(minutes=1))
    receipt = text_of(table.sent(address(expected["sender"]))[-1])
    for text in expected["receipt_contains"]:
        assert text in receipt, receipt
    for text in expected["receipt_lacks"]:
        assert text not in receipt.split("Your orders for")[0], receipt
