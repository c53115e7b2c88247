"""The walkthrough an organiser follows (docs/first-game.md) is run as a test, step by step.

The page is played as ``docs/generate.py`` plays every document (its commands, the mail it saves into
the Maildir, its generated output and its mail excerpts must all be current), with ``courier`` run
in this process to keep it fast. At each step the test also checks what a user would notice, from the
outbox and the workbook rather than from the page: the welcome went out, each round was resolved and
reported, the substitute is greeted by his own name and the Ledger shows ``Emmett (for …)``, a pause
holds the deadline, ``end`` announces the standings and the winner, and nobody is awaited after it.
And the page must keep every one of those steps, in that order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import message_from_bytes
from email.policy import default
from pathlib import Path

from openpyxl import load_workbook

from docs.generate import Generated, Sandbox, mail_lines, parse, play
from tests.helpers.paths import ROOT

PAGE = ROOT / "docs" / "first-game.md"
# The order of what the walkthrough shows; each label is earned by a step whose effect was checked.
STORY = [
    "init", "welcome", "status", "round", "status", "round", "round", "status", "substitute",
    "status", "pause", "deadline held", "resume", "end", "nobody awaited", "replayed",
]  # fmt: skip


@dataclass
class Walk:
    """What the test has seen so far of the game the page plays."""

    folder: Path
    sent: set[Path] = field(default_factory=set)
    story: list[str] = field(default_factory=list)
    command: str = ""  # the last organiser's command given by CLI, applied by the next tick
    deadline: datetime | None = None  # as `courier status` last showed it, while not paused
    paused: bool = False

    def new_mail(self) -> dict[str, list[tuple[str, str]]]:
        """Mail the outbox wrote since the last step: (kind, text) per address, oldest first."""
        now = set(self.folder.glob("mail/sent/*/*.eml"))
        new, self.sent = sorted(now - self.sent), now
        mail: dict[str, list[tuple[str, str]]] = {}
        for path in new:
            message = message_from_bytes(path.read_bytes(), policy=default)
            text = "\n".join(mail_lines(path.read_bytes()))
            mail.setdefault(path.parent.name, []).append((str(message["X-Courier-Kind"]), text))
        return mail


def test_the_walkthrough_runs_as_the_page_shows_it_and_each_step_does_what_it_says(tmp_path: Path) -> None:
    walk = Walk(tmp_path)
    stale = []
    for region, output in play(PAGE, Sandbox(tmp_path, in_process=True), slow=False):
        if region.pasted != output:
            stale.append(f"docs/first-game.md:{region.line}: {region.command}")
        _step(walk, region.command, output)
    assert stale == [], "run: python docs/generate.py --quick docs/first-game.md"
    assert _in_order(STORY, walk.story), f"the page's steps were {walk.story}"
    assert _players(tmp_path)["Carol Example"] == "emmett@example.org"  # the seat, the substitute's address
    assert "Emmett (for Carol Example)" in _cells(tmp_path, "Ledger")


def test_the_page_shows_the_players_tab_courier_init_writes(tmp_path: Path) -> None:
    Sandbox(tmp_path).run("courier init")
    shown = re.findall(r"^\| ([^|]+?) \| (\S+@\S+) \|", PAGE.read_text(encoding="utf-8"), re.MULTILINE)
    assert dict(shown) == _players(tmp_path)


def test_every_generated_region_of_the_page_is_checked_by_the_quick_run() -> None:
    regions = [part for part in parse(PAGE.read_text(encoding="utf-8")) if isinstance(part, Generated)]
    assert regions and not any(region.slow for region in regions)


def _step(walk: Walk, command: str, output: str) -> None:
    """Check what the user notices after one generated command of the page; note the story."""
    words = command.split()
    verb = words[1]
    mail = walk.new_mail()
    if verb == "init":
        assert (walk.folder / "courier.toml").is_file() and (walk.folder / "truce-1.xlsx").is_file()
        walk.story.append("init")
    elif verb == "tick":
        _tick(walk, _now(command), output, mail)
    elif verb == "status":
        _status(walk, output)
    elif verb in ("replace", "pause", "resume", "end"):
        assert "journalled" in output, output  # checked at once, applied by the next tick
        walk.command = verb
    elif verb == "replay":
        assert "all reproduce" in output, output
        walk.story.append("replayed")


def _tick(walk: Walk, now: datetime, output: str, mail: dict[str, list[tuple[str, str]]]) -> None:
    resolved = int(re.search(r"(\d+) rounds? resolved", output)[1])  # type: ignore[index]
    seated = _seated(walk.folder)
    kinds = {address: [kind for kind, _ in mails] for address, mails in mail.items()}
    if any("welcome" in k for k in kinds.values()) and not walk.story.count("welcome"):
        assert all(kinds.get(address, [])[:1] == ["welcome"] for address in seated), kinds
        assert all(mail[a][0][1].count(f"Hello {name},") for name, a in _players(walk.folder).items())
        walk.story.append("welcome")
    if resolved:
        assert all("report" in kinds.get(address, []) for address in seated), kinds
        assert "Round" in _text(mail, "organiser@example.org"), "the organiser gets the results"
        walk.story.append("round")
    applied, walk.command = walk.command, ""
    if applied == "replace":
        _substitute(walk, mail)
    elif applied == "pause":
        assert all("paused the game" in _text(mail, address) for address in seated), kinds
        walk.paused = True
        walk.story.append("pause")
    elif applied == "resume":
        assert all("resumes" in _text(mail, address) for address in seated), kinds
        walk.paused = False
        walk.story.append("resume")
    elif applied == "end":
        _ended(mail, seated)
        walk.story.append("end")
    elif walk.paused and walk.deadline is not None and now > walk.deadline:
        assert resolved == 0 and not mail, "a paused game's deadline passes and nothing happens"
        walk.story.append("deadline held")


def _substitute(walk: Walk, mail: dict[str, list[tuple[str, str]]]) -> None:
    welcome = next(text for kind, text in mail["emmett@example.org"] if kind == "welcome")
    assert "Hello Emmett," in welcome and "take over the seat of Carol Example" in welcome
    assert "Carol Example" not in welcome.split("\n", 4)[3]  # greeted by his own name, not the seat's
    assert "Players (3): Alice Example, Bob Example, Emmett (for Carol Example)" in welcome
    assert "fixed now" not in welcome, "the seed was fixed, and its hash told, when the game began"
    assert len(mail["carol@example.org"]) == 1, "the old address gets one last mail"
    for address in ("alice@example.org", "bob@example.org"):
        assert "Carol Example's seat is now played by Emmett" in _text(mail, address), "the others are told"
    assert "Emmett (for Carol Example)" in _cells(walk.folder, "Ledger")
    walk.story.append("substitute")


def _ended(mail: dict[str, list[tuple[str, str]]], seated: list[str]) -> None:
    assert sorted(mail) == sorted([*seated, "organiser@example.org"]), "Carol's old address gets nothing"
    for address in seated:
        (kind, text), *_ = mail[address]
        assert kind == "game_over", kind
        assert "Winner: " in text and "Final ranking:\n  1. " in text, text
        final = text.split("The ledger:", 1)[1].split("The secret seed", 1)[0]  # table, winner, ranking
        assert "Emmett (for Carol Example)" in final, "the seat named as the Ledger tab names it"
        assert "Carol Example" not in final.replace("Emmett (for Carol Example)", ""), final
        assert "Your orders for" not in text, "no order form in the last mail"


def _status(walk: Walk, output: str) -> None:
    """`courier status`: the game's row (phase, deadline, who is awaited)."""
    row = next(line for line in output.splitlines() if line.startswith("truce-1 "))
    phase, deadline, awaiting = re.split(r"\s{2,}", row)[2:5]
    if phase == "finished":
        assert deadline == "—" and awaiting == "—", row
        walk.story.append("nobody awaited")
        return
    assert phase.startswith("Round "), row
    if "substitute" in walk.story:  # the seat is named by who plays it now
        assert "Carol Example" not in awaiting.replace("Emmett (for Carol Example)", ""), row
    if "(paused)" in phase:
        assert deadline == "—", row
    else:
        walk.deadline = datetime.strptime(deadline, "%Y-%m-%d %H:%M UTC").replace(tzinfo=UTC)
        walk.story.append("status")


def _now(command: str) -> datetime:
    return datetime.fromisoformat(re.search(r"--now (\S+)", command)[1])  # type: ignore[index]


def _text(mail: dict[str, list[tuple[str, str]]], address: str) -> str:
    return "\n".join(text for _, text in mail.get(address, []))


def _players(folder: Path) -> dict[str, str]:
    sheet = load_workbook(folder / "truce-1.xlsx", read_only=True)["Players"]
    return {str(row[0]): str(row[1]) for row in sheet.iter_rows(min_row=2, values_only=True) if row[0]}


def _seated(folder: Path) -> list[str]:
    return sorted(_players(folder).values())


def _cells(folder: Path, tab: str) -> list[str]:
    sheet = load_workbook(folder / "truce-1.xlsx", read_only=True)[tab]
    return [str(cell) for row in sheet.iter_rows(values_only=True) for cell in row if cell is not None]


def _in_order(wanted: list[str], seen: list[str]) -> bool:
    """Whether ``wanted`` is a subsequence of ``seen``."""
    rest = iter(seen)
    return all(label in rest for label in wanted)
