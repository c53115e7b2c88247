"""``courier status``: a readable table of every game in the journal and the outbox backlog, then
warnings: quarantined games, sending held by the mail provider's limit, a journal failing its
integrity check, a nearly full disk."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

from courier.backends.smtp import daily_recipients
from courier.config.deployment import Deployment
from courier.config.game import is_bot_address
from courier.journal.interface import GameRow, Journal
from courier.journal.meta import CONFIG, LAST_TICK, SENDING_HELD
from courier.journal.opener import open_journal
from courier.mail.render import format_columns
from courier.state.awaited import awaited
from courier.state.control import paused, seat_label
from courier.state.quarantine import quarantined
from courier.tick.budget import sent_within
from courier.tick.held import describe
from engine import find_ruleset

LEAST_FREE = 200 * 2**20  # a journal and a few backups; below this, or below 5 % of the disk, warn


def status_table(deployment: Deployment, *, now: datetime | None = None) -> str:
    """``now``: the time a player's `away` is judged at (``--now``: a game tried out on a simulated
    clock); the real time by default."""
    now = now or datetime.now(UTC)
    journal = open_journal(deployment.journal_path, kind=deployment.journal_kind)
    try:
        rows = []
        for game in journal.games():
            ruleset = find_ruleset(game.ruleset)
            state = ruleset.from_json(game.state)
            waiting = awaited(journal, ruleset, game, state, now=now, bots=bot_seats(journal, game))
            rows.append(
                [
                    game.id,
                    ruleset.title,
                    "finished"
                    if game.finished
                    else ruleset.phase(state).label + (" (paused)" if paused(journal, game.id) else ""),
                    game.deadline.strftime("%Y-%m-%d %H:%M %Z") if game.deadline else "—",
                    ", ".join(seat_label(game, seat) for seat in waiting) or "—",  # Emmett (for Darcy)
                ]
            )
        configured = {g.id for g in deployment.games} - {r[0] for r in rows}
        rows.extend([gid, "?", "not started", "—", "—"] for gid in sorted(configured))
        counts = journal.outbox_counts()
        budget = budget_line(deployment, journal)
        set_aside = quarantined(journal)
        held = SENDING_HELD.get(journal)
        warnings = [
            *(
                f"game {gid} is QUARANTINED (`courier release {gid}` once fixed): {e}"
                for gid, e in set_aside.items()
            ),
            *([describe(held, datetime.now(UTC))] if held else []),
            *journal_warnings(journal),
            *disk_warnings(deployment.state_dir),
        ]
    finally:
        journal.close()
    table = format_columns(rows, ["game", "kind", "phase", "deadline", "awaiting orders from"])
    backlog = "outbox: {} queued, {} sent, {} failed".format(
        counts.get("queued", 0), counts.get("sent", 0), counts.get("failed", 0)
    )
    if counts.get("held"):  # a mail budget stopped them (courier/state/budgets.py)
        backlog += f", {counts['held']} held by mail budgets"
    backlog += budget
    report = f"{table}\n\n{backlog}" if rows else f"no games yet\n\n{backlog}"
    return "\n".join([report, *(f"WARNING: {w}" for w in warnings)])


def bot_seats(journal: Journal, game: GameRow) -> set[str]:
    """Seats the bot plays, as the last good Players tab (`Email` = `bot`) and the organiser's `bot`
    and `replace` commands leave them: nobody waits for a bot's orders."""
    good = CONFIG.get(journal, game.id)
    listed = {
        str(p.get("name", "")).strip()
        for p in (good["players"] if good else [])
        if str(p.get("email", "")).strip().lower() == "bot"
    }
    seats: dict[str, dict[str, str]] = game.setup.get("seats", {})
    return (listed - seats.keys()) | {seat for seat, info in seats.items() if is_bot_address(info["email"])}


def budget_line(deployment: Deployment, journal: Journal) -> str:
    """The outbox's daily recipient budget, used and left ("" when it has none)."""
    outbox = deployment.outbox
    limit = daily_recipients(outbox) if outbox.get("type") == "smtp" else None
    if limit is None:
        return ""
    used = sent_within(journal, LAST_TICK.get(journal) or datetime.now(UTC))  # as the last tick saw it
    left = max(0, limit - used)
    return f"\ndaily budget: {used:,} of {limit:,} recipients used in the last 24 hours, {left:,} left"


def journal_warnings(journal: Journal) -> list[str]:
    """A full integrity check (slower than the tick's quick_check, so only here)."""
    problem = journal.integrity_problem()
    if problem is None:
        return []
    return [f'the journal {journal.path} fails its integrity check ({problem}); see README "Recovery"']


def disk_warnings(folder: Path, *, least_free: int = LEAST_FREE) -> list[str]:
    usage = shutil.disk_usage(folder if folder.exists() else folder.parent)
    if usage.free >= least_free and usage.free >= usage.total // 20:
        return []
    return [
        f"only {usage.free // 2**20:,} MB free on the disk of {folder}: a full disk stops every tick"
        " (nothing is lost; it goes on once space is freed)"
    ]
