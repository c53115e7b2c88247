"""The reply corpus (tests/data/replies): real mail programs' replies with the new text marked
`{new}` and the quote's first line marked `{quoted}`, mailed through the tick with one order as the
new text and a different order inside the quote.

`python -m tests.helpers.replies` prints, by quote shape, how many replies were read, leaked or
missed on the code as it stands, and the `known_failures:` block for cases.yaml (`--write` puts it
there).
"""

from __future__ import annotations

import html
import re
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path
from typing import Any

import yaml

from courier.backends.maildir import deliver
from courier.backends.workbook import write_config
from courier.config.deployment import load_deployment
from courier.journal.sqlite import SqliteJournal
from courier.mail.incoming import cut_reply, html_to_text
from courier.tick.runbook import run_tick
from tests.conftest import DEPLOYMENT
from tests.helpers.clock import at
from tests.helpers.paths import DATA

CORPUS = DATA / "replies"
MANIFEST = CORPUS / "cases.yaml"
NEW, QUOTED = "{new}", "{quoted}"
CHECKS = ("leaked", "missed", "furniture", "cut")  # the keys of known_failures
SCHEDULE = {"timezone": "UTC", "start": "2026-12-01 08:00", "deadlines": "20:00", "reminders": "none"}


@dataclass(frozen=True)
class ReplyCase:
    """One reply of the corpus, named by its file without the extension (``crisp/email_10``)."""

    name: str
    path: Path
    source: str
    shape: str
    client: str
    language: str

    @property
    def is_html(self) -> bool:
        return self.path.suffix == ".html"

    def text(self) -> str:
        return self.path.read_text(encoding="utf-8")

    def filled(self, new: str, quoted: str) -> str:
        """The reply as its player sends it: the markers replaced (HTML-escaped in an HTML reply)."""
        escape = html.escape if self.is_html else str
        return self.text().replace(NEW, escape(new)).replace(QUOTED, escape(quoted))

    def furniture(self) -> list[str]:
        """What the mail program wrote between the new text and the quote (attribution, header block,
        separator, signature), line by line: never an order, never quoted back as one."""
        text = self.text()
        between = text[text.index(NEW) + len(NEW) : text.index(QUOTED)]
        if self.is_html:
            between = html.unescape(re.sub(r"<[^>]*>", "\n", re.sub(r"<br\s*/?>|</(div|p)>", "\n", between)))
        lines = (line.strip().strip("*|>").strip() for line in between.split("\n"))
        return [line for line in lines if len(line) > 2]


def manifest() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    return loaded


def load_cases() -> list[ReplyCase]:
    return [
        ReplyCase(
            name=entry["file"].rsplit(".", 1)[0],
            path=CORPUS / entry["file"],
            source=entry["source"],
            shape=entry["shape"],
            client=entry.get("client", ""),
            language=entry.get("language", ""),
        )
        for entry in manifest()["cases"]
    ]


def known_failures() -> dict[str, set[str]]:
    listed = manifest().get("known_failures") or {}
    return {check: set(listed.get(check) or []) for check in CHECKS}


# --- the games: who writes, and which order is new and which is quoted ---------------------------

TABLE = 7  # seats per game: each game a handful of players, so a leaked gift's news goes to few
TRUCE = ("Agatha", "Barney", "Charles", "Darcy", "Emmett", "Fiona", "Gus")
POWERS = {  # Diplomacy: each power's new order, and an order for another of its units to quote
    "France": ("A par - bur", "F bre - mao"),
    "England": ("F lon - nth", "A lvp - yor"),
    "Germany": ("A mun - ruh", "F kie - den"),
    "Italy": ("A ven - tyr", "F nap - ion"),
    "Austria": ("A vie - gal", "F tri - alb"),
    "Russia": ("A mos - ukr", "F sev - bla"),
    "Turkey": ("A con - bul", "F ank - bla"),
}


@dataclass(frozen=True)
class Seat:
    """Who mails one case in one game, and the two orders of that mail."""

    case: ReplyCase
    ruleset: str
    game: str  # the game id
    player: str
    new: str
    quoted: str

    @property
    def id(self) -> str:
        return f"{self.case.name}@{self.ruleset}"

    @property
    def address(self) -> str:
        return player_address(self.player, self.game)


def player_address(player: str, game: str) -> str:
    return f"{player.lower()}.{game}@players.test"


def truce_seat(case: ReplyCase, index: int) -> Seat:
    """Attack the next player; quote a loot (half the cases) or a gift to the one after."""
    seat = index % TABLE
    target, friend = TRUCE[(seat + 1) % TABLE], TRUCE[(seat + 2) % TABLE]
    quoted = "loot" if index % 2 == 0 else f"gift 2 to {friend}"
    return Seat(case, "truce", f"truce-{index // TABLE}", TRUCE[seat], f"attack {target}", quoted)


def diplomacy_seat(case: ReplyCase, index: int) -> Seat:
    """Move one unit; quote a move of another unit of the same power."""
    power = list(POWERS)[index % TABLE]
    return Seat(case, "diplomacy", f"diplomacy-{index // TABLE}", power, *POWERS[power])


def seats_for(cases: list[ReplyCase]) -> list[Seat]:
    """Every case once in Truce and once in Diplomacy."""
    return [seat(case, index) for seat in (truce_seat, diplomacy_seat) for index, case in enumerate(cases)]


# --- one deployment, one tick ---------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What Courier made of one seat's mail."""

    seat: Seat
    read: bool  # the new order was recorded
    leaked: bool  # the quoted order was recorded (or applied)
    quoted_back: tuple[str, ...]  # furniture lines the receipt calls not understood


def run_corpus(root: Path, cases: list[ReplyCase]) -> list[Outcome]:
    """Every case mailed once in Truce and once in Diplomacy, in one deployment and one tick."""
    seats = seats_for(cases)
    deployment = _deploy(root, seats)
    run_tick(deployment, now=at(0, 8, 5))  # the games open
    for number, seat in enumerate(seats):
        deliver(root / "mail" / "inbox", _reply(seat, number), at=at(0, 8, 30))
    run_tick(deployment, now=at(0, 9))
    receipts = _receipts(root)
    journal = SqliteJournal(deployment.journal_path)
    try:
        return [_outcome(journal, receipts, seat, number) for number, seat in enumerate(seats)]
    finally:
        journal.close()


def _deploy(root: Path, seats: list[Seat]) -> Any:
    root.mkdir(parents=True, exist_ok=True)
    games = {seat.game: seat.ruleset for seat in seats}
    tables = []
    for game, ruleset in games.items():
        names = POWERS if ruleset == "diplomacy" else TRUCE
        rows = [
            {"name": n, "email": player_address(n, game), "role": n if ruleset == "diplomacy" else ""}
            for n in names
        ]
        settings = {"game": ruleset, **SCHEDULE, **({"rounds": "3"} if ruleset == "truce" else {})}
        write_config(root / f"{game}.xlsx", settings, rows)
        tables.append(f'[[game]]\nid = "{game}"\nworkbook = "{game}.xlsx"\nseed = "{game}"\n')
    head = DEPLOYMENT.split("[[game]]")[0]
    (root / "courier.toml").write_text(head + "\n".join(tables), encoding="utf-8")
    return load_deployment(root / "courier.toml")


def _reply(seat: Seat, number: int) -> bytes:
    message = EmailMessage()
    message["From"] = seat.address
    message["To"] = "orders@courier.test"
    message["Subject"] = f"Re: [{seat.game}] your orders"
    message["Message-ID"] = f"<reply{number}@players.test>"
    body = seat.case.filled(seat.new, seat.quoted)
    message.set_content(body, subtype="html" if seat.case.is_html else "plain")
    return message.as_bytes()


def _outcome(journal: SqliteJournal, receipts: dict[str, str], seat: Seat, number: int) -> Outcome:
    game = journal.game(seat.game)
    assert game is not None
    orders = [
        order.lower()
        for act in journal.acts(seat.game, game.phase_key)
        if act.player == seat.player
        for order in act.parsed.get("orders", [])
    ]
    return Outcome(
        seat,
        read=seat.new.lower() in orders,
        leaked=seat.quoted.lower() in orders,
        quoted_back=_furniture_quoted(
            receipts.get(f"<reply{number}@players.test>", ""), seat.case.furniture()
        ),
    )


def _receipts(root: Path) -> dict[str, str]:
    """The text of every mail Courier sent in answer to one of ours, by the Message-ID it answers."""
    found = {}
    for path in (root / "mail" / "sent").glob("*/*.eml"):
        raw = path.read_bytes()
        if b"In-Reply-To: <reply" not in raw:
            continue  # an opening mail or news, no receipt
        mail = message_from_bytes(raw, policy=default_policy)
        body = mail.get_body(("plain",))
        found[str(mail["In-Reply-To"])] = str(body.get_content()) if body is not None else ""
    return found


def _furniture_quoted(receipt: str, furniture: list[str]) -> tuple[str, ...]:
    """Lines of the receipt's "Not understood" part that quote the mail program's furniture."""
    if "Not understood" not in receipt:
        return ()
    section = receipt.split("Not understood", 1)[1].split("\n\n", 1)[0]
    quoted = re.findall(r"“([^”]*)”", section)
    return tuple(q for q in quoted if any(f in q or (len(q) > 2 and q in f) for f in furniture))


# --- the verdicts, as the tests and the report see them ------------------------------------------


def failures(outcomes: list[Outcome]) -> dict[str, set[str]]:
    """Seat ids by check: the quoted order taken, the new order missed, furniture quoted back."""
    return {
        "leaked": {o.seat.id for o in outcomes if o.leaked},
        "missed": {o.seat.id for o in outcomes if not o.read},
        "furniture": {o.seat.id for o in outcomes if o.quoted_back},
    }


def cut_failures(cases: list[ReplyCase]) -> set[str]:
    """Cases whose quoted order survives `cut_reply` of their text (an HTML reply's as Courier reads it)."""
    failed = set()
    for case in cases:
        text = case.filled("attack Barney", "loot")
        if case.is_html:
            text = html_to_text(text)
        if re.search(r"(?m)^\W*loot\b", cut_reply(text)):
            failed.add(case.name)
    return failed


def _report() -> None:
    cases = load_cases()
    with tempfile.TemporaryDirectory() as folder:
        outcomes = run_corpus(Path(folder), cases)
    counts: dict[str, Counter[str]] = {}
    for o in outcomes:
        for shape in (o.seat.case.shape, "all"):
            row = counts.setdefault(shape, Counter())
            row.update(
                mails=1, read=o.read, leaked=o.leaked, missed=not o.read, furniture=bool(o.quoted_back)
            )
    columns = ("mails", "read", "leaked", "missed", "furniture")
    print(f"{'shape':<12}" + "".join(f"{c:>10}" for c in columns))
    for shape in sorted(counts, key=lambda s: (s == "all", s)):
        print(f"{shape:<12}" + "".join(f"{counts[shape][c]:>10}" for c in columns))
    found = {**failures(outcomes), "cut": cut_failures(cases)}
    print(f"cut_reply keeps the quoted order of {len(found['cut'])} of {len(cases)} texts")
    block = yaml.safe_dump(
        {"known_failures": {k: sorted(v) for k, v in found.items()}}, sort_keys=False, width=200
    )
    if "--write" in sys.argv:  # the manifest's list, replaced by what fails now
        text = MANIFEST.read_text(encoding="utf-8")
        MANIFEST.write_text(text[: text.index("known_failures:")] + block, encoding="utf-8")
    else:
        print(block)


if __name__ == "__main__":
    _report()
