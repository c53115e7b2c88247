"""A deployment of several games on the test servers (IMAP inbox, SMTP outbox, one fake Google Sheet
per game), and what each tick cost, counted at the servers: Sheets requests per spreadsheet, IMAP
logins of the orders mailbox, SMTP sessions. Shared by tests/courier/tick/test_request_budget.py and
bench/tick_requests.py, so the budget test and the benchmark count the same way."""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from courier.config.deployment import load_deployment
from courier.journal.sqlite import SqliteJournal
from courier.tick.runbook import run_tick
from engine import find_ruleset
from tests.servers.imap import ImapServer, connect, inbox_settings, logins
from tests.servers.sheets import FakeSheets
from tests.servers.smtp import SmtpServer

__all__ = ["Game", "TickCost", "WireDeployment"]

ORDERS = "orders@courier.test"
WRITTEN_TABS = ("Ledger", "History", "Players")  # the tabs Courier writes
FOLDERS = {"processed_folder": "Courier/Processed", "rejected_folder": "Courier/Rejected"}
HEAD = f"""\
state_dir = "state"
stale_after = 0
domain = "courier.test"
from = "Courier <{ORDERS}>"
reply_to = "{ORDERS}"
organiser = "organiser@courier.test"
"""


@dataclass(frozen=True)
class Game:
    """One game: its id (also its spreadsheet key), Config rows and Players rows (name, email, role)."""

    id: str
    config: Mapping[str, str]
    players: Sequence[tuple[str, str, str]]


@dataclass(frozen=True)
class TickCost:
    """One tick's requests, as the servers saw them."""

    reads: dict[str, int]  # Sheets GET requests per game
    writes: dict[str, int]  # Sheets requests that change something, per game
    changed: frozenset[str]  # games whose Ledger, History or Players tab differ after the tick
    imap_logins: int
    smtp_sessions: int
    mails_sent: int
    problems: list[str]

    @property
    def writes_unchanged(self) -> int:
        """Writes to games whose public tabs ended the tick as they began it."""
        return sum(n for game, n in self.writes.items() if game not in self.changed)


@dataclass
class WireDeployment:
    root: Path
    imap: ImapServer
    smtp: SmtpServer
    sheets: FakeSheets
    sheets_settings: Mapping[str, Any]
    games: Sequence[Game]
    mailbox: str = field(init=False)  # the IMAP user holding the orders mailbox

    def __post_init__(self) -> None:
        self.mailbox = f"orders-{uuid.uuid4().hex[:12]}"  # IMAP servers live for the whole session
        self.root.mkdir(parents=True, exist_ok=True)
        blocks = [HEAD]
        for table, values in (
            # Filing read mail away, as the README's Gmail setup does: more IMAP, same connection.
            ("inbox", inbox_settings(self.imap, self.mailbox, **FOLDERS)),
            ("outbox", self.smtp.settings()),
            ("sheets", dict(self.sheets_settings)),
        ):
            blocks.append(f"[{table}]\n" + "\n".join(f"{k} = {_toml(v)}" for k, v in values.items()))
        for game in self.games:
            config = [["Key", "Value"], *([k, v] for k, v in game.config.items())]
            players = [["Name", "Email", "Nickname", "Role", "Secret"]]
            players += [[name, address, "", role, ""] for name, address, role in game.players]
            self.sheets.create(game.id, {"Config": config, "Players": players})
            blocks.append(f'[[game]]\nid = "{game.id}"\nsheet = "{game.id}"\nseed = "wire {game.id}"\n')
        (self.root / "courier.toml").write_text("\n\n".join(blocks), encoding="utf-8")

    def deliver(self, mails: Sequence[tuple[str, str, str]], *, at: datetime) -> int:
        """APPEND (sender, game id, body) mails to the orders mailbox over one connection, as a mail
        server would deliver them; waits until the server has logged that login, so it is not
        counted as the next tick's."""
        if not mails:
            return 0
        before = logins(self.imap, self.mailbox)
        client = connect(self.imap, self.mailbox)
        try:
            for number, (sender, game_id, text) in enumerate(mails):
                message = EmailMessage()
                message["From"] = sender
                message["To"] = ORDERS
                message["Subject"] = f"[{game_id}] orders"
                message["Message-ID"] = f"<wire.{at.timestamp():.0f}.{number}@players.test>"
                message.set_content(text or "hold")
                client.append("INBOX", message.as_bytes(), msg_time=at)
        finally:
            client.logout()
        _settle(lambda: logins(self.imap, self.mailbox) > before)
        return len(mails)

    def filed(self) -> int:
        """Messages filed into the processed folder so far (this login is not a tick's: call it last)."""
        client = connect(self.imap, self.mailbox)
        try:
            delimiter = client.list_folders()[0][1].decode()
            folder = FOLDERS["processed_folder"].replace("/", delimiter)
            return int(client.folder_status(folder, ["MESSAGES"])[b"MESSAGES"])
        finally:
            client.logout()

    def awaited_orders(self, rng: random.Random) -> list[tuple[str, str, str]]:
        """(address, game id, orders) for every awaited player of every running game: the orders
        the game's ``default`` would give."""
        deployment = load_deployment(self.root / "courier.toml")
        journal = SqliteJournal(deployment.journal_path)
        try:
            rows = [journal.game(game.id) for game in self.games]
        finally:
            journal.close()
        addresses = {game.id: {name: address for name, address, _ in game.players} for game in self.games}
        mails = []
        for row in rows:
            if row is None or row.finished:
                continue
            ruleset = find_ruleset(row.ruleset)
            state = ruleset.from_json(row.state)
            for player in sorted(ruleset.awaiting(state)):
                orders = ruleset.default(state, player, random.Random(rng.random())).orders
                mails.append((addresses[row.id][player], row.id, "\n".join(orders)))
        return mails

    def tick(self, now: datetime) -> TickCost:
        """One tick as cron runs it, and what it cost at the servers."""
        requests, sessions = len(self.sheets.requests), self.smtp.sessions
        mails, logged = len(self.smtp.received), logins(self.imap, self.mailbox)
        public = {game.id: self._public(game.id) for game in self.games}
        # Google's per-minute quota counts this tick's requests at the tick's own time: ticks run
        # back to back here, minutes or hours apart by the clock they are given.
        self.sheets.quota.clock = now.timestamp
        problems = run_tick(load_deployment(self.root / "courier.toml"), now=now)
        time.sleep(0.05)  # the server's log writer trails the login by a moment
        calls = [r for r in self.sheets.requests[requests:] if r.path.startswith("/v4/spreadsheets/")]
        reads = {game.id: 0 for game in self.games}
        writes = dict(reads)
        for call in calls:
            key = call.path.removeprefix("/v4/spreadsheets/").split("/")[0].split(":")[0]
            (reads if call.method == "GET" else writes)[key] += 1
        return TickCost(
            reads=reads,
            writes=writes,
            changed=frozenset(g.id for g in self.games if self._public(g.id) != public[g.id]),
            imap_logins=logins(self.imap, self.mailbox) - logged,
            smtp_sessions=self.smtp.sessions - sessions,
            mails_sent=len(self.smtp.received) - mails,
            problems=problems,
        )

    def _public(self, key: str) -> list[list[list[Any]]]:
        titles = self.sheets.titles(key)
        return [self.sheets.values(key, tab) if tab in titles else [] for tab in WRITTEN_TABS]


def _settle(done: Any, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        time.sleep(0.01)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return str(value)
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
