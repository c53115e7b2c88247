"""What a tick costs the services it talks to, counted at the servers (issue 17): per game at most
one Google Sheets read, no write when its public tabs did not change and at most one when they did;
one IMAP login and at most one SMTP session per tick, however many games share the deployment.
Google's quota is 60 reads and 60 writes a minute, so a deployment of 20 games ticking every few
minutes stays within it only if each game costs this little."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from courier.tools.cli import main
from tests.servers.imap import ImapServer
from tests.servers.sheets import FakeSheets
from tests.servers.smtp import SmtpServer
from tests.servers.wire import Game, TickCost, WireDeployment

START = datetime(2026, 12, 1, 8, 0, tzinfo=UTC)
CONFIG = {
    "timezone": "UTC",
    "start": "2026-12-01 08:00",
    "duration": "1d",
    "reminders": "none",
    "intelligence_duration": "1d",
    "vote_duration": "1d",
    "response_duration": "1d",
}


def _game(kind: str, players: int, roles: tuple[str, ...] = (), **options: str) -> Game:
    seats = [(f"P{n}{kind}", f"p{n}.{kind}@players.test", roles[n] if roles else "") for n in range(players)]
    return Game(f"{kind}-1", {"game": kind, **CONFIG, **options}, seats)


GAMES = [
    _game("truce", 4, rounds="5"),
    _game("monarchs", 3, ("red", "green", "blue"), turns="5"),
    _game("veneer", 4),
]


@pytest.fixture
def deployment(
    tmp_path: Path,
    imap_server: ImapServer,
    make_smtp_server: Callable[..., SmtpServer],
    sheets_server: FakeSheets,
    sheets_settings: dict[str, Any],
) -> WireDeployment:
    smtp = make_smtp_server("starttls")
    return WireDeployment(tmp_path / "deployment", imap_server, smtp, sheets_server, sheets_settings, GAMES)


def within_budget(cost: TickCost, *, sends: bool) -> None:
    assert cost.problems == []
    assert all(n <= 1 for n in cost.reads.values()), cost.reads
    assert cost.writes_unchanged == 0, (cost.writes, cost.changed)
    assert all(cost.writes[game] <= 1 for game in cost.changed), cost.writes
    assert cost.imap_logins == 1
    assert cost.smtp_sessions == (1 if sends else 0)
    assert (cost.mails_sent > 0) == sends


def test_every_kind_of_tick_keeps_to_the_budget(deployment: WireDeployment) -> None:
    rng = random.Random(17)
    started = deployment.tick(START + timedelta(minutes=5))  # welcomes out, ledgers published
    within_budget(started, sends=True)
    assert started.changed == {game.id for game in GAMES}

    idle = deployment.tick(START + timedelta(hours=1))
    within_budget(idle, sends=False)
    assert idle.reads == {game.id: 1 for game in GAMES} and sum(idle.writes.values()) == 0

    mails = deployment.awaited_orders(rng)
    assert deployment.deliver(mails, at=START + timedelta(hours=2)) == len(mails) > len(GAMES)
    busy = deployment.tick(START + timedelta(hours=3))  # every mail answered, "Orders in" changes
    within_budget(busy, sends=True)
    assert busy.mails_sent >= len(mails) and busy.changed == {game.id for game in GAMES}

    within_budget(deployment.tick(START + timedelta(hours=4)), sends=False)

    due = deployment.tick(START + timedelta(days=1, minutes=5))  # every round resolved and reported
    within_budget(due, sends=True)
    assert due.changed == {game.id for game in GAMES}
    assert deployment.filed() == len(mails)  # read mail was filed away over that same connection


def test_a_quiet_game_costs_no_write_while_another_changes(deployment: WireDeployment) -> None:
    deployment.tick(START + timedelta(minutes=5))
    one = [mail for mail in deployment.awaited_orders(random.Random(1)) if mail[1] == "truce-1"][:1]
    deployment.deliver(one, at=START + timedelta(hours=1))
    cost = deployment.tick(START + timedelta(hours=2))
    within_budget(cost, sends=True)
    assert cost.changed == {"truce-1"} and cost.writes == {"truce-1": 1, "monarchs-1": 0, "veneer-1": 0}


def test_a_substitute_shown_on_the_players_tab_costs_one_read_and_one_write(
    deployment: WireDeployment,
) -> None:
    """The organiser seats a substitute: the Players tab shows the new address and the Ledger and
    History change, in one write; the sheet is not read a second time to find the row. (By CLI: by
    mail, a seat's change waits for a confirmation code since issue 27.)"""
    deployment.tick(START + timedelta(minutes=5))
    config = str(deployment.root / "courier.toml")
    assert (
        main(["replace", "--config", config, "truce-1", "P1truce", "emmett@players.test", "--as", "Emmett"])
        == 0
    )
    cost = deployment.tick(START + timedelta(hours=2))
    within_budget(cost, sends=True)
    assert cost.writes == {"truce-1": 1, "monarchs-1": 0, "veneer-1": 0}
    players = deployment.sheets.values("truce-1", "Players")
    assert players[2][:3] == ["P1truce", "emmett@players.test", "Emmett"]
