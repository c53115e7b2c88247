"""Step 7: the public ledger, projected from the journal onto the game's sheet.

The sheet is rewritten only when the projection changed or the Ledger read this tick differs from it
(an organiser's save or an old copy of the workbook put back), so a quiet tick costs no write and a
damaged Ledger heals at the next tick. It holds public facts only: standings, who has sent orders
(never what), and each round's public results.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from courier.backends._sheet_tables import shown_rows
from courier.context import LoadedGame, Tick
from courier.journal import GameRow
from courier.mails import seed_hash
from courier.outage import history_notes
from engine.core import Ruleset


def publish_game(tick: Tick, loaded: LoadedGame) -> None:
    row = tick.journal.game(loaded.config.id)
    if row is None:
        return
    ledger = ledger_table(tick, loaded, row)
    history = history_table(tick, loaded.config.ruleset, row.id)
    digest = hashlib.sha256(json.dumps([ledger, history], default=str).encode()).hexdigest()
    if tick.journal.meta(f"published/{row.id}") == digest and loaded.snapshot.ledger == shown_rows(ledger):
        return
    loaded.workbook.write_public(ledger=ledger, history=history)
    tick.journal.set_meta(f"published/{row.id}", digest)


def ledger_table(tick: Tick, loaded: LoadedGame, row: GameRow) -> list[list[Any]]:
    ruleset = loaded.config.ruleset
    state = ruleset.from_json(row.state)
    phase = ruleset.phase(state)
    rows = ruleset.ledger(state)
    written = tick.journal.standing(row.id, row.phase_key).keys()
    awaited = ruleset.awaiting(state)
    headers = list(rows[0]) if rows else ["Player"]
    deadline = loaded.config.schedule.format_deadline(row.deadline) if row.deadline else "—"
    # The seed's hash is public from the start; the seed itself only once the game is over.
    seed = ["Seed", row.seed] if row.finished else ["Seed SHA-256", seed_hash(row.seed)]
    table: list[list[Any]] = [
        ["Game", row.id, "Phase", phase.label, "Deadline", deadline, *seed],
        headers if "Orders in" in headers else [*headers, "Orders in"],
    ]
    bots = set(loaded.config.bots)
    for entry in rows:
        cells = [_bot_marked(_cell(entry.get(h)), bots) for h in headers]
        if "Orders in" in headers:  # the game says whose orders are in (a nation's courtiers)
            table.append(cells)
            continue
        name = entry.get("Player", "")
        orders_in = (
            "bot" if name in bots else "yes" if name in written else ("no" if name in awaited else "—")
        )
        table.append([*cells, orders_in])
    return table


def _bot_marked(value: Any, bots: set[str]) -> Any:
    """A bot seat's name reads ``Darcy (bot)`` on the Ledger."""
    return f"{value} (bot)" if isinstance(value, str) and value in bots else value


def history_table(tick: Tick, ruleset: Ruleset, game_id: str) -> list[list[Any]]:
    """One row per player per resolved round: that round's public standings."""
    records = tick.journal.rounds(game_id)
    notes = history_notes(tick.journal, game_id)  # an outage, a moved deadline: after round N
    header: list[Any] = ["Round"]
    body: list[list[Any]] = []
    for done, record in enumerate(records):
        body.extend(["—", text] for before, text in notes if before == done)
        rows = ruleset.ledger(ruleset.from_json(record["state_after"]))
        if done == 0 and rows:
            header = ["Round", *rows[0]]
        body.extend([record["phase_key"], *(_cell(v) for v in entry.values())] for entry in rows)
    body.extend(["—", text] for before, text in notes if before >= len(records))
    return [header, *body]


def _cell(value: Any) -> Any:
    return "" if value is None else value
