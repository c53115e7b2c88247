"""Bot seats through the tick: `Email` = `bot` in the Players tab seats the game's bot (no mail goes
there, none is read from there), `absent = bot` lets the bot play every silent seat, the Ledger
marks bot seats, early resolution does not wait for a bot, and replay reproduces the bots' orders."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from openpyxl import load_workbook

from courier.backends.base import SheetSnapshot
from courier.backends.workbook import write_config
from courier.config.deployment import GameSource
from courier.config.game import game_config
from courier.errors import ConfigError
from courier.journal.replay import replay_game
from courier.journal.sqlite import SqliteJournal
from engine.bots import BOT_NOTE
from tests.conftest import Table, text_of
from tests.helpers.clock import at
from tests.helpers.ledger import ledger_facts, ledger_table

TRUCE = {
    "game": "truce",
    "rounds": "3",
    "timezone": "UTC",
    "start": "2026-12-01 08:00",
    "deadlines": "20:00",
    "reminders": "none",
}


def rows(names: list[str], bots: tuple[str, ...] = ()) -> list[dict[str, str]]:
    return [{"name": n, "email": "bot" if n in bots else f"{n.lower()}@players.test"} for n in names]


def ledger(root: Path) -> list[list[object]]:
    return [list(r) for r in load_workbook(root / "truce-1.xlsx")["Ledger"].iter_rows(values_only=True)]


def replayed(t: Table) -> tuple[int, list[object]]:
    journal = SqliteJournal(t.deployment.journal_path)
    try:
        checked, problems = replay_game(journal, "truce-1")
    finally:
        journal.close()
    return checked, list(problems)


def test_a_bot_seat_plays_gets_no_mail_is_marked_on_the_ledger_and_replays(tmp_path: Path) -> None:
    t = Table(tmp_path, TRUCE, rows(["Agatha", "Barney", "Celeste", "Darcy"], bots=("Darcy",)))
    t.tick(at(0, 8, 5))
    assert {str(m["To"]) for m in t.sent()} >= {"agatha@players.test", "celeste@players.test"}
    assert not any("bot" in str(m["To"]) for m in t.sent())
    table = ledger_table(ledger(tmp_path))
    darcy = next(r for r in table[1:] if str(r[0]).startswith("Darcy"))
    assert darcy[0] == "Darcy (bot)" and darcy[table[0].index("Orders in")] == "bot"

    t.mail("agatha@players.test", "attack Darcy")
    t.mail("barney@players.test", "support Agatha")
    for day in range(3):
        t.tick(at(day, 20, 5))
    report = text_of(t.sent("celeste@players.test")[-2])
    assert "Darcy" in report and "defend" in report  # attacked in round 1, the bot defends in round 2
    assert not any("bot" in str(m["To"]) for m in t.sent())
    assert replayed(t) == (3, [])


def test_the_players_tab_seats_a_bot_and_absent_must_be_bot_or_default() -> None:
    source = GameSource(id="g", organiser="o@x.test")
    config = game_config(
        source,
        SheetSnapshot(
            config={**TRUCE, "absent": "bot"}, players=rows(["Agatha", "Barney", "Darcy"], ("Darcy",))
        ),
    )
    assert config.bots == ["Darcy"] and config.absent == "bot"
    assert [p.email for p in config.players if p.bot] == ["darcy-4@bot.invalid"]
    assert config.player_by_email("darcy-4@bot.invalid") is None
    assert "absent" not in config.options
    with pytest.raises(ConfigError, match="`absent` must be `bot` or `default`"):
        game_config(
            source, SheetSnapshot(config={**TRUCE, "absent": "robots"}, players=rows(["A", "B", "C"]))
        )


def test_mail_from_a_bot_address_is_never_read(tmp_path: Path) -> None:
    t = Table(tmp_path, TRUCE, rows(["Agatha", "Barney", "Darcy"], bots=("Darcy",)))
    t.tick(at(0, 8, 5))
    t.mail("darcy-4@bot.invalid", "loot")
    t.tick(at(0, 9))
    journal = t.journal()
    try:
        assert "Darcy" not in journal.standing("truce-1", "round-1")
    finally:
        journal.close()


def test_early_resolution_waits_only_for_the_people(tmp_path: Path) -> None:
    config = {**TRUCE, "early_resolution": "yes", "settle": "10m"}
    t = Table(tmp_path, config, rows(["Agatha", "Barney", "Darcy"], bots=("Darcy",)))
    t.tick(at(0, 8, 5))
    t.mail("agatha@players.test", "loot")
    t.mail("barney@players.test", "defend")
    t.tick(at(0, 9))
    t.tick(at(0, 9, 30))  # everyone human has written and 10 minutes passed: round 1 resolves
    assert "Round 2" in str(ledger_facts(ledger(tmp_path)))


DIPLOMACY = {
    "game": "diplomacy",
    "timezone": "UTC",
    "start": "2026-12-01 08:00",
    "deadlines": "20:00",
    "reminders": "none",
    "absent": "bot",
}


def test_absent_bot_plays_every_silent_seat_and_replays(tmp_path: Path) -> None:
    players = [
        {"name": "Fran", "email": "fran@players.test", "role": "France"},
        {"name": "Gerd", "email": "gerd@players.test", "role": "Germany"},
    ]
    t = Table(tmp_path, DIPLOMACY, players)
    t.tick(at(0, 8, 5))
    t.mail("fran@players.test", "A par H\nA mar H\nF bre H")  # Gerd writes nothing: the bot plays him
    t.tick(at(0, 20, 5))
    report = text_of(t.sent("fran@players.test")[-1])
    assert "Germany: A mun H" not in report
    assert "Germany: A mun -" in report or "Germany: A ber -" in report or "Germany: F kie -" in report
    assert "France: A par H — succeeds" in report or "France: A par H" in report
    t.tick(at(1, 20, 5))
    checked, problems = replayed(t)
    assert problems == [] and checked >= 2


VENEER = {
    "game": "veneer",
    "timezone": "UTC",
    "start": "2026-12-01 08:00",
    "duration": "2h",
    "vote_duration": "1h",
    "response_duration": "1h",
    "reminders": "none",
    "absent": "bot",
}


def test_a_game_of_bots_plays_to_the_end_with_the_chart_in_the_game_over_mail(tmp_path: Path) -> None:
    t = Table(
        tmp_path, VENEER, rows(["Agatha", "Barney", "Charles"])
    )  # people who never write: the bot plays them all
    when = at(0, 8, 5)
    for _ in range(400):
        t.tick(when)
        journal = t.journal()
        try:
            row = journal.game("truce-1")
        finally:
            journal.close()
        assert row is not None
        if row.finished:
            break
        when = max(when, row.deadline or when) + timedelta(minutes=1)
    assert row is not None and row.finished
    over = [m for m in t.sent("agatha@players.test") if m["X-Courier-Kind"] == "game_over"]
    assert len(over) == 1
    types = [p.get_content_type() for p in over[0].walk()]
    svgs = [str(p.get_content()) for p in over[0].walk() if p.get_content_type() == "image/svg+xml"]
    assert "image/png" in types and any("Veneer: coins" in svg for svg in svgs)  # the chart, beside the table
    checked, problems = replayed(t)
    assert problems == [] and checked > 10


def test_a_player_who_vanished_is_replaced_by_the_bot_mid_game(tmp_path: Path) -> None:
    names = ["Agatha", "Barney", "Celeste"]
    t = Table(tmp_path, TRUCE, rows(names))
    t.tick(at(0, 8, 5))
    t.mail("celeste@players.test", "loot")
    t.tick(at(0, 20, 5))  # round 1: Agatha and Barney are silent and pass, as the default says
    write_config(tmp_path / "truce-1.xlsx", TRUCE, rows(names, bots=("Barney",)))  # Barney vanished
    t.tick(at(1, 20, 5))  # round 2: the bot plays Barney; Agatha still passes by default
    journal = t.journal()
    try:
        (first, second) = journal.rounds("truce-1")[:2]
    finally:
        journal.close()
    assert first["submissions"]["Barney"]["orders"] == ["pass"]
    assert second["submissions"]["Agatha"]["orders"] == ["pass"]
    assert BOT_NOTE in second["submissions"]["Barney"]["notes"]
    assert second["submissions"]["Barney"]["orders"] != ["pass"]
    assert "Barney (bot)" in str(ledger(tmp_path))
    assert replayed(t) == (2, [])


COURT = {
    "game": "monarchs",
    "mode": "court",
    "turns": "4",
    "timezone": "UTC",
    "start": "2026-12-01 08:00",
    "deadlines": "20:00",
    "reminders": "none",
    "absent": "bot",
}


def test_an_all_bot_court_moves_regiments_ends_with_guesses_and_replays(tmp_path: Path) -> None:
    """Eighteen seats nobody writes from: each turn the bot monarchs name carriers and hand them
    orders before the carriers' bots deliver (within one deadline), regiments move, the monarchs
    guess, and replay makes every bot's orders again."""
    roles = {
        **{f"King{n[0].upper()}": n for n in ("red", "green", "blue")},
        **{f"Court{i:02}": f"{('red', 'green', 'blue')[i // 5]} courtier" for i in range(15)},
    }
    t = Table(tmp_path, COURT, [{**r, "role": roles[r["name"]]} for r in rows(list(roles))])
    t.tick(at(0, 8, 5))
    for day in range(5):  # four turns and the guesses
        t.tick(at(day, 20, 5))
    journal = t.journal()
    try:
        row, rounds = journal.game("truce-1"), journal.rounds("truce-1")
    finally:
        journal.close()
    assert row is not None and row.finished and len(rounds) == 5
    first = rounds[0]
    carriers = {p for p, s in first["submissions"].items() if s["orders"] and p.startswith("Court")}
    assert len(carriers) == 3  # one carrier a nation delivered, the same night it was named
    assert all(BOT_NOTE in first["submissions"][p]["notes"] for p in carriers)
    assert first["state_after"]["map"] != first["state_before"]["map"]  # regiments moved
    assert first["state_before"]["court"].get("carrier", {}) == {}  # named by bots at the deadline
    guesses = [e for e in rounds[-1]["events"] if e["event"] == "GuessesMade"]
    assert len(guesses) == 3
    named = {c for e in guesses for c in e["guesses"]}
    dealt = {c["name"]: c for c in rounds[-1]["state_after"]["court"]["courtiers"]}
    assert named and all(dealt[c]["serves"] != dealt[c]["loyal_to"] for c in named)  # caught spies only
    over = text_of(next(m for m in t.sent("kingr@players.test") if m["X-Courier-Kind"] == "game_over"))
    assert over.count("named as traitors:") == 3
    assert replayed(t) == (5, [])
