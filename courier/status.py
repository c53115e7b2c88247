"""``courier status``: a readable table of every game in the journal and the outbox backlog."""

from __future__ import annotations

from courier.config import Deployment
from courier.control import paused
from courier.journal import Journal
from courier.render import format_columns
from engine import find_ruleset


def status_table(deployment: Deployment) -> str:
    journal = Journal(deployment.journal_path)
    try:
        rows = []
        for game in journal.games():
            ruleset = find_ruleset(game.ruleset)
            state = ruleset.from_json(game.state)
            written = journal.standing(game.id, game.phase_key).keys()
            awaited = sorted(ruleset.awaiting(state) - written)
            rows.append(
                [
                    game.id,
                    ruleset.title,
                    "finished"
                    if game.finished
                    else ruleset.phase(state).label + (" (paused)" if paused(journal, game.id) else ""),
                    game.deadline.strftime("%Y-%m-%d %H:%M %Z") if game.deadline else "—",
                    ", ".join(awaited) or "—",
                ]
            )
        configured = {g.id for g in deployment.games} - {r[0] for r in rows}
        rows.extend([gid, "?", "not started", "—", "—"] for gid in sorted(configured))
        counts = journal.outbox_counts()
    finally:
        journal.close()
    table = format_columns(rows, ["game", "kind", "phase", "deadline", "awaiting orders from"])
    backlog = "outbox: {} queued, {} sent, {} failed".format(
        counts.get("queued", 0), counts.get("sent", 0), counts.get("failed", 0)
    )
    return f"{table}\n\n{backlog}" if rows else f"no games yet\n\n{backlog}"
