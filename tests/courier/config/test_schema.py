"""The deployment schema is complete: every key ``load_deployment`` reads is in it (read from the
example file and from a file setting every key), every key is described and documented, the shape
check follows it, and a misspelt key anywhere is pointed out with a "did you mean"."""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from courier.backends.kinds import KINDS, Setting
from courier.config.deployment import load_deployment
from courier.config.schema import GAME, TABLES, TOP, Table, markdown, table
from courier.config.unknown_keys import unknown_deployment_keys
from courier.errors import ConfigError
from tests.helpers.paths import ROOT

# Every key of the schema, each set once (a [[game]] takes a workbook or a sheet, so two games).
MAXIMAL = """
state_dir = "state"
journal = "sqlite"
domain = "courier.example.org"
from = "Courier <courier@example.org>"
reply_to = "orders@example.org"
organiser = "organiser@example.org"
templates = "my-templates"
quote_patterns = "my-quotes.toml"
stale_after = "6h"
quarantine_after = 5

[inbox]
type = "imap"
path = "mail/inbox"
host = "imap.example.org"
username = "orders@example.org"
security = "tls"
port = 993
auth = "password"
password_env = "IMAP_PASSWORD"
password_file = "imap.secret"
password_command = "pass imap"
oauth2_token_env = "TOKEN"
oauth2_token_file = "token"
oauth2_token_command = "token-please"
folder = "INBOX"
processed_folder = "Courier/Processed"
rejected_folder = "Courier/Rejected"
timeout = 30
ca_file = "ca.pem"
verify = true

[outbox]
type = "smtp"
path = "mail/sent"
host = "smtp.example.org"
security = "starttls"
port = 587
username = "orders@example.org"
password_env = "SMTP_PASSWORD"
password_file = "smtp.secret"
password_command = "pass smtp"
auth = "password"
oauth2_token_env = "SMTP_TOKEN"
oauth2_token_file = "smtp.token"
oauth2_token_command = "token smtp"
timeout = 30
ca_file = "ca.pem"
verify = true
max_per_tick = 100
daily_recipients = 2000
envelope_from = "bounces@example.org"

[sheets]
credentials_file = "service-account.json"
api_base = "http://127.0.0.1:1"
retries = 3
backoff = 1.0
timeout = 30
reads_per_minute = 48
writes_per_minute = 48
wait = 60

[auth]
trusted_authserv_ids = ["mx.example.org"]
require = "pass"

[backups]
keep = 50
days = 30

[budgets]
per_sender_hour = 40
per_sender_day = 200
per_recipient_hour = 30
per_recipient_day = 150

[[game]]
id = "truce-1"
workbook = "truce-1.xlsx"
seed = "fixed"
organiser = "other@example.org"

[[game]]
id = "truce-2"
sheet = "KEY"
"""


class _Reads(dict[str, Any]):
    """A table of the TOML that notes every key read from it, under the table's name."""

    def __init__(self, data: dict[str, Any], name: str, seen: set[tuple[str, str]]) -> None:
        super().__init__({k: _recording(v, name or k, seen) for k, v in data.items()})
        self.name, self.seen = name, seen

    def get(self, key: str, default: Any = None) -> Any:
        self.seen.add((self.name, key))
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self.seen.add((self.name, key))
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.seen.add((self.name, str(key)))
        return super().__contains__(key)


def _recording(value: Any, name: str, seen: set[tuple[str, str]]) -> Any:
    if isinstance(value, dict):
        return _Reads(value, name, seen)
    if isinstance(value, list):
        return [_recording(item, name, seen) for item in value]
    return value


def _keys_read(path: Path, monkeypatch: pytest.MonkeyPatch) -> set[tuple[str, str]]:
    seen: set[tuple[str, str]] = set()
    loads = tomllib.loads
    monkeypatch.setattr(tomllib, "loads", lambda text: _Reads(loads(text), "", seen))
    load_deployment(path)
    return seen


def _schema_keys() -> set[tuple[str, str]]:
    return {(t.name, key) for t in TABLES for key in t.settings}


@pytest.fixture
def maximal(tmp_path: Path) -> Path:
    path = tmp_path / "courier.toml"
    path.write_text(MAXIMAL, encoding="utf-8")
    return path


def test_the_maximal_file_sets_every_key_of_the_schema_and_every_key_is_known(maximal: Path) -> None:
    data = tomllib.loads(MAXIMAL)
    written = {("", k) for k in data} | {
        (t, k) for t in ("inbox", "outbox", "sheets", "auth", "backups", "budgets") for k in data[t]
    }
    written |= {("game", k) for game in data["game"] for k in game}
    assert written == _schema_keys()
    assert load_deployment(maximal).warnings == ()


@pytest.mark.parametrize("name", ["maximal", "example"])
def test_every_key_load_deployment_reads_is_in_the_schema(
    name: str, maximal: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = maximal if name == "maximal" else ROOT / "config" / "courier.example.toml"
    read = _keys_read(path, monkeypatch)
    assert read and read <= _schema_keys()


def test_load_deployment_takes_its_defaults_from_the_schema(tmp_path: Path) -> None:
    path = tmp_path / "courier.toml"
    path.write_text('from = "c@example.org"\norganiser = "o@example.org"\n', encoding="utf-8")
    loaded = load_deployment(path)
    assert loaded.state_dir == tmp_path / TOP.default("state_dir") and loaded.domain == TOP.default("domain")
    assert loaded.inbox == {"type": "maildir", "path": tmp_path / "mail" / "inbox"}
    assert loaded.outbox == {"type": "files", "path": tmp_path / "mail" / "sent"}
    backups = table("backups")
    assert (loaded.backups.keep, loaded.backups.days) == (backups.default("keep"), backups.default("days"))
    assert (
        loaded.quarantine_after == TOP.default("quarantine_after")
        and loaded.stale_after.total_seconds() == 6 * 3600
    )
    assert loaded.require_pass is (table("auth").default("require") == "pass")


def _every_setting() -> Iterator[tuple[str, Setting]]:
    for t in TABLES:
        for setting in t.settings.values():
            yield t.title, setting


@pytest.mark.parametrize(("where", "setting"), list(_every_setting()), ids=lambda v: getattr(v, "name", v))
def test_every_key_has_a_shape_and_a_one_line_meaning(where: str, setting: Setting) -> None:
    assert setting.shape.words and setting.meaning and "\n" not in setting.meaning
    assert not (setting.required and setting.default is not None)


@pytest.mark.parametrize(("where", "setting"), list(_every_setting()), ids=lambda v: getattr(v, "name", v))
def test_every_key_is_documented(where: str, setting: Setting) -> None:
    docs = [ROOT / "docs" / "deploying.md", ROOT / "docs" / "development" / "adding-a-backend.md"]
    text = "".join(p.read_text(encoding="utf-8") for p in docs if p.exists())
    assert f"`{setting.name}`" in text, f"{where} `{setting.name}` is in no docs"


def test_the_docs_key_table_is_the_schema_rendered() -> None:
    """The table between the markers of adding-a-backend.md is ``markdown()``'s output;
    COURIER_UPDATE_GOLDEN=1 rewrites it."""
    path = ROOT / "docs" / "development" / "adding-a-backend.md"
    text = path.read_text(encoding="utf-8")
    begin, end = "<!-- generated: courier.config.schema.markdown() -->\n", "<!-- end -->"
    head, rest = text.split(begin)
    _, tail = rest.split(end, 1)
    wanted = head + begin + markdown() + end + tail
    if os.environ.get("COURIER_UPDATE_GOLDEN") == "1":
        path.write_text(text := wanted, encoding="utf-8")
    assert text == wanted, "the key table is out of date: COURIER_UPDATE_GOLDEN=1 rewrites it"


def test_every_kind_appears_in_the_docs_table() -> None:
    rendered = markdown()
    assert all(f'"{k.name}"' in rendered or f"{k.game_key} = " in rendered for k in KINDS)


def _checked(t: Table) -> list[str]:
    return [key for key, setting in t.settings.items() if setting.checked]


@pytest.mark.parametrize("key", _checked(TOP))
def test_a_top_level_key_of_the_wrong_shape_is_one_line(key: str, tmp_path: Path) -> None:
    lines = {"from": '"c@example.org"', "organiser": '"o@example.org"', key: "true"}
    path = tmp_path / "courier.toml"
    path.write_text("".join(f"{k} = {v}\n" for k, v in lines.items()), encoding="utf-8")
    words = TOP.settings[key].shape.words
    with pytest.raises(ConfigError, match=re.escape(f"`{key}` must be {words}, not True")):
        load_deployment(path)


@pytest.mark.parametrize("key", _checked(GAME))
def test_a_game_key_of_the_wrong_shape_is_one_line(key: str, tmp_path: Path) -> None:
    path = tmp_path / "courier.toml"
    path.write_text(
        f'from = "c@example.org"\norganiser = "o@example.org"\n[[game]]\n{key} = 5\n', encoding="utf-8"
    )
    with pytest.raises(ConfigError, match=re.escape(f"[[game]] number 1: `{key}` must be text, not 5")):
        load_deployment(path)


@pytest.mark.parametrize(
    ("text", "warning"),
    [
        ("stale_afte = 0", "`stale_afte` is not a setting; did you mean `stale_after`?"),
        (
            "[outbox]\nmax_per_tik = 3",
            "[outbox] `max_per_tik` is not a setting; did you mean `max_per_tick`?",
        ),
        ("[inbox]\nproccessed_folder = 'x'", "[inbox] `proccessed_folder` is not a setting; did you mean"),
        ("[sheets]\ncredential_file = 'k'", "[sheets] `credential_file` is not a setting; did you mean"),
        ("[backups]\nkept = 3", "[backups] `kept` is not a setting; did you mean `keep`?"),
        ("[auth]\nrequires = 'pass'", "[auth] `requires` is not a setting; did you mean `require`?"),
        (
            "[[game]]\nid = 'g'\nworkbok = 'g.xlsx'",
            "[game] `workbok` is not a setting; did you mean `workbook`?",
        ),
        ("colour = 'blue'", "`colour` is not a setting; it is ignored."),
    ],
)
def test_a_misspelt_key_anywhere_is_pointed_out(text: str, warning: str) -> None:
    assert any(line.startswith(warning) for line in unknown_deployment_keys(tomllib.loads(text)))
