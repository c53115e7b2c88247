"""An organiser's edit of a running game's Config tab: which keys take effect (from the next round:
each round's deadline is fixed when it opens) and which cannot (game options are fixed at the
start), told to the organiser in one mail per edit."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from courier.config import COMMAND_KEYS, SHELL_KEYS
from courier.context import LoadedGame, Tick

# Keys that change a running game; every other key is a game option, fixed when the game began.
LIVE_KEYS = (SHELL_KEYS - {"game", "start"}) | COMMAND_KEYS | {"outage_grace"}


def changed_lines(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    lines = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key, "(none)"), after.get(key, "(none)")
        if old == new:
            continue
        if key in LIVE_KEYS or key.endswith("_duration"):
            lines.append(f"`{key}`: {old} → {new}; it takes effect from the next round.")
        else:
            lines.append(
                f"`{key}`: {old} → {new}; this is fixed when the game begins, so the running game"
                " goes on as it started."
            )
    return lines


def tell_changes(tick: Tick, loaded: LoadedGame, stored: str) -> None:
    """Mail the organiser what an edit of a running game's settings changed."""
    row = tick.journal.game(loaded.config.id)
    if row is None or row.finished:
        return
    before, after = json.loads(stored), loaded.snapshot
    lines = changed_lines(before["config"], after.config)  # the Players tab has its own news (newcomers)
    if not lines:
        return
    digest = hashlib.sha256(json.dumps([before["config"], after.config]).encode()).hexdigest()[:16]
    key = f"{row.id}/settings/{digest}"
    message = tick.mailer.answer(
        loaded.config, to=loaded.organiser, name="organiser", topic="Settings changed", lines=lines, key=key
    )
    with tick.journal.transaction() as db:
        tick.queue(db, key=key, message=message, game=row.id, kind="answer")
