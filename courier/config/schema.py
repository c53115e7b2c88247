"""Every key of ``courier.toml`` once, with its shape, its default and what it means.

Three readers share this one schema: the shape check (courier/config/settings_shape.py), the check
for keys nobody reads (courier/config/unknown_keys.py) and ``load_deployment``'s defaults
(courier/config/deployment.py). The backend tables ([inbox], [outbox], [sheets]) come from the kinds
table of courier/backends/kinds.py. ``markdown()`` renders it all as the key table of the docs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from courier.backends.kinds import (
    INBOX,
    KINDS,
    OUTBOX,
    ROLES,
    TEXT,
    WHOLE,
    Role,
    Setting,
    Shape,
    role_settings,
)

_NONE: Mapping[str, Any] = MappingProxyType({})  # an absent table: no keys
_TABLE = Shape("a table ([name] with keys below it)", (dict,))


@dataclass(frozen=True)
class Table:
    """One table of ``courier.toml``: ``name`` is empty for the top level; ``many`` for ``[[game]]``;
    ``role`` when a backend kind's settings fill it."""

    name: str
    settings: Mapping[str, Setting]
    many: bool = False
    role: Role | None = None

    @property
    def title(self) -> str:
        return f"[[{self.name}]]" if self.many else f"[{self.name}]" if self.name else "top level"

    def default(self, key: str) -> Any:
        return self.settings[key].default

    def get(self, data: Mapping[str, Any], key: str) -> Any:
        """``data[key]``, or the key's default."""
        return data.get(key, self.settings[key].default)


def _table(name: str, *settings: Setting, many: bool = False) -> Table:
    return Table(name, {s.name: s for s in settings}, many=many)


def _backend_table(role: Role) -> Table:
    return Table(role.table, role_settings(role), role=role)


_WHERE = "see its table below"
TOP = _table(
    "",
    Setting(
        "state_dir",
        Shape('text (a folder, e.g. "state")', (str,)),
        "the journal and the run lock",
        default="state",
        checked=True,
    ),
    Setting(
        "journal",
        Shape('text (a kind of journal, e.g. "sqlite")', (str,)),
        "how the journal is kept: a kind of courier/journal/opener.py",
        default="sqlite",
        checked=True,
    ),
    Setting("domain", TEXT, "right-hand side of our Message-IDs", default="courier.invalid", checked=True),
    Setting("from", TEXT, "the sender of every mail", required=True, checked=True),
    Setting("reply_to", TEXT, "Reply-To of every mail: where players' orders should go", checked=True),
    Setting("organiser", TEXT, "told once of each config or mail problem", required=True, checked=True),
    Setting(
        "templates",
        Shape("text (a folder)", (str,)),
        "your own Jinja templates, searched first",
        checked=True,
    ),
    Setting(
        "quote_patterns",
        Shape("text (a TOML file)", (str,)),
        "your own quote patterns, read as well as config/quotes.toml (docs/reading-mail.md)",
        checked=True,
    ),
    Setting(
        "stale_after",
        Shape('a duration such as "6h", or 0', (str, int)),
        "after an outage this long, deadlines move instead of rounds resolving (0: off)",
        default="6h",
        checked=True,
    ),
    Setting(
        "quarantine_after",
        WHOLE,
        "a game failing this many ticks in a row is set aside",
        default=5,
        checked=True,
    ),
    Setting(
        "inbox",
        _TABLE,
        f"where orders arrive; {_WHERE}",
        default=INBOX.absent,
        default_words='maildir, path "mail/inbox"',
        checked=True,
    ),
    Setting(
        "outbox",
        _TABLE,
        f"how mail leaves; {_WHERE}",
        default=OUTBOX.absent,
        default_words='files, path "mail/sent"',
        checked=True,
    ),
    Setting("sheets", _TABLE, f"settings for Google Sheets; {_WHERE}", default=_NONE, checked=True),
    Setting(
        "auth", _TABLE, f"whose Authentication-Results to believe; {_WHERE}", default=_NONE, checked=True
    ),
    Setting("backups", _TABLE, f"copies of the journal; {_WHERE}", default=_NONE, checked=True),
    Setting(
        "budgets",
        _TABLE,
        f"how much mail one sender's input may cause; {_WHERE}",
        default=_NONE,
        checked=True,
    ),
    Setting(
        "game",
        Shape("a list of [[game]] tables", (list,)),
        f"one per game; {_WHERE}",
        default=(),
        checked=True,
    ),
)
AUTH = _table(
    "auth",
    Setting(
        "trusted_authserv_ids",
        Shape('a list of text, e.g. ["mx.google.com"]', (list,), items=(str,)),
        "the servers whose Authentication-Results headers are believed (none: any)",
        default=(),
        checked=True,
    ),
    Setting(
        "require",
        TEXT,
        '"pass": mail counts only with a trusted DKIM or DMARC pass; "no-fail": unless they show a fail',
        default="no-fail",
    ),
)
BACKUPS = _table(
    "backups",
    Setting("keep", WHOLE, "at most this many copies of the journal in state_dir/backups", default=50),
    Setting("days", WHOLE, "none older than this many days (the newest is always kept)", default=30),
)
BUDGETS = _table(
    "budgets",
    Setting(
        "per_sender_hour",
        WHOLE,
        "replies, relayed press and answers one address's mail may cause in a clock hour; the rest are held",
        default=40,
    ),
    Setting("per_sender_day", WHOLE, "the same in a day (UTC)", default=200),
    Setting(
        "per_recipient_hour",
        WHOLE,
        "replies, relayed press and answers one address may receive in a clock hour; the rest are held",
        default=30,
    ),
    Setting("per_recipient_day", WHOLE, "the same in a day (UTC)", default=150),
)
GAME = _table(
    "game",
    Setting("id", TEXT, "the game's id: players tag their subjects [id]", required=True, checked=True),
    Setting("workbook", TEXT, "its local .xlsx workbook (or `sheet`)", checked=True),
    Setting("sheet", TEXT, "its Google Sheet's key (or `workbook`)", checked=True),
    Setting("seed", TEXT, "a fixed seed, for tests only; else a secret one is drawn", checked=True),
    Setting(
        "organiser", TEXT, "this game's organiser", default_words="the top-level organiser", checked=True
    ),
    many=True,
)
TABLES: tuple[Table, ...] = (
    TOP,
    *(_backend_table(role) for role in ROLES),
    AUTH,
    BACKUPS,
    BUDGETS,
    GAME,
)


def table(name: str) -> Table:
    return next(t for t in TABLES if t.name == name)


# --- the docs' key table ---------------------------------------------------------------------------


def markdown() -> str:
    """Every key as a Markdown table per table of ``courier.toml``; backend keys per kind."""
    parts = [_rows(t.title, t.settings.values()) for t in TABLES if t.role is None]
    for kind in KINDS:
        role = kind.role
        if role.kind_key:
            title = f'[{role.table}] {role.kind_key} = "{kind.name}": {kind.help}'
            parts.append(_rows(title, [role_settings(role)[role.kind_key], *kind.settings]))
        else:
            title = f"[[game]] {kind.game_key} = …: {kind.help}"
            settings = f"its settings are in [{role.table}]" if kind.settings else "no settings of its own"
            parts.append(
                _rows(f"{title}; {settings}", kind.settings)
                if kind.settings
                else f"**{title}**: {settings}.\n"
            )
    return "\n".join(parts)


def _rows(title: str, settings: Any) -> str:
    lines = [f"**{title}**", "", "| key | value | default | meaning |", "|---|---|---|---|"]
    for s in settings:
        default = "required" if s.required else s.shown_default.replace("|", "\\|") or "—"
        lines.append(f"| `{s.name}` | {s.shape.words} | {default} | {s.meaning} |")
    return "\n".join(lines) + "\n"
