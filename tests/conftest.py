"""Shared fixtures: a Courier deployment on local files, and a way to play it by mail."""

from __future__ import annotations

import email
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path
from typing import Any

import pytest

from courier.backends.maildir import deliver
from courier.backends.workbook import write_config
from courier.config.deployment import Deployment, load_deployment
from courier.config.game import Player
from courier.journal.sqlite import SqliteJournal
from courier.tick.runbook import run_tick
from tests.helpers.clock import LONDON

pytest_plugins = ["tests.servers.imap", "tests.servers.smtp", "tests.servers.sheets"]

# Counted by tests/courier/tick/test_reliability.py, printed at the end of the run.
RELIABILITY: Counter[str] = Counter()


def count_fault(kind: str, times: int = 1) -> None:
    """A fault a test injected and survived, for the figures at the end of the run."""
    RELIABILITY[f"fault: {kind}"] += times


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if RELIABILITY["kills"]:
        terminalreporter.write_line(
            f"reliability: {RELIABILITY['kills']} killed ticks over {RELIABILITY['games']} game kinds "
            f"({RELIABILITY['orders']} mails journalled): 0 orders lost, 0 rounds resolved twice, "
            f"{RELIABILITY['duplicates']} duplicate mails (at most 1 per mail)"
        )
    faults = sorted((k.removeprefix("fault: "), n) for k, n in RELIABILITY.items() if k.startswith("fault: "))
    if faults:
        listed = ", ".join(f"{kind} {n}" for kind, n in faults)
        terminalreporter.write_line(f"reliability: faults injected and survived, nothing lost: {listed}")


PLAYERS = ["Agatha", "Barney", "Celeste", "Darcy"]


def address(name: str) -> str:
    return f"{name.lower()}@players.test"


DEPLOYMENT = """\
state_dir = "state"
stale_after = 0  # the tests jump from tick to tick; the outage guard has its own tests
domain = "courier.test"
from = "Courier <courier@courier.test>"
reply_to = "orders@courier.test"
organiser = "organiser@courier.test"

[inbox]
type = "maildir"
path = "mail/inbox"

[outbox]
type = "files"
path = "mail/sent"

[[game]]
id = "truce-1"
workbook = "truce-1.xlsx"
seed = "test seed"
"""

BASE_CONFIG = {
    "game": "truce",
    "rounds": "3",
    "timezone": "Europe/London",
    "start": "2026-12-01 08:00",
    "deadlines": "20:00",
    "reminders": "12h, 1h",
}


class Table:
    """A deployment in a temporary folder, driven like cron drives it."""

    def __init__(self, root: Path, config: dict[str, str], players: list[dict[str, str]]) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        (root / "courier.toml").write_text(DEPLOYMENT, encoding="utf-8")
        write_config(root / "truce-1.xlsx", config, players)
        self.deployment: Deployment = load_deployment(root / "courier.toml")
        # A fixed Message-ID key, so two tables' mail can be compared byte for byte (privacy tests).
        journal = SqliteJournal(self.deployment.journal_path)
        journal.set_meta("mail/secret", "5e" * 32)
        journal.close()
        self.count = 0
        self.clock = datetime(2026, 12, 1, tzinfo=LONDON)  # mail is delivered just after the last tick

    def mail(
        self,
        sender: str,
        body: str,
        *,
        subject: str = "[truce-1] orders",
        headers: dict[str, str] | None = None,
        sender_name: str = "",
    ) -> str:
        self.count += 1
        message = EmailMessage()
        message["From"] = f"{sender_name} <{sender}>" if sender_name else sender
        message["To"] = "orders@courier.test"
        message["Subject"] = subject
        message["Message-ID"] = f"<m{self.count}@players.test>"
        for key, value in (headers or {}).items():
            del message[key]
            message[key] = value
        message.set_content(body)
        deliver(self.root / "mail" / "inbox", message.as_bytes(), at=self.clock + timedelta(minutes=1))
        return str(message["Message-ID"])

    def order(
        self,
        name: str,
        body: str,
        *,
        subject: str = "[truce-1] orders",
        headers: dict[str, str] | None = None,
    ) -> str:
        return self.mail(address(name), body, subject=subject, headers=headers)

    def tick(self, when: datetime) -> list[str]:
        self.clock = when
        return run_tick(self.deployment, now=when)

    def sent(self, name: str | None = None) -> list[EmailMessage]:
        """Mail delivered so far, to one player (by name or address) or to everybody, oldest first."""
        base = self.root / "mail" / "sent"
        if not base.exists():
            return []
        folders = (
            [base / (address(name) if name and "@" not in name else name)] if name else list(base.iterdir())
        )
        files = sorted(
            (f for d in folders if d.exists() for f in d.glob("*.eml")),
            key=lambda p: (p.stat().st_mtime_ns, p.name),
        )
        return [email.message_from_bytes(f.read_bytes(), policy=default_policy) for f in files]

    def deployment_players(self) -> list[Player]:
        """The players of the game's Players tab (name and address)."""
        from courier.backends.workbook import XlsxWorkbook

        rows = XlsxWorkbook(self.root / "truce-1.xlsx").read().players
        return [Player(r["name"], r["email"].lower()) for r in rows]

    def journal(self) -> SqliteJournal:
        return SqliteJournal(self.deployment.journal_path)


def text_of(message: EmailMessage) -> str:
    body = message.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


@pytest.fixture
def make_table(tmp_path: Path) -> Callable[..., Table]:
    def make(
        config: dict[str, str] | None = None,
        players: list[str] | None = None,
        secrets: dict[str, str] | None = None,
    ) -> Table:
        rows = [
            {"name": n, "email": address(n), "secret": (secrets or {}).get(n, "")} for n in players or PLAYERS
        ]
        return Table(tmp_path, {**BASE_CONFIG, **(config or {})}, rows)

    return make


def write(t: Table, name: str, body: str) -> None:
    """A player's mail to the game, from their address."""
    t.mail(address(name), body)


def last_text(t: Table, name: str) -> str:
    """The text of the last mail sent to a player."""
    return text_of(t.sent(address(name))[-1])
