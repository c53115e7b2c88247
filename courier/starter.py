"""``courier init``: a commented starter deployment file and one game workbook to edit."""

from __future__ import annotations

from pathlib import Path

from courier.backends.workbook import XlsxWorkbook

STARTER = """\
# Courier deployment file. `courier tick --config {name}` reads it; cron runs that every 5 minutes.
# Paths are relative to this file. Secrets (passwords, keys) never go here: later backends read
# them from environment variables or files named here.

state_dir = "state"                       # the journal (SQLite, 0600) and the run lock
domain = "courier.example.org"            # right-hand side of our Message-IDs
from = "Courier <courier@example.org>"    # who our mail comes from
reply_to = "orders@example.org"           # where players' replies (orders) should go
organiser = "organiser@example.org"       # told once about each config or delivery problem
# templates = "my-templates"              # optional: your own Jinja templates, searched first

[inbox]                                   # where orders arrive
type = "maildir"
path = "mail/inbox"

[outbox]                                  # how mail leaves: "files" writes .eml files per player
type = "files"
path = "mail/sent"

# One [[game]] per game. Its workbook holds the Config and Players tabs the organiser edits,
# form responses, and the public Ledger and History tabs Courier writes.
[[game]]
id = "{game}-1"                           # players tag their subject with [{game}-1]
workbook = "{game}-1.xlsx"
# seed = "fixed"                          # only for tests: otherwise a secret seed is drawn
"""


def write_starter(directory: Path, *, game: str) -> list[Path]:
    """Write ``courier.toml`` and the game's workbook unless they exist. Returns what was written."""
    directory.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    config = directory / "courier.toml"
    if not config.exists():
        config.write_text(STARTER.format(name=config.name, game=game), encoding="utf-8")
        written.append(config)
    workbook = directory / f"{game}-1.xlsx"
    existed = workbook.exists()
    XlsxWorkbook(workbook).init(game=game)
    if not existed:
        written.append(workbook)
    return written
