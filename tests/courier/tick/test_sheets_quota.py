"""A tick of many games on Google Sheets under Google's limits, through `courier tick` against the
test Sheets server: one quota for all games (courier/backends/sheets_quota.py), waiting bounded,
the games not reached done first at the next tick, and each refusal one line as the operator
(stderr) and the organiser (mail) get it. The waits are recorded, never slept."""

from __future__ import annotations

import email
import email.policy
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from courier.backends import sheets_quota
from courier.journal.meta import FAILURES, SHEETS_BEHIND, STALE
from courier.journal.sqlite import SqliteJournal
from courier.tools import cli
from tests.conftest import count_fault
from tests.helpers.ledger import ledger_facts
from tests.servers.sheets import FakeSheets

ORGANISER = "organiser@courier.test"
NOW = datetime(2026, 12, 1, 8, 0, tzinfo=UTC)
LATER = "2027-01-01 08:00"  # games that start then: a tick only reads their sheets
HEAD = f"""\
state_dir = "state"
domain = "courier.test"
from = "Courier <orders@courier.test>"
reply_to = "orders@courier.test"
organiser = "{ORGANISER}"

[inbox]
type = "maildir"
path = "mail/inbox"

[outbox]
type = "files"
path = "mail/sent"
"""


class Sleeps(list[float]):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@dataclass
class Deployment:
    root: Path
    sheets: FakeSheets
    games: list[str]
    sleeps: Sleeps

    def tick(self, capsys: pytest.CaptureFixture[str], at: datetime = NOW) -> tuple[int, list[str]]:
        """`courier tick` as cron runs it: its exit code and its stderr lines."""
        capsys.readouterr()
        code = cli.main(["tick", "--config", str(self.root / "courier.toml"), "--now", at.isoformat()])
        return code, capsys.readouterr().err.splitlines()

    def reads(self, since: int = 0) -> list[str]:
        """The spreadsheets read (spreadsheets.get), in order, from API call number ``since``."""
        return [call.path.split("/")[3] for call in self.sheets.api_calls()[since:] if call.method == "GET"]

    def organiser_mail(self) -> list[EmailMessage]:
        folder = self.root / "mail" / "sent" / ORGANISER
        return [
            email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            for path in sorted(folder.glob("*.eml"))
        ]

    def meta(self) -> tuple[list[str] | None, dict[str, int], dict[str, str]]:
        journal = SqliteJournal(self.root / "state" / "journal.sqlite")
        try:
            return SHEETS_BEHIND.get(journal), FAILURES.every(journal), STALE.every(journal)
        finally:
            journal.close()


def make_deployment(
    root: Path, sheets: FakeSheets, settings: dict[str, Any], *, games: int, start: str = LATER
) -> Deployment:
    root.mkdir(parents=True)
    blocks = [HEAD, "[sheets]\n" + "\n".join(f"{k} = {_toml(v)}" for k, v in settings.items())]
    ids = [f"truce-{n:02d}" for n in range(games)]
    for game_id in ids:
        config = [["Key", "Value"], ["game", "truce"], ["timezone", "UTC"], ["start", start]]
        config += [["duration", "1d"], ["reminders", "none"], ["rounds", "5"]]
        players = [["Name", "Email"], *([f"P{n}", f"p{n}.{game_id}@players.test"] for n in range(4))]
        sheets.create(game_id, {"Config": config, "Players": players})
        blocks.append(f'[[game]]\nid = "{game_id}"\nsheet = "{game_id}"\nseed = "quota {game_id}"\n')
    (root / "courier.toml").write_text("\n\n".join(blocks), encoding="utf-8")
    return Deployment(root, sheets, ids, Sleeps())


def _toml(value: Any) -> str:
    return str(value) if isinstance(value, int | float) else '"' + str(value) + '"'


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> Iterator[Sleeps]:
    """Every wait of the tick's Sheets quota, recorded instead of slept."""
    recorded = Sleeps()
    monkeypatch.setattr(sheets_quota, "pause", recorded)
    yield recorded


def test_a_429_storm_over_20_games_costs_five_requests_and_a_bounded_wait(
    tmp_path: Path,
    sheets_server: FakeSheets,
    sheets_settings: dict[str, Any],
    sleeps: Sleeps,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Before: every game backed off 1, 2, 4 s on its own and gave up, 80 requests and 140 s slept.
    Now the backoff (Google's: 2ⁿ s and a random part of a second) counts across the tick: the first
    game gives up after 4 attempts, the next request is a probe, and when it fails too the other
    games are not tried; they go first at the next tick. No organiser mail, nothing counted failed."""
    deployment = make_deployment(tmp_path / "d", sheets_server, {**sheets_settings, "backoff": 1}, games=20)
    sheets_server.storm(count=1000)

    code, err = deployment.tick(capsys)

    assert len(sheets_server.api_calls()) == 5
    assert [int(s) for s in sleeps] == [1, 2, 4, 8] and sum(sleeps) < 19  # with a jitter each
    assert len({round(s % 1, 6) for s in sleeps}) == 4
    assert code == 1 and len(err) == 2, err
    assert err[0].startswith("courier: game truce-00: Google Sheets truce-00: HTTP 429 Quota exceeded")
    assert err[0].endswith("; gave up after 4 attempts")
    assert err[1].startswith("courier: Google Sheets: 5 requests failed in a row (HTTP 429 Quota exceeded")
    assert err[1].endswith(
        "; 19 game(s) wait for the next tick, which does them first: truce-01, truce-02, truce-03,"
        " truce-04, truce-05, truce-06, truce-07, truce-08, truce-09, truce-10 and 9 more"
    )
    assert deployment.organiser_mail() == []
    behind, failures, _ = deployment.meta()
    assert behind == deployment.games and not any(failures.values())
    count_fault("sheets 429 storm over 20 games")

    sheets_server.storm(count=0)  # the storm is over
    code, err = deployment.tick(capsys)
    assert (code, err) == (0, [])
    assert deployment.reads(5) == deployment.games
    assert deployment.meta()[0] is None


def test_the_games_a_tick_could_not_afford_go_first_at_the_next(
    tmp_path: Path,
    sheets_server: FakeSheets,
    sheets_settings: dict[str, Any],
    sleeps: Sleeps,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """4 reads in any minute and 70 s of waiting a tick: four games at once, four more a minute
    later, and the ninth would wait past the 70 s; the last two go first next tick."""
    settings = {**sheets_settings, "reads_per_minute": 4, "wait": 70}
    deployment = make_deployment(tmp_path / "d", sheets_server, settings, games=10)

    code, err = deployment.tick(capsys)

    assert deployment.reads() == deployment.games[:8]
    assert sum(sleeps) == pytest.approx(60, abs=1)  # until the first four are a minute old
    assert code == 1 and len(err) == 1
    assert err[0] == (
        "courier: Google Sheets: the quota of 4 reads a minute is used up, and this tick has waited"
        " 60 s of its 70 s; 2 game(s) wait for the next tick, which does them first: truce-08, truce-09"
    )
    assert deployment.organiser_mail() == []

    before = len(sheets_server.api_calls())
    deployment.tick(capsys)
    games = deployment.games
    assert deployment.reads(before) == [*games[8:], *games[:6]]  # the two left first, then in turn
    assert deployment.meta()[0] == games[6:8]


def test_adding_the_ledger_whose_answer_was_lost_tells_nobody(
    tmp_path: Path,
    sheets_server: FakeSheets,
    sheets_settings: dict[str, Any],
    sleeps: Sleeps,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The game starts and its first publication adds Ledger and History in one batchUpdate; Google
    did it but the answer was lost, and the retry hears 'A sheet with the name "Ledger" already
    exists'. The tick reads the sheet again, finds its own tabs: success. No line, no organiser
    mail, no failure counted towards quarantine."""
    deployment = make_deployment(
        tmp_path / "d", sheets_server, sheets_settings, games=1, start="2026-12-01 07:00"
    )
    sheets_server.lose_answers(1, kind=":batchUpdate")

    code, err = deployment.tick(capsys)

    assert (code, err) == (0, [])
    assert sheets_server.titles("truce-00") == ["Config", "Players", "Ledger", "History"]
    assert ledger_facts(sheets_server.values("truce-00", "Ledger"))[:2] == ["Game", "truce-00"]
    assert len(sheets_server.api_calls(":batchUpdate")) == 2
    assert [m for m in deployment.organiser_mail() if m["X-Courier-Kind"] == "organiser"] == []
    behind, failures, stale = deployment.meta()
    assert behind is None and not any(failures.values()) and stale == {}
    count_fault("sheets answer lost")


REFUSALS: dict[str, tuple[Callable[[FakeSheets], object], str]] = {
    "missing scope": (
        lambda fake: fake.missing_scope(),
        "the credentials in {key} lack the spreadsheets scope (https://www.googleapis.com/auth/spreadsheets):"
        " Google refused them for the sheet; use a service-account key, or grant that scope",
    ),
    "not shared": (
        lambda fake: setattr(fake.spreadsheets["truce-00"], "forbidden", True),
        "the sheet truce-00 is not shared with the service account"
        " courier@courier-test.iam.gserviceaccount.com; share it with that address as an editor",
    ),
    "uploaded xlsx": (
        lambda fake: fake.as_uploaded_xlsx("truce-00"),
        "the sheet truce-00 is an uploaded Excel file, which the Sheets API cannot use: convert it to a"
        " Google Sheet (File → Save as Google Sheets) and put the new sheet's key in the config",
    ),
}


@pytest.mark.parametrize("refusal", sorted(REFUSALS))
def test_each_refusal_is_one_line_and_one_mail_saying_what_to_do(
    tmp_path: Path,
    sheets_server: FakeSheets,
    sheets_settings: dict[str, Any],
    sleeps: Sleeps,
    capsys: pytest.CaptureFixture[str],
    refusal: str,
) -> None:
    deployment = make_deployment(tmp_path / "d", sheets_server, sheets_settings, games=1)
    cause, words = REFUSALS[refusal]
    cause(sheets_server)
    line = "game truce-00: " + words.format(key=sheets_settings["credentials_file"])

    code, err = deployment.tick(capsys)
    assert (code, err) == (1, [f"courier: {line}"])
    deployment.tick(capsys, at=NOW.replace(minute=5))  # the organiser's mail goes out

    [told] = deployment.organiser_mail()
    body = told.get_body(("plain",))
    assert body is not None and line in body.get_content() and "<" not in body.get_content()


def _key_file(path: Path, **changes: str) -> Path:
    import json

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    info = json.loads(path.read_text())
    if changes.pop("new_key", ""):
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        info["private_key"] = key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ).decode()
    info.update(changes)
    changed = path.with_name("changed-key.json")
    changed.write_text(json.dumps(info))
    return changed


def test_a_refused_key_reads_invalid_grant_for_the_operator_and_the_organiser(
    tmp_path: Path,
    sheets_server: FakeSheets,
    sheets_settings: dict[str, Any],
    sleeps: Sleeps,
    capsys: pytest.CaptureFixture[str],
) -> None:
    key = _key_file(Path(sheets_settings["credentials_file"]), new_key="yes")
    settings = {**sheets_settings, "credentials_file": str(key)}
    deployment = make_deployment(tmp_path / "d", sheets_server, settings, games=1)
    line = (
        f"game truce-00: Google refused the service-account key {key}: invalid_grant (Invalid JWT"
        " Signature.); the key may have been deleted or disabled, or this machine's clock is wrong"
    )

    assert deployment.tick(capsys) == (1, [f"courier: {line}"])
    deployment.tick(capsys, at=NOW.replace(minute=5))
    [told] = deployment.organiser_mail()
    body = told.get_body(("plain",))
    assert body is not None and line in body.get_content() and "{'error'" not in body.get_content()


def _html_pages(fake: FakeSheets, status: int, count: int, settings: dict[str, Any]) -> dict[str, Any]:
    fake.html_error_next(status, count=count)
    return settings


PASSING: dict[str, tuple[Callable[[FakeSheets, dict[str, Any]], dict[str, Any]], str]] = {
    "HTML 502 page": (
        lambda fake, settings: _html_pages(fake, 502, 4, settings),
        "game truce-00: Google Sheets truce-00: HTTP 502 Bad Gateway (an error page, not an answer of the"
        " Sheets API); gave up after 4 attempts",
    ),
    "token endpoint unreachable": (
        lambda fake, settings: {
            **settings,
            "credentials_file": str(
                _key_file(Path(settings["credentials_file"]), token_uri="http://127.0.0.1:9/token")
            ),
        },
        "game truce-00: Google Sheets truce-00: cannot reach Google's token endpoint"
        " http://127.0.0.1:9/token: [Errno 111] Connection refused; gave up after 4 attempts",
    ),
}


@pytest.mark.parametrize("outage", sorted(PASSING))
def test_a_passing_outage_is_one_short_line_and_no_mail(
    tmp_path: Path,
    sheets_server: FakeSheets,
    sheets_settings: dict[str, Any],
    sleeps: Sleeps,
    capsys: pytest.CaptureFixture[str],
    outage: str,
) -> None:
    cause, line = PASSING[outage]
    settings = cause(sheets_server, {**sheets_settings, "backoff": 1})
    deployment = make_deployment(tmp_path / "d", sheets_server, settings, games=1)

    assert deployment.tick(capsys) == (1, [f"courier: {line}"])
    assert deployment.organiser_mail() == []
    assert deployment.meta()[0] == ["truce-00"]  # first at the next tick
