"""``courier demo``: a whole 3-round Truce game for five scripted players on local files.

No accounts anywhere: the inbox is a Maildir, the sheet an .xlsx workbook, the outbox a folder of
.eml files, the journal SQLite. A simulated clock walks through the deadlines, running a tick at each
step exactly as cron would.
"""

from __future__ import annotations

import tempfile
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from openpyxl import load_workbook

from courier.backends.maildir import deliver
from courier.backends.workbook import write_config
from courier.config.deployment import load_deployment
from courier.journal.opener import open_journal
from courier.journal.replay import replay_game
from courier.mail.render import format_columns
from courier.tick.runbook import run_tick
from engine.truce import TRUCE

GAME = "truce-demo"
ZONE = ZoneInfo("Europe/London")
START = datetime(2026, 12, 1, 8, 0, tzinfo=ZONE)

DEPLOYMENT = f"""\
state_dir = "state"
stale_after = 0  # the demo jumps from deadline to deadline; a real deployment ticks every few minutes
domain = "demo.courier.invalid"
from = "Courier <courier@demo.invalid>"
reply_to = "orders@demo.invalid"
organiser = "organiser@demo.invalid"

[inbox]
type = "maildir"
path = "mail/inbox"

[outbox]
type = "files"
path = "mail/sent"

[[game]]
id = "{GAME}"
workbook = "{GAME}.xlsx"
seed = "courier demo"
"""

CONFIG = {
    "game": "truce",
    "rounds": "3",
    "timezone": "Europe/London",
    "start": "2026-12-01 08:00",
    "deadlines": "20:00",
    "reminders": "12h, 1h",
    "early_resolution": "no",
}
PLAYERS = ["Agatha", "Barney", "Celeste", "Darcy", "Emmett"]

QUOTED_REPORT = """\
defend

On Tue, 1 Dec 2026 at 20:05, Courier <courier@demo.invalid> wrote:
> [truce-demo] Round 1 of 3: results
> Barney attacked Agatha ...
"""

# (day, hour:minute, player, subject, body). Emmett never writes: he passes every round.
SCRIPT = [
    (0, "09:00", "Agatha", "[truce-demo] orders", "loot\n\n-- \nAgatha\nSent from my phone"),
    (0, "09:10", "Barney", "[truce-demo] orders", "atack agatha"),
    (0, "09:40", "Barney", "[truce-demo] orders", "attack Agatha"),
    (0, "10:00", "Darcy", "[truce-demo] orders", "gift 1 to Barney\nsupport barney"),
    (0, "11:00", "Celeste", "[truce-demo] orders", "defend"),
    (0, "15:00", "Celeste", "[truce-demo] change of plan", "support Barney"),
    (1, "09:00", "Agatha", "Re: [truce-demo] Round 1 of 3: results", QUOTED_REPORT),
    (1, "09:30", "Barney", "[truce-demo] r2", "loot"),
    (1, "10:00", "Celeste", "[truce-demo] r2", "support agatha"),
    (1, "11:00", "Darcy", "[truce-demo] r2", "attack Barney"),
    (2, "09:00", "Agatha", "[truce-demo] r3", "loot"),
    (2, "09:30", "Barney", "[truce-demo] r3", "attack agatha"),
    (2, "10:00", "Celeste", "[truce-demo] r3", "support Barney"),
    (2, "11:00", "Darcy", "[truce-demo] r3", "loot"),
]


def email_of(name: str) -> str:
    return f"{name.lower()}@demo.invalid"


def player_mail(name: str, subject: str, body: str, when: datetime, number: int) -> bytes:
    message = EmailMessage()
    message["From"] = f"{name} <{email_of(name)}>"
    message["To"] = "orders@demo.invalid"
    message["Subject"] = subject
    message["Date"] = format_datetime(when)
    message["Message-ID"] = f"<demo-{number}@players.demo.invalid>"
    message.set_content(body)
    return message.as_bytes()


def at(day: int, clock: str) -> datetime:
    hour, minute = map(int, clock.split(":"))
    return (START + timedelta(days=day)).replace(hour=hour, minute=minute)


def timeline() -> list[tuple[datetime, list[tuple[str, str, str]]]]:
    """Every moment a tick runs, with the mail that arrived just before it."""
    moments: dict[datetime, list[tuple[str, str, str]]] = {}
    for day, clock, name, subject, body in SCRIPT:
        moments.setdefault(at(day, clock), []).append((name, subject, body))
    for day in range(3):
        moments.setdefault(at(day, "08:05"), [])  # morning reminders (12 h before)
        moments.setdefault(at(day, "19:05"), [])  # last-hour reminders
        moments.setdefault(at(day, "20:05"), [])  # the first tick after the deadline resolves
    return sorted(moments.items())


def run_demo(directory: Path | None) -> int:
    root = directory or Path(tempfile.mkdtemp(prefix="courier-demo-"))
    root.mkdir(parents=True, exist_ok=True)
    print(f"Courier demo: a 3-round game of Truce for 5 players in {root}\n")
    (root / "courier.toml").write_text(DEPLOYMENT, encoding="utf-8")
    write_config(root / f"{GAME}.xlsx", CONFIG, [{"name": n, "email": email_of(n)} for n in PLAYERS])
    deployment = load_deployment(root / "courier.toml")
    number = 0
    for moment, mails in timeline():
        for name, subject, body in mails:
            number += 1
            deliver(root / "mail" / "inbox", player_mail(name, subject, body, moment, number), at=moment)
            print(f"{moment:%a %d %b %H:%M}  {name} writes: {body.splitlines()[0]!r}")
        problems = run_tick(deployment, now=moment)
        for problem in problems:
            print(f"  tick problem: {problem}")
    print()
    _print_results(root, deployment.journal_path)
    return 0


def _print_results(root: Path, journal_path: Path) -> None:
    sheet = load_workbook(root / f"{GAME}.xlsx", read_only=True)["Ledger"]
    rows = [[("" if c is None else str(c)) for c in row] for row in sheet.iter_rows(values_only=True)]
    rows = rows[: next((i for i, row in enumerate(rows) if not any(row)), len(rows))]  # the table
    width = len([cell for cell in rows[0] if cell]) if rows else 0  # its headers: the first row
    print(f"The public ledger (the Ledger tab of {root / f'{GAME}.xlsx'}):\n")
    print(format_columns([r[:width] for r in rows[1:]], rows[0][:width]) if width else "(empty)")
    print("\nEach player's mail (one .eml file per message):")
    for folder in sorted((root / "mail" / "sent").iterdir()):
        print(f"  {folder}  ({len(list(folder.glob('*.eml')))} messages)")
    journal = open_journal(journal_path)
    try:
        rounds, problems = replay_game(journal, GAME)
        game = journal.game(GAME)
    finally:
        journal.close()
    if game is not None and (outcome := TRUCE.outcome(TRUCE.from_json(game.state))) is not None:
        print(
            f"\nGame over: {' and '.join(outcome.winners)} {'wins' if len(outcome.winners) == 1 else 'win'}."
        )
    verdict = "every round reproduces" if not problems else f"{len(problems)} mismatches"
    print(f"\nReplay of the journal: {rounds} rounds, {verdict}.")
