"""The tick end to end on the embedded backends: mail in, rounds resolved, ledger out, mail out."""

from __future__ import annotations

from collections.abc import Callable

from openpyxl import load_workbook
from pytest import MonkeyPatch

from courier.backends.maildir import deliver
from courier.config.deployment import load_deployment
from courier.journal.replay import replay_game
from courier.journal.sqlite import SqliteJournal
from courier.tick.runbook import run_lock
from engine import find_ruleset
from tests.conftest import PLAYERS, Table, address, text_of
from tests.helpers.clock import at
from tests.helpers.ledger import ledger_facts, ledger_table


def subjects(table: Table, name: str) -> list[str]:
    return [str(m["Subject"]) for m in table.sent(name)]


def ledger(table: Table) -> list[list[object]]:
    sheet = load_workbook(table.root / "truce-1.xlsx")["Ledger"]
    return [list(row) for row in sheet.iter_rows(values_only=True)]


def test_game_starts_with_a_welcome_to_each_player(make_table: Callable[..., Table]) -> None:
    table = make_table()
    assert table.tick(at(0, 7)) == []
    assert table.sent() == []  # before the start time nothing happens
    table.tick(at(0, 8, 5))
    for name in PLAYERS:
        (welcome,) = table.sent(name)
        assert "Welcome to Truce" in str(welcome["Subject"])
        assert "Dec 2026 20:00 GMT" in text_of(welcome)
        assert welcome["Auto-Submitted"] == "auto-generated"


def test_a_round_by_mail(make_table: Callable[..., Table]) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    first = table.order("Agatha", "loot")
    table.order("Barney", "attack agatha")
    table.order("Celeste", "support Barney")
    table.tick(at(0, 9))
    receipt = table.sent("Agatha")[-1]
    assert "Orders received" in str(receipt["Subject"])
    assert receipt["In-Reply-To"] == first
    assert "loot" in text_of(receipt)
    assert table.tick(at(0, 20, 5)) == []
    report = table.sent("Agatha")[-1]
    body = text_of(report)
    assert "Round 1 of 3: results" in str(report["Subject"])
    assert "Barney" in body and "Darcy" in body  # every action is public after the reveal
    rows = ledger(table)
    assert ledger_facts(rows)[:4] == ["Game", "truce-1", "Phase", "Round 2 of 3"]
    supply = {r[0]: r[1] for r in ledger_table(rows)[1:]}
    assert supply == {"Agatha": 2, "Barney": 5, "Celeste": 3, "Darcy": 3}


def test_typo_gets_did_you_mean_and_the_amendment_stands(make_table: Callable[..., Table]) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    table.order("Barney", "atack agatha")
    table.tick(at(0, 9))
    assert "Did you mean “attack Agatha”?" in text_of(table.sent("Barney")[-1])
    table.order("Barney", "attack Agatha")
    table.order("Barney", "defend")
    table.tick(at(0, 10))
    assert "defend" in text_of(table.sent("Barney")[-1])
    table.tick(at(0, 20, 5))
    assert "Barney defended" in text_of(table.sent("Barney")[-1]) or "defend" in text_of(
        table.sent("Barney")[-1]
    )


def test_strangers_and_forgers_move_nothing(make_table: Callable[..., Table]) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    table.mail("mallory@evil.test", "attack Agatha")
    table.mail(
        address("Agatha"),
        "attack Barney",
        headers={"Authentication-Results": "mx.courier.test; dkim=fail header.d=players.test; dmarc=fail"},
    )
    table.tick(at(0, 9))
    assert table.sent("mallory@evil.test") == []  # no backscatter to strangers
    warning = table.sent("Agatha")[-1]
    assert "could not be used" in str(warning["Subject"])
    journal = table.journal()
    assert journal.standing("truce-1", "round-1") == {}
    journal.close()


def test_auto_replies_are_never_answered(make_table: Callable[..., Table]) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    before = len(table.sent("Agatha"))
    table.order("Agatha", "I am on holiday", headers={"Auto-Submitted": "auto-replied"})
    table.tick(at(0, 9))
    assert len(table.sent("Agatha")) == before


def test_secret_is_required_when_set(make_table: Callable[..., Table]) -> None:
    table = make_table(secrets={"Agatha": "opensesame"})
    table.tick(at(0, 8, 5))
    table.order("Agatha", "loot")
    table.tick(at(0, 9))
    assert "secret" in text_of(table.sent("Agatha")[-1])
    table.order("Agatha", "secret: opensesame\nloot")
    table.tick(at(0, 9, 30))
    assert "Orders received" in str(table.sent("Agatha")[-1]["Subject"])
    assert "opensesame" not in text_of(table.sent("Agatha")[-1])


def test_a_late_mail_counts_for_the_next_round(make_table: Callable[..., Table]) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    table.tick(at(0, 20, 5))  # round 1 resolved, all passed
    table.order("Agatha", "loot")
    table.tick(at(0, 20, 10))
    journal = table.journal()
    assert "Agatha" in journal.standing("truce-1", "round-2")
    journal.close()


def test_a_mail_that_missed_the_deadline_is_told_so(make_table: Callable[..., Table]) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    table.clock = at(0, 20, 1)  # delivered a minute after the deadline, before the tick ran
    table.order("Agatha", "loot")
    table.tick(at(0, 20, 5))
    receipt = table.sent("Agatha")[-1]
    assert "Late orders received: they count for Round 2 of 3" in str(receipt["Subject"])
    journal = table.journal()
    assert "Agatha" in journal.standing("truce-1", "round-2")
    journal.close()


def test_reminders_once_per_window_only_to_the_silent(make_table: Callable[..., Table]) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))  # the 12 h window opens with the round: the welcome says it all
    table.order("Agatha", "loot")
    table.tick(at(0, 19, 5))
    table.tick(at(0, 19, 10))
    assert sum("Reminder" in s for s in subjects(table, "Barney")) == 1
    assert sum("Reminder" in s for s in subjects(table, "Agatha")) == 0
    table.tick(at(0, 20, 5))
    table.tick(at(1, 8, 5))  # round 2 opened at 20:00: its 12 h window is a real reminder
    assert sum("Reminder" in s for s in subjects(table, "Agatha")) == 1


def test_early_resolution_when_everyone_wrote(make_table: Callable[..., Table]) -> None:
    table = make_table({"early_resolution": "yes", "settle": "10m"})
    table.tick(at(0, 8, 5))
    for name in PLAYERS:
        table.order(name, "pass")  # delivered at 08:06
    table.tick(at(0, 8, 10))
    assert not any("results" in s for s in subjects(table, "Darcy"))  # settling: others may amend
    table.tick(at(0, 8, 20))
    assert any("Round 1 of 3: results" in s for s in subjects(table, "Darcy"))


def test_form_responses_count_like_mail(make_table: Callable[..., Table]) -> None:
    from courier.backends.workbook import XlsxWorkbook  # noqa: F401 - the fixture wrote the workbook

    table = make_table()
    book = load_workbook(table.root / "truce-1.xlsx")
    sheet = (
        book["Form Responses 1"]
        if "Form Responses 1" in book.sheetnames
        else book.create_sheet("Form Responses 1")
    )
    if sheet.max_row < 1 or sheet.cell(1, 1).value is None:
        sheet.append(["Timestamp", "Email Address", "Game", "Orders", "Secret"])
    sheet.append(["2026-12-01 10:00:00", address("Celeste"), "truce-1", "loot", ""])
    book.save(table.root / "truce-1.xlsx")
    table.tick(at(0, 10, 5))
    table.tick(at(0, 10, 10))  # the same row is journalled once
    journal = table.journal()
    standing = journal.standing("truce-1", "round-1")
    assert standing["Celeste"][0]["orders"] == ["loot"]
    assert len(journal.acts("truce-1", "round-1")) == 1
    journal.close()


def test_bad_config_mails_the_organiser_once(make_table: Callable[..., Table]) -> None:
    table = make_table({"timezone": "Mars/Olympus"})
    problems = table.tick(at(0, 9))
    assert problems and "timezone" in problems[0]
    table.tick(at(0, 9, 5))
    notices = table.sent("organiser@courier.test")
    assert len(notices) == 1
    assert "Mars/Olympus" in text_of(notices[0])


def test_orders_wait_while_the_config_is_broken(make_table: Callable[..., Table]) -> None:
    from courier.backends.workbook import write_config
    from tests.conftest import BASE_CONFIG

    table = make_table()
    table.tick(at(0, 8, 5))
    write_config(
        table.root / "truce-1.xlsx",
        {**BASE_CONFIG, "game": "chess"},
        [{"name": n, "email": address(n)} for n in PLAYERS],
    )
    table.order("Agatha", "loot")
    table.tick(at(0, 9))
    write_config(
        table.root / "truce-1.xlsx", BASE_CONFIG, [{"name": n, "email": address(n)} for n in PLAYERS]
    )
    table.tick(at(0, 9, 5))
    journal = table.journal()
    assert "Agatha" in journal.standing("truce-1", "round-1")
    journal.close()


def test_a_second_tick_while_one_runs_does_nothing(make_table: Callable[..., Table]) -> None:
    table = make_table()
    with run_lock(table.deployment.lock_path) as held:
        assert held
        assert table.tick(at(0, 8, 5)) == []
    assert table.sent() == []


def test_ticks_repeat_nothing(make_table: Callable[..., Table]) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    table.order("Agatha", "loot")
    for _ in range(3):
        table.tick(at(0, 20, 5))
    assert sum("results" in s for s in subjects(table, "Agatha")) == 1
    assert sum("Orders received" in s for s in subjects(table, "Agatha")) == 1


def test_whole_game_ends_with_the_seed_revealed_and_replays(make_table: Callable[..., Table]) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    for day in range(3):
        table.order("Agatha", "loot")
        table.order("Barney", "attack Agatha")
        table.order("Celeste", "support barney")
        table.order("Darcy", "gift 1 to Celeste\ndefend")
        table.tick(at(day, 9))
        table.tick(at(day, 20, 5))
    last = table.sent("Celeste")[-1]
    assert "Game over" in str(last["Subject"])
    assert "test seed" in text_of(last)
    journal = SqliteJournal(table.deployment.journal_path)
    rounds, problems = replay_game(journal, "truce-1")
    journal.close()
    assert (rounds, problems) == (3, [])
    assert table.tick(at(4, 9)) == []


def test_gifts_are_announced_to_everyone_at_once(make_table: Callable[..., Table]) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    table.order("Darcy", "gift 2 to Agatha")
    table.tick(at(0, 9))
    for name in PLAYERS:
        assert any("Darcy" in text_of(m) and "gift" in text_of(m).lower() for m in table.sent(name)), name


def test_a_game_the_rules_refuse_tells_the_organiser(make_table: Callable[..., Table]) -> None:
    table = make_table(players=["Agatha", "Barney"])  # Truce needs three
    problems = table.tick(at(0, 9))
    assert problems and "at least 3 players" in problems[0]
    table.tick(at(0, 9, 5))
    (notice,) = table.sent("organiser@courier.test")
    assert "at least 3 players" in text_of(notice)
    assert table.sent("Agatha") == []


def test_our_own_mail_coming_back_is_never_answered(make_table: Callable[..., Table]) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    loop = table.sent("Agatha")[0].as_bytes()  # a forwarding rule sends our welcome straight back
    deliver(table.root / "mail" / "inbox", loop, at=at(0, 8, 6))
    before = len(table.sent())
    table.tick(at(0, 9))
    journal = table.journal()
    notes = [r[0] for r in journal.db.execute("SELECT note FROM inputs WHERE status = 'ignored'")]
    journal.close()
    assert "our own mail came back" in notes
    assert len(table.sent()) == before


def test_an_unknown_bracket_in_the_subject_is_not_a_game_tag(make_table: Callable[..., Table]) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    table.order("Agatha", "loot", subject="[urgent] my orders")
    table.tick(at(0, 9))
    assert "Orders received" in str(table.sent("Agatha")[-1]["Subject"])


def test_a_broken_organiser_template_falls_back_to_the_built_in_one(make_table: Callable[..., Table]) -> None:
    """The order still counts and its receipt goes out (built-in template); the organiser is told once.
    (Until 2026-11 the mail waited for the fix, and a round could resolve without it.)"""
    table = make_table()
    override = table.root / "my-templates" / "common"
    override.mkdir(parents=True)
    toml = table.deployment.path
    toml.write_text('templates = "my-templates"\n' + toml.read_text())
    table.deployment = load_deployment(toml)
    table.tick(at(0, 8, 5))
    (override / "receipt.txt.j2").write_text("Hello {{ no_such_variable }}")
    table.order("Agatha", "loot")
    assert table.tick(at(0, 9)) == []
    assert "Orders received" in str(table.sent("Agatha")[-1]["Subject"])
    assert "Agatha" in table.journal().standing("truce-1", "round-1")
    table.order("Barney", "loot")
    table.tick(at(0, 9, 5))
    told = [text_of(m) for m in table.sent("organiser@courier.test") if "receipt.txt.j2" in text_of(m)]
    assert len(told) == 1 and "built-in template" in told[0]


def test_an_invalid_edit_keeps_the_last_good_config(make_table: Callable[..., Table]) -> None:
    from courier.backends.workbook import write_config
    from tests.conftest import BASE_CONFIG

    table = make_table()
    players = [{"name": n, "email": address(n)} for n in PLAYERS]
    table.tick(at(0, 8, 5))
    write_config(table.root / "truce-1.xlsx", {**BASE_CONFIG, "deadlines": "25:00"}, players)
    table.order("Agatha", "loot")
    assert table.tick(at(0, 9)) == []  # the game runs on: not a failure of the tick
    table.tick(at(0, 9, 5))
    (notice,) = table.sent("organiser@courier.test")
    assert "deadlines" in text_of(notice) and "25:00" in text_of(notice)
    assert "Config!B" in text_of(notice)  # the cell to fix
    assert "last good settings" in text_of(notice)
    table.tick(at(0, 20, 5))  # resolved on the old deadline
    assert any("Round 1 of 3: results" in s for s in subjects(table, "Agatha"))


def test_the_same_mail_twice_counts_once(make_table: Callable[..., Table]) -> None:
    """A copy of a message (a UIDVALIDITY reset, a second delivery) is recorded, never re-read."""
    table = make_table()
    table.tick(at(0, 8, 5))
    table.order("Agatha", "loot", headers={"Message-ID": "<same@players.test>"})
    table.tick(at(0, 9))
    table.order("Agatha", "loot", headers={"Message-ID": "<same@players.test>"})
    table.tick(at(0, 9, 5))
    journal = table.journal()
    statuses = sorted(r[0] for r in journal.db.execute("SELECT status FROM inputs"))
    journal.close()
    assert statuses == ["duplicate", "used"]
    assert sum("Orders received" in s for s in subjects(table, "Agatha")) == 1


def add_form_response(table: Table, email: str, orders: str, secret: str = "") -> None:
    book = load_workbook(table.root / "truce-1.xlsx")
    sheet = book["Form Responses 1"]
    sheet.append(["2026-12-01 10:00:00", email, "truce-1", orders, secret])
    book.save(table.root / "truce-1.xlsx")


def test_form_answers_from_strangers_move_nothing(make_table: Callable[..., Table]) -> None:
    table = make_table(secrets={"Barney": "hush"})
    table.tick(at(0, 8, 5))
    add_form_response(table, "mallory@evil.test", "attack Agatha")
    add_form_response(table, address("Barney"), "loot", secret="wrong")
    add_form_response(table, address("Celeste"), "defend")
    table.tick(at(0, 10, 5))
    journal = table.journal()
    standing = journal.standing("truce-1", "round-1")
    journal.close()
    assert list(standing) == ["Celeste"]
    assert table.sent("mallory@evil.test") == []
    assert "secret" in text_of(table.sent("Barney")[-1])


def test_only_trusted_servers_verdicts_count(make_table: Callable[..., Table]) -> None:
    table = make_table()
    toml = table.deployment.path
    toml.write_text(
        toml.read_text().replace("[inbox]", '[auth]\ntrusted_authserv_ids = ["mx.courier.test"]\n\n[inbox]')
    )
    table.deployment = load_deployment(toml)
    table.tick(at(0, 8, 5))
    table.order("Agatha", "loot", headers={"Authentication-Results": "elsewhere.test; dkim=fail"})
    table.order(
        "Barney", "loot", headers={"Authentication-Results": "mx.courier.test; dmarc=fail header.from=x"}
    )
    table.tick(at(0, 9))
    journal = table.journal()
    standing = journal.standing("truce-1", "round-1")
    journal.close()
    assert list(standing) == ["Agatha"]
    refusal = text_of(table.sent("Barney")[-1])
    assert "dmarc=fail" in refusal


def test_a_player_in_two_games_is_asked_for_the_tag(make_table: Callable[..., Table]) -> None:
    from courier.backends.workbook import write_config
    from tests.conftest import BASE_CONFIG

    table = make_table()
    write_config(
        table.root / "truce-2.xlsx", BASE_CONFIG, [{"name": n, "email": address(n)} for n in PLAYERS]
    )
    toml = table.deployment.path
    toml.write_text(
        toml.read_text() + '\n[[game]]\nid = "truce-2"\nworkbook = "truce-2.xlsx"\nseed = "two"\n'
    )
    table.deployment = load_deployment(toml)
    table.tick(at(0, 8, 5))
    table.order("Agatha", "loot", subject="my orders")
    table.order("Barney", "loot", subject="orders for [truce-2]")
    table.order("Celeste", "loot", subject="orders", headers={"To": "orders+truce-2@courier.test"})
    table.tick(at(0, 9))
    assert "[truce-1]" in text_of(table.sent("Agatha")[-1]) and "[truce-2]" in text_of(
        table.sent("Agatha")[-1]
    )
    journal = table.journal()
    assert list(journal.standing("truce-2", "round-1")) == ["Barney", "Celeste"]
    assert journal.standing("truce-1", "round-1") == {}
    journal.close()


def test_the_files_outbox_holds_each_mail_byte_for_byte_as_queued(make_table: Callable[..., Table]) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    journal = table.journal()
    try:
        queued = {str(r[0]): bytes(r[1]) for r in journal.db.execute("SELECT recipient, raw FROM outbox")}
    finally:
        journal.close()
    for name in PLAYERS:
        (eml,) = (table.root / "mail" / "sent" / address(name)).glob("*.eml")
        assert eml.read_bytes() == queued[address(name)]


def test_a_tick_decodes_each_game_once(make_table: Callable[..., Table], monkeypatch: MonkeyPatch) -> None:
    """Three orders read and the round resolved in one tick: the game's state is decoded from the
    journal once (style.md point 5); History is kept as lines in the journal and decodes no round
    (issue 29)."""
    table = make_table()
    table.tick(at(0, 8, 5))
    for name, orders in (("Agatha", "loot"), ("Barney", "attack agatha"), ("Celeste", "loot")):
        table.order(name, orders)
    ruleset = find_ruleset("truce")
    decoded: list[object] = []
    real = type(ruleset).from_json

    def counted(self: object, data: object) -> object:
        decoded.append(data)
        return real(self, data)  # type: ignore[arg-type]

    monkeypatch.setattr(type(ruleset), "from_json", counted)

    assert table.tick(at(0, 20, 5)) == []

    assert len(decoded) == 1
    assert "Round 1 of 3: results" in str(table.sent("Agatha")[-1]["Subject"])
    assert len(table.sent("Celeste")) == 3  # welcome, receipt, report


def test_sent_mail_is_kept_in_the_journal_for_two_days(make_table: Callable[..., Table]) -> None:
    """Two days after it went out a mail's bytes leave the journal (maps made it grow by megabytes
    a round); its row stays, and the mail itself is in the outbox folder, untouched."""
    table = make_table()
    table.tick(at(0, 8, 5))
    table.order("Agatha", "loot")
    table.tick(at(1, 9))  # the next day: the welcome is still kept
    table.tick(at(2, 9))  # two days after the welcome
    journal = table.journal()
    try:
        kept = dict(
            journal.db.execute("SELECT key, length(raw) FROM outbox WHERE status = 'sent'").fetchall()
        )
    finally:
        journal.close()
    assert all(kept[f"truce-1/welcome/{name}"] == 0 for name in PLAYERS)
    assert kept["receipt/1"] > 0 and len(kept) > len(PLAYERS) + 1
    assert "Welcome to Truce" in str(table.sent("Agatha")[0]["Subject"])
