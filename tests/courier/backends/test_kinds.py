"""The table of backend kinds is complete: every kind has an opener, a schema and a help line; every
setting its module reads is in its schema; the openers open; gspread and imapclient load only when a
deployment uses them."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from courier.backends import kinds
from courier.backends.base import BackendError, Workbook
from courier.backends.factory import open_inbox, open_transport, open_workbook
from courier.backends.kinds import INBOX, KINDS, OUTBOX, ROLES, SHEETS, BackendKind, find_kind, kinds_of
from tests.helpers.paths import ROOT

_BACKENDS = Path(kinds.__file__).parent
# What a backend reads from its settings: settings.get("key"…), settings["key"], _number(…"key",
# secret(…, "name".
_READS = re.compile(r'(?:settings(?:\.get\(|\[)|_number\((?:settings, )?|secret\(self\._settings, )"(\w+)"')


def _module_of(kind: BackendKind) -> Path:
    """The module the kind's opener imports."""
    [module] = re.findall(r"from courier\.backends\.(\w+) import", inspect.getsource(kind.opener))
    return _BACKENDS / f"{module}.py"


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: f"{k.role.name}-{k.name}")
def test_every_kind_has_an_opener_a_help_line_and_a_described_schema(kind: BackendKind) -> None:
    assert callable(kind.opener) and _module_of(kind).exists()
    assert kind.help and "\n" not in kind.help
    assert all(s.meaning and s.shape.words for s in kind.settings)
    assert len({s.name for s in kind.settings}) == len(kind.settings)
    assert all(s.default is None for s in kind.settings if s.required)
    assert bool(kind.game_key) != bool(kind.role.kind_key)  # chosen by `type` or by a [[game]] key


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: f"{k.role.name}-{k.name}")
def test_every_setting_a_backend_reads_is_in_its_schema(kind: BackendKind) -> None:
    source = _module_of(kind).read_text(encoding="utf-8") + inspect.getsource(kind.opener)
    read = set(_READS.findall(source))
    assert read or not kind.settings
    secrets = {s.name.removesuffix("_env") for s in kind.settings if s.name.endswith("_env")}
    assert read - secrets <= {s.name for s in kind.settings}


@pytest.mark.parametrize("role", ROLES, ids=lambda r: r.name)
def test_every_role_has_kinds_and_a_known_default(role: kinds.Role) -> None:
    names = [k.name for k in kinds_of(role)]
    assert names and len(set(names)) == len(names)
    if role.kind_key:
        assert role.default_kind in names and role.absent is not None
        absent = find_kind(role, role.absent[role.kind_key])
        assert set(absent.required) <= set(role.absent)


def test_an_unknown_kind_names_the_known_ones() -> None:
    with pytest.raises(BackendError, match=r"\[inbox\] type = 'pop3' is not known \(known: maildir, imap\)"):
        open_inbox({"type": "pop3"}, last_uid=lambda prefix: 0)
    with pytest.raises(BackendError, match=r"\[outbox\] type = 'mbox' is not known \(known: files, smtp\)"):
        open_transport({"type": "mbox"})


def test_the_embedded_kinds_open_from_their_settings(tmp_path: Path) -> None:
    inbox = open_inbox({"path": str(tmp_path / "in")}, last_uid=lambda prefix: 0)  # maildir: the default
    assert inbox.fetch_new() == []
    transport = open_transport({"type": "files", "path": str(tmp_path / "out")})
    assert type(transport).__name__ == "EmlDirectory"
    book: Workbook = open_workbook(workbook=tmp_path / "g.xlsx", sheet=None, sheets={})
    assert type(book).__name__ == "XlsxWorkbook"


def test_the_real_kinds_open_without_connecting() -> None:
    imap: Any = open_inbox({"type": "imap", "host": "127.0.0.1", "username": "u"}, last_uid=lambda p: 0)
    assert type(imap).__name__ == "ImapInbox" and imap.folder == find_kind(INBOX, "imap").default("folder")
    smtp: Any = open_transport({"type": "smtp", "host": "127.0.0.1"})
    assert type(smtp).__name__ == "SmtpTransport"
    assert smtp.timeout == find_kind(OUTBOX, "smtp").default("timeout")


def test_a_sheet_opens_as_a_google_sheet(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("COURIER_SHEETS_CREDENTIALS", "GOOGLE_APPLICATION_CREDENTIALS"):
        monkeypatch.delenv(name, raising=False)
    assert find_kind(SHEETS, "gsheet").game_key == "sheet"
    with pytest.raises(BackendError, match="Google Sheets needs a service-account key"):
        open_workbook(workbook=None, sheet="KEY", sheets={})


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            {"type": "imap", "host": "127.0.0.1", "username": "u", "port": "x"},
            "[inbox] port must be a number",
        ),
        ({"type": "imap", "host": "127.0.0.1", "username": "u", "timeout": []}, "[inbox] timeout must be"),
    ],
)
def test_a_bad_number_is_the_operators_to_fix(settings: dict[str, object], message: str) -> None:
    with pytest.raises(BackendError, match=re.escape(message)):
        open_inbox(settings, last_uid=lambda prefix: 0)


def test_gspread_and_imapclient_load_only_when_used() -> None:
    code = (
        "import sys, courier.config.deployment, courier.backends.factory, courier.tick.runbook;"
        "print(sorted(m for m in ('gspread', 'imapclient', 'smtplib') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"
