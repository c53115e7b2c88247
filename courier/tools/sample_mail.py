"""Every kind of mail of every game, made by the real tick: what ``courier render-check`` and the
browser test look at.

For each registered game a scratch deployment on local files (Maildir in, .eml files out, an .xlsx
workbook) seats the game's usual table and plays a short script through ``run_tick``: the start
(welcomes, and the organiser told of a misspelt key), one player's orders (a receipt), press (and
its answer), the organiser's `extend` (a notice that moves the deadline), a reminder, the first
deadline (reports), the organiser's `end game` (game over), orders after the end (an error).
Nothing here is a stand-in: the mail is what players of that game would receive.
"""

from __future__ import annotations

import email
import email.policy
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from zoneinfo import ZoneInfo

from courier.backends.maildir import deliver
from courier.backends.workbook import write_config
from courier.config.deployment import load_deployment
from courier.tick.runbook import run_tick
from engine import RULESETS
from engine.bots import bot_text
from engine.core import Exemplified, Ruleset, rng_for

__all__ = ["KINDS_SHOWN", "SampleMail", "sample_mail"]

ZONE = ZoneInfo("Europe/Paris")  # a zone away from UTC, so every deadline shows both
START = datetime(2026, 12, 1, 8, 0, tzinfo=ZONE)
NAMES = ("Ada", "Ben", "Cleo", "Dev", "Esme", "Finn", "Gus", "Hana", "Ivo", "Jun")
SECRET = "render-check"
ORGANISER = "organiser@players.invalid"
KINDS_SHOWN = (
    "welcome",
    "receipt",
    "press",
    "answer",
    "error",
    "notice",
    "reminder",
    "report",
    "game_over",
    "organiser",
)

DEPLOYMENT = """\
state_dir = "state"
stale_after = 0
domain = "courier.invalid"
from = "Courier <courier@courier.invalid>"
reply_to = "orders@courier.invalid"
organiser = "{organiser}"

[inbox]
type = "maildir"
path = "mail/inbox"

[outbox]
type = "files"
path = "mail/sent"

[[game]]
id = "{game}-1"
workbook = "{game}-1.xlsx"
seed = "render check"
"""


@dataclass(frozen=True)
class SampleMail:
    game: str
    kind: str
    message: EmailMessage


def sample_mail(root: Path, games: tuple[str, ...] = ()) -> list[SampleMail]:
    """One mail of each kind for each game (all registered games unless named), played in ``root``."""
    found: list[SampleMail] = []
    for name in games or tuple(RULESETS):
        folder = root / name
        _play(folder, RULESETS[name])
        found += _first_of_each_kind(name, folder)
    return found


def _play(folder: Path, ruleset: Ruleset) -> None:
    game = f"{ruleset.name}-1"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "courier.toml").write_text(
        DEPLOYMENT.format(game=ruleset.name, organiser=ORGANISER), encoding="utf-8"
    )
    names = NAMES[: ruleset.simulated.players]
    write_config(folder / f"{game}.xlsx", _config(ruleset), [_player(n) for n in names])
    deployment = load_deployment(folder / "courier.toml")
    inbox = folder / "mail" / "inbox"

    def tick(now: datetime, *letters: tuple[str, str, str]) -> None:
        """The mail arrives a minute before the tick at ``now`` reads it."""
        for sender, subject, body in letters:
            message = _letter(sender, f"[{game}] {subject}", body, len(list(inbox.glob("*/*"))))
            deliver(inbox, message, at=now - timedelta(minutes=1))
        with _quiet():
            run_tick(deployment, now=now)

    tick(START + timedelta(minutes=5))  # welcomes; the organiser hears of the misspelt key
    state = ruleset.from_json(_state(folder))
    first = sorted(ruleset.awaiting(state))[0] if ruleset.awaiting(state) else names[0]
    orders = bot_text(ruleset, state, first, rng_for("render check", "orders")) or "pass"
    tick(
        START + timedelta(minutes=10),
        (_address(first), "orders", orders),
        (_address(names[1]), "press", f"press to {first}: Shall we leave the others alone this round?"),
        (ORGANISER, "commands", f"secret: {SECRET}\nextend 2h"),  # the deadline: 20:00, now 22:00
    )
    tick(START.replace(hour=21, minute=5))  # the reminder, an hour before
    tick(START.replace(hour=22, minute=5))  # the reports
    tick(START.replace(hour=22, minute=10), (ORGANISER, "commands", f"secret: {SECRET}\nend game"))
    tick(START.replace(hour=22, minute=15), (_address(names[1]), "orders", orders))  # too late: an error


@contextmanager
def _quiet() -> Iterator[None]:
    """The sample's own warnings (its key misspelt on purpose, for the organiser's mail) are not the
    concern of the person running the check: not on their stderr."""
    logger = logging.getLogger("courier.state.context")  # ``Tick.warn_once``
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def _config(ruleset: Ruleset) -> dict[str, str]:
    own = (
        {key: str(value) for key, value, _ in ruleset.example_config}
        if isinstance(ruleset, Exemplified)
        else {}
    )
    return {
        "game": ruleset.name,
        **own,
        "timezone": str(ZONE),
        "start": f"{START:%Y-%m-%d %H:%M}",
        "deadlines": "20:00",
        "reminders": "1h",
        "early_resolution": "no",
        "organiser_secret": SECRET,
        "deadlnes": "21:00",  # misspelt on purpose: the organiser is told
    }


def _player(name: str) -> dict[str, str]:
    return {"name": name, "email": _address(name)}


def _address(name: str) -> str:
    return f"{name.lower()}@players.invalid"


def _letter(sender: str, subject: str, body: str, number: int) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "orders@courier.invalid"
    message["Subject"] = subject
    message["Message-ID"] = f"<sample-{number}@players.invalid>"
    message.set_content(body)
    return message.as_bytes()


def _state(folder: Path) -> dict[str, object]:
    from courier.journal.sqlite import SqliteJournal

    journal = SqliteJournal(folder / "state" / "journal.sqlite")
    try:
        row = journal.games()[0]
        return row.state
    finally:
        journal.close()


def _first_of_each_kind(game: str, folder: Path) -> Iterator[SampleMail]:
    """A player's mail of each kind (the organiser's only where no player gets that kind)."""
    files = sorted((folder / "mail" / "sent").glob("*/*.eml"), key=lambda p: (p.stat().st_mtime_ns, p.name))
    seen: dict[str, SampleMail] = {}
    for path in files:
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        kind = str(message["X-Courier-Kind"] or "")
        to_organiser = str(message["To"]) == ORGANISER
        if kind and (kind not in seen or (not to_organiser and str(seen[kind].message["To"]) == ORGANISER)):
            seen[kind] = SampleMail(game, kind, message)
    yield from (seen[kind] for kind in KINDS_SHOWN if kind in seen)
