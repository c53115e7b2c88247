"""Courier, the shell around engine/: it reads the players' mail, keeps the journal, runs the tick
and sends the mail the games' events make.

Its modules live in rooms along the seams, listed bottom to top in ROOMS, the one place that says
so. A module imports only its own room and the rooms below it, never one above, and no two packages
import each other, however indirectly; every import counts, inside a function and under
TYPE_CHECKING too. tests/contract/test_rooms.py checks it; engine/ imports no room at all
(tests/contract/test_engine_purity.py).
"""

from __future__ import annotations

ROOMS: tuple[str, ...] = (
    "courier",  # the floor, the modules directly in courier/: errors, data, faults, screenful, silent_seats
    "courier.backends",  # inbox, outbox and workbook kinds: files, maildir, IMAP, SMTP, xlsx, Google Sheets
    "courier.config",  # courier.toml, a game's Config and Players tabs, schedules, the settings' shape
    "courier.journal",  # the journal (SQLite), its backups, replaying a game from it
    "courier.mail",  # reading a mail and who wrote it; composing, rendering and sending mail
    "courier.state",  # what a tick loads and decides: context, control, newcomers, quarantine, history
    "courier.commands",  # organiser and player commands: their syntax, steps and answers
    "courier.tick",  # the runbook (run_tick) and one module per step
    "courier.tools",  # the operator's tools: the `courier` command, status, dry run, demo, init, simulate
)
"""The rooms of courier/, bottom to top. courier/__main__.py is the door (`python -m courier`): it
stands in the top room and only calls courier.tools.cli."""
