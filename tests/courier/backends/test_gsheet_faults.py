"""The Google Sheets backend when Google says no or says nothing, over the wire against the test
Sheets server (tests/servers/sheets.py) and its faults: answers lost after the write was done, 408
and HTML error pages, a missing scope, an uploaded .xlsx, a refused or unreachable token endpoint.
Each refusal is one line saying what to do; each write is safe to try again."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from courier.backends.base import TransientError, WorkbookError
from courier.backends.gsheet import GoogleSheet
from courier.backends.sheets_quota import NotReached, SheetsQuota
from tests.conftest import count_fault
from tests.servers.sheets import FakeSheets, Tab

KEY = "1fAuLtSsHeEtKeY0123456789abcdefghijklmnopqr"
CONFIG = [["Key", "Value"], ["game", "truce"]]
PLAYERS = [["Name", "Email"], ["Alice", "alice@example.org"], ["Bob", "bob@example.org"]]
LEDGER: list[list[Any]] = [["Player", "Score"], ["Alice", 3], ["Bob", 1]]
HISTORY: list[list[Any]] = [["Round", "Player", "Score"], [1, "Alice", 3], [1, "Bob", 1]]


class Sleeps(list[float]):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def _sheet(settings: dict[str, Any], **changes: Any) -> tuple[GoogleSheet, Sleeps]:
    sleeps = Sleeps()
    merged = {**settings, "backoff": 1, **changes}
    quota = SheetsQuota(merged, sleep=sleeps, rng=random.Random(28))
    return GoogleSheet(KEY, merged, quota=quota), sleeps


def _new_game(fake: FakeSheets, **tabs: Sequence[Sequence[Any]]) -> None:
    fake.create(KEY, {"Config": CONFIG, "Players": PLAYERS, **tabs})


# --- writes safe to try again ----------------------------------------------------------------------


@pytest.mark.parametrize("delay", [0.0, 0.5], ids=["connection closed", "timed out"])
def test_adding_the_ledger_whose_answer_was_lost_is_done_once(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any], delay: float
) -> None:
    """The batchUpdate that adds Ledger and History is done, its answer lost; the retry is refused
    ('A sheet with the name "Ledger" already exists'), and the sheet read again shows the tabs this
    write made: success, nothing raised, nothing written twice."""
    _new_game(sheets_server)
    sheet, _ = _sheet(sheets_settings, timeout=0.25)
    sheet.read()
    sheets_server.lose_answers(1, kind=":batchUpdate", delay=delay)

    sheet.write_public(ledger=LEDGER, history=HISTORY)

    assert sheets_server.titles(KEY) == ["Config", "Players", "Ledger", "History"]
    assert sheets_server.values(KEY, "Ledger") == LEDGER
    assert sheets_server.values(KEY, "History") == HISTORY
    calls = sheets_server.api_calls()
    assert [c.method for c in calls] == ["GET", "POST", "POST", "GET"]  # read, lost, refused, read again
    count_fault("sheets answer lost")

    sheet.write_public(ledger=[*LEDGER, ["Cleo", 0]], history=HISTORY)  # the next publication: values
    assert sheets_server.values(KEY, "Ledger")[-1] == ["Cleo", 0]
    assert len(sheets_server.api_calls("values:batchUpdate")) == 1


def test_a_values_write_whose_answer_was_lost_is_written_once(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    """RAW values to fixed ranges: the retry writes the same cells again, never a row more."""
    _new_game(sheets_server, Ledger=[["Player"]], History=[["Round"]])
    sheet, _ = _sheet(sheets_settings)
    sheet.read()
    sheets_server.lose_answers(1, kind="values:batchUpdate")

    sheet.write_public(ledger=LEDGER, history=HISTORY)

    assert sheets_server.values(KEY, "Ledger") == LEDGER
    assert sheets_server.values(KEY, "History") == HISTORY
    assert len(sheets_server.api_calls("values:batchUpdate")) == 2
    assert sheets_server.api_calls("values:append") == [] == sheets_server.api_calls(":append")


def test_a_refused_retry_after_a_lost_answer_that_was_not_this_write_waits_for_the_next_tick(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    """Someone made a Ledger tab of their own while the answer was lost: not this write's, so the
    tick leaves it for the next (TransientError: no organiser mail, no failure counted)."""
    _new_game(sheets_server)
    sheet, _ = _sheet(sheets_settings)
    sheet.read()
    sheets_server.fail_next(1, 503, kind=":batchUpdate")  # not done; meanwhile the organiser adds a tab
    sheets_server.spreadsheets[KEY].tabs.append(Tab(4242, "Ledger"))

    with pytest.raises(TransientError, match="answer was lost was refused when tried again"):
        sheet.write_public(ledger=LEDGER, history=HISTORY)


# --- what the organiser reads -----------------------------------------------------------------------


def test_408_is_tried_again(sheets_server: FakeSheets, sheets_settings: dict[str, Any]) -> None:
    _new_game(sheets_server)
    sheet, sleeps = _sheet(sheets_settings)
    sheets_server.html_error_next(408)

    assert sheet.read().config["game"] == "truce"
    assert len(sleeps) == 1 and 1 <= sleeps[0] < 2


def test_an_html_error_page_is_its_status_never_its_page(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    _new_game(sheets_server)
    sheet, _ = _sheet(sheets_settings)
    sheets_server.html_error_next(502, count=4)

    with pytest.raises(TransientError) as caught:
        sheet.read()

    assert str(caught.value) == (
        f"Google Sheets {KEY}: HTTP 502 Bad Gateway (an error page, not an answer of the Sheets API);"
        " gave up after 4 attempts"
    )


def test_a_413_page_is_a_short_refusal(sheets_server: FakeSheets, sheets_settings: dict[str, Any]) -> None:
    _new_game(sheets_server)
    sheet, _ = _sheet(sheets_settings)
    sheet.read()
    sheets_server.html_error_next(413, kind="write")

    with pytest.raises(WorkbookError) as caught:
        sheet.write_public(ledger=LEDGER, history=HISTORY)

    assert str(caught.value) == (
        f"Google Sheets {KEY} refused a request (HTTP 413 Request Entity Too Large (an error page,"
        " not an answer of the Sheets API))"
    )


def test_a_missing_scope_is_not_called_not_shared(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    _new_game(sheets_server)
    sheets_server.missing_scope()  # tokens hold no scope the Sheets API takes

    with pytest.raises(WorkbookError) as caught:
        _sheet(sheets_settings)[0].read()

    assert str(caught.value) == (
        f"the credentials in {sheets_settings['credentials_file']} lack the spreadsheets scope"
        " (https://www.googleapis.com/auth/spreadsheets): Google refused them for the sheet; use a"
        " service-account key, or grant that scope"
    )
    assert "shared" not in str(caught.value)


def test_an_uploaded_xlsx_says_convert_it(sheets_server: FakeSheets, sheets_settings: dict[str, Any]) -> None:
    _new_game(sheets_server)
    sheets_server.as_uploaded_xlsx(KEY)

    with pytest.raises(WorkbookError, match=r"File → Save as Google Sheets") as caught:
        _sheet(sheets_settings)[0].read()

    assert str(caught.value).startswith(f"the sheet {KEY} is an uploaded Excel file")
    assert len(sheets_server.api_calls()) == 1  # a refusal is not tried again


def _other_key(path: Path, **changes: str) -> Path:
    """The key file at ``path`` with ``changes``: another private key, another token_uri."""
    info = json.loads(path.read_text())
    if changes.pop("new_key", ""):
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        pem = key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        info["private_key"] = pem.decode()
    info.update(changes)
    changed = path.with_name("changed-key.json")
    changed.write_text(json.dumps(info))
    return changed


def test_a_refused_key_says_invalid_grant_not_a_tuple(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    _new_game(sheets_server)
    key = _other_key(Path(sheets_settings["credentials_file"]), new_key="yes")

    with pytest.raises(WorkbookError) as caught:
        _sheet(sheets_settings, credentials_file=str(key))[0].read()

    assert str(caught.value) == (
        f"Google refused the service-account key {key}: invalid_grant (Invalid JWT Signature.); the key"
        " may have been deleted or disabled, or this machine's clock is wrong"
    )


def test_an_unreachable_token_endpoint_is_named(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    _new_game(sheets_server)
    key = _other_key(Path(sheets_settings["credentials_file"]), token_uri="http://127.0.0.1:9/token")

    with pytest.raises(TransientError) as caught:
        _sheet(sheets_settings, credentials_file=str(key), retries=1)[0].read()

    assert str(caught.value).startswith(
        f"Google Sheets {KEY}: cannot reach Google's token endpoint http://127.0.0.1:9/token: "
    )
    assert "Connection refused" in str(caught.value) and "gave up after 2 attempts" in str(caught.value)
    assert sheets_server.api_calls() == []


# --- one quota for every sheet of a tick -------------------------------------------------------------


class Clock:
    """One clock for the client's quota and the server's minute: a sleep moves it on."""

    def __init__(self) -> None:
        self.at = time.time()  # near real time: google-auth signs its JWT by the real clock
        self.slept: list[float] = []

    def now(self) -> float:
        return self.at

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.at += seconds


def test_twelve_sheets_read_within_googles_minute_never_meet_a_429(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    """Google's limit scaled down to 6 reads a minute, Courier's share of it 5: twelve games' sheets
    are read 5, then 5 a minute later, then 2, and the server never answers 429."""
    clock = Clock()
    sheets_server.set_clock(clock.now)
    sheets_server.set_quota(reads=6, writes=6)
    settings = {**sheets_settings, "reads_per_minute": 5, "wait": 600}
    quota = SheetsQuota(settings, sleep=clock.sleep, clock=clock.now)
    keys = [f"{KEY[:-2]}{n:02d}" for n in range(12)]
    for key in keys:
        sheets_server.create(key, {"Config": CONFIG, "Players": PLAYERS})

    for key in keys:
        assert GoogleSheet(key, settings, quota=quota).read().config["game"] == "truce"

    assert len(sheets_server.api_calls()) == 12  # none refused, none sent twice
    assert clock.slept == [pytest.approx(60), pytest.approx(60)] and quota.waited == pytest.approx(120)


def test_reads_that_used_up_their_quota_leave_the_writes_theirs(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    """Two reads a minute and no waiting: the third game is not reached, and the games read are
    still published (writes count against their own minute)."""
    settings = {**sheets_settings, "reads_per_minute": 2, "wait": 0}
    quota = SheetsQuota(settings, sleep=Sleeps())
    keys = [f"{KEY[:-2]}{n:02d}" for n in range(3)]
    for key in keys:
        sheets_server.create(
            key, {"Config": CONFIG, "Players": PLAYERS, "Ledger": [["x"]], "History": [["y"]]}
        )
    sheets = [GoogleSheet(key, settings, quota=quota) for key in keys]
    sheets[0].read(), sheets[1].read()

    with pytest.raises(NotReached, match="the quota of 2 reads a minute is used up"):
        sheets[2].read()
    sheets[0].write_public(ledger=LEDGER, history=HISTORY)

    assert sheets_server.values(keys[0], "Ledger") == LEDGER
    assert [c.method for c in sheets_server.api_calls()] == ["GET", "GET", "POST"]
