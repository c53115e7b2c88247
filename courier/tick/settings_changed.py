"""An organiser's edit of a running game's Config tab, told to the organiser in one mail per edit:
schedule and command keys take effect from the next round (each round's deadline is fixed when it
opens); a game's amendable options (Truce's `rounds`, Monarchs' `turns`) change the running game
through ``Ruleset.amend``, journalled as an act so `replay` applies it at the same point; every other
option is fixed when the game begins."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from courier.config.game import COMMAND_KEYS, SHELL_KEYS
from courier.journal.interface import GameRow, Transaction
from courier.journal.meta import GoodConfig
from courier.state.context import LoadedGame, Tick
from engine.core import Amendable

# Keys that change a running game; every other key is a game option, fixed when the game began.
LIVE_KEYS = (SHELL_KEYS - {"game", "start"}) | COMMAND_KEYS | {"outage_grace"}


def tell_changes(tick: Tick, loaded: LoadedGame, stored: GoodConfig) -> None:
    """Mail the organiser what an edit of a running game's settings changed, amending the game."""
    row = tick.journal.game(loaded.config.id)
    if row is None or row.finished:
        return
    before, after = stored["config"], loaded.snapshot.config
    if before == after:
        return  # the Players tab changed: it has its own news (newcomers, substitutes)
    digest = hashlib.sha256(json.dumps([before, after]).encode()).hexdigest()[:16]
    key = f"{row.id}/settings/{digest}"
    with tick.journal.transaction() as db:
        lines = [_change(tick, db, loaded, row, k, before, after) for k in sorted(set(before) | set(after))]
        lines = [line for line in lines if line]
        message = tick.mailer.answer(
            loaded.config,
            to=loaded.organiser,
            name="organiser",
            topic="Settings changed",
            lines=lines,
            key=key,
        )
        tick.queue(db, key=key, message=message, game=row.id, kind="answer")
    tick.forget(row.id)  # an amended option (rounds, turns) changed the game's state


def _change(
    tick: Tick,
    db: Transaction,
    loaded: LoadedGame,
    row: GameRow,
    key: str,
    before: Mapping[str, Any],
    after: Mapping[str, Any],
) -> str:
    old, new = before.get(key, "(none)"), after.get(key, "(none)")
    if old == new:
        return ""
    said = f"`{key}`: {old} → {new}"
    if key in LIVE_KEYS or key.endswith("_duration"):
        return f"{said}; it takes effect from the next round."
    ruleset = loaded.config.ruleset
    if not isinstance(ruleset, Amendable) or key not in ruleset.amendable_options or key not in after:
        return f"{said}; this is fixed when the game begins, so the running game goes on as it started."
    current = tick.journal.game(row.id) or row
    try:
        state = ruleset.amend(ruleset.from_json(current.state), key, after[key])
    except ValueError as e:
        return f"{said}; not applied: {e}."
    act = json.dumps({"option": key, "value": after[key]})
    db.add_submission(
        game=row.id,
        phase_key=current.phase_key,
        player="organiser",
        input_id=0,
        received_at=tick.now,
        text=act,
        parsed={},
        standing={},
        kind="amend",
    )
    db.set_state(row.id, ruleset.to_json(state))
    return f"{said}; applied at once: the game is now at {ruleset.phase(state).label}."
