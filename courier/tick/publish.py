"""Step 7: the public ledger, projected from the journal onto the game's sheet.

The sheet is rewritten only when the projection changed or the Ledger read this tick differs from it
(an organiser's save or an old copy of the workbook put back), so a quiet tick costs no write and a
damaged Ledger heals at the next tick. It holds public facts only: standings, who has sent orders
(never what), and each round's public results.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection
from typing import Any

from courier.backends.base import BackendError, TransientError
from courier.backends.sheet_tables import shown_rows
from courier.backends.sheets_quota import NotReached
from courier.config.game import is_bot_address
from courier.journal.interface import GameRow
from courier.journal.meta import PUBLISHED, STALE
from courier.mail.mailer import seed_hash
from courier.state.awaited import phase_shown, with_orders
from courier.state.context import GameView, LoadedGame, Tick
from courier.state.control import away, control, kicked
from courier.state.history import history_notes, history_rows
from courier.tick.sheets_first import left_behind


def publish_game(tick: Tick, loaded: LoadedGame) -> None:
    """Publishing is not resolving: a sheet Courier cannot write (its permissions, a file locked
    elsewhere) is one line a tick and one mail to the organiser, and the game goes on; the sheet
    catches up at the first tick that can write it. A passing outage (Google failing, its quota
    spent) is one line for the operator and no mail; the game publishes first at the next tick."""
    game_id = loaded.config.id
    try:
        _publish(tick, loaded)
    except NotReached:  # the tick's Sheets quota is spent: first at the next tick, one line for all
        left_behind(tick, game_id, reached=False)
        return
    except TransientError as e:  # a passing outage: the operator's, via cron; next tick first
        left_behind(tick, game_id, reached=True)
        tick.problem(f"game {game_id}: {e}")
        return
    except BackendError as e:
        problem = (
            f"game {game_id}: its sheet could not be written ({e}); the game goes on and its mail goes,"
            " the sheet catches up once Courier can write it"
        )
        tick.problem(problem)
        if STALE.get(tick.journal, game_id) is None:  # told once a time the sheet goes stale
            since = tick.now.isoformat(timespec="minutes")
            tick.tell_organiser(game_id, loaded.organiser, f"{problem} (since {since})")
            STALE.set(tick.journal, game_id, str(e))
        return
    if STALE.get(tick.journal, game_id) is not None:
        with tick.journal.transaction() as db:
            STALE.delete(db, game_id)


def _publish(tick: Tick, loaded: LoadedGame) -> None:
    view = tick.view(loaded.config.id)
    if view is None:
        return
    row = view.row
    players = substitutes_shown(loaded, row)
    ledger = ledger_table(tick, loaded, view)
    digest = _digest_of_tabs(tick, row.id, ledger)
    if PUBLISHED.get(tick.journal, row.id) == digest and loaded.snapshot.ledger == shown_rows(ledger):
        if players:
            loaded.workbook.update_players(players)
        return
    history = history_table(tick, row.id)
    # One write for all three tabs: a Google Sheet's quota counts requests.
    loaded.workbook.write_public(ledger=ledger, history=history, players=players)
    PUBLISHED.set(tick.journal, row.id, digest)


def _digest_of_tabs(tick: Tick, game_id: str, ledger: list[list[Any]]) -> str:
    """A digest of what the public tabs show: the Ledger, and what History is made of (how many
    rounds, which never change once resolved unless a rollback takes them back, and the notes), so
    a tick that changes neither does not build History to find out."""
    made_of = [
        tick.journal.round_count(game_id),
        _rollbacks(tick, game_id),
        history_notes(tick.journal, game_id),
    ]
    return hashlib.sha256(json.dumps([ledger, made_of], default=str).encode()).hexdigest()


def _rollbacks(tick: Tick, game_id: str) -> int:
    return int(control(tick.journal, game_id).get("epoch", 0))


def substitutes_shown(loaded: LoadedGame, row: GameRow) -> dict[str, dict[str, str]]:
    """The Players tab shows each substitute in the seat's row: their address (the old one no longer
    counts), their name as a nickname, no secret (a player who only changed address keeps theirs).
    The cells to change, while the tab shows otherwise."""
    seats: dict[str, dict[str, str]] = row.setup.get("seats", {})
    shown = {p.get("name", ""): p for p in loaded.snapshot.players}
    written = {
        seat: "bot" if is_bot_address(info["email"]) else info["email"] for seat, info in seats.items()
    }
    changes = {
        seat: {
            "email": written[seat],
            **({} if info.get("moved") else {"secret": ""}),
            **({"nickname": info["name"]} if info.get("name") else {}),
        }
        for seat, info in seats.items()
        if seat in shown and shown[seat].get("email", "").lower() != written[seat]
    }
    return changes


def ledger_table(tick: Tick, loaded: LoadedGame, view: GameView) -> list[list[Any]]:
    ruleset, row, state = loaded.config.ruleset, view.row, view.state
    rows = ruleset.ledger(state)
    written = with_orders(tick.journal, row).keys()  # a mail with nothing usable is no orders in
    awaited = frozenset() if row.finished else ruleset.awaiting(state)  # ended early: awaits nobody
    left, absent = kicked(row), away(tick.journal, row.id, tick.now)  # public: everybody was told
    headers = list(rows[0]) if rows else ["Player"]
    deadline = loaded.config.schedule.format_deadline(row.deadline) if row.deadline else "—"
    # The seed's hash is public from the start; the seed itself only once the game is over.
    seed = ["Seed", row.seed] if row.finished else ["Seed SHA-256", seed_hash(row.seed)]
    table: list[list[Any]] = [headers if "Orders in" in headers else [*headers, "Orders in"]]
    bots = set(loaded.config.bots)
    for entry in rows:
        cells = [loaded.config.shown(_cell(entry.get(h))) for h in headers]  # Emmett (for Darcy), bots
        if "Orders in" in headers:  # the game says whose orders are in (a nation's courtiers)
            table.append(cells)
            continue
        name = entry.get("Player", "")
        orders_in = (
            "bot"
            if name in bots
            else _orders_in(name, written=written, awaited=awaited, left=left, away=absent)
        )
        table.append([*cells, orders_in])
    # The game's own facts under the table, after a blank row: the headers are the tab's first row,
    # so a spreadsheet's filter and frozen row work on it (issue 29).
    facts = ["Game", row.id, "Phase", phase_shown(ruleset, state, row), "Deadline", deadline, *seed]
    return [*table, [], facts]


def _orders_in(
    name: str, *, written: Collection[str], awaited: Collection[str], left: set[str], away: set[str]
) -> str:
    if name in left:
        return "left"
    if name not in awaited:  # one who writes unasked (Veneer's action cards) keeps that to themself
        return "—"
    if name in written:
        return "yes"
    return "away" if name in away else "no"


def history_table(tick: Tick, game_id: str) -> list[list[Any]]:
    """What happened in public, round by round, as the journal keeps it (courier/state/history.py):
    each line once, labelled with its round; nothing is rebuilt from the rounds."""
    return history_rows(tick.journal, game_id)


def _cell(value: Any) -> Any:
    return "" if value is None else value
