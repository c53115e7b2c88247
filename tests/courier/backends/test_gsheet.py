"""The Google Sheets backend, over the wire through gspread and google-auth against a local fake of the
Sheets API (tests/servers/sheets.py): what it reads, what arrives in the sheet, and what it costs."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import gspread
import pytest
from freezegun import freeze_time
from google.oauth2 import service_account

from courier.backends.base import FormResponse, TransientError, WorkbookError
from courier.backends.gsheet import GoogleSheet
from tests.conftest import count_fault
from tests.servers.sheets import SERVICE_ACCOUNT, FakeSheets, Formatted, Formula

KEY = "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms"
BERLIN = ZoneInfo("Europe/Berlin")
# Serial 46349.58680555556 is 2026-11-23 14:05:00 and 46204.395833333336 is 2026-07-01 09:30:00.
NOVEMBER, JULY = 46349.58680555556, 46204.395833333336


def _game(**extra: Sequence[Sequence[Any]]) -> dict[str, Sequence[Sequence[Any]]]:
    return {
        "Config": [
            ["Key", "Value", "Note"],
            ["game", "truce"],
            ["rounds", 12],
            ["", "ignored"],
            ["Fee", 3.5],
        ],
        "Players": [
            ["Secret", "Email", "Name"],
            ["01067", " Alice@Example.ORG ", "Alice"],
            [],
            [4711, "bob@example.org", "Bob"],
        ],
        **extra,
    }


class Sleeps(list[float]):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)

    def doubling(self, *base: float) -> bool:
        """Slept ``base[n]`` plus a random part of ``base[0]`` each time, and not all alike."""
        jitter = [slept - wanted for slept, wanted in zip(self, base, strict=False)]
        return len(self) >= len(base) and all(0 <= j < base[0] for j in jitter) and len(set(jitter)) > 1


# --- reading -----------------------------------------------------------------------------------

LOCALISED_FORMS = {
    "English": ("Form Responses 1", ["Timestamp", "Email Address", "Game", "Orders", "Secret"]),
    "German": ("Formularantworten 1", ["Zeitstempel", "E-Mail-Adresse", "Game", "Orders", "Secret"]),
    "French": ("Réponses au formulaire 1", ["Horodateur", "Adresse e-mail", "Game", "Orders", "Secret"]),
    "Spanish": (
        "Respuestas de formulario 1",
        ["Marca temporal", "Dirección de correo electrónico", "Game", "Orders", "Secret"],
    ),
}


@pytest.mark.parametrize("language", LOCALISED_FORMS)
def test_reads_config_players_and_localised_form_responses(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any], language: str
) -> None:
    title, headers = LOCALISED_FORMS[language]
    order = [3, 0, 4, 1, 2]  # columns shuffled: matching is by title
    row: list[Any] = [NOVEMBER, "Alice@Example.org", "truce-1", "give 2 to bob", "01067"]
    form = [[headers[i] for i in order], [row[i] for i in order]]
    sheets_server.create(KEY, _game(**{title: form}), time_zone="Europe/Berlin")

    snapshot = GoogleSheet(KEY, sheets_settings).read()

    assert snapshot.config == {"game": "truce", "rounds": "12", "fee": "3.5"}
    assert snapshot.config_cells == {"game": "Config!B2", "rounds": "Config!B3", "fee": "Config!B5"}
    assert snapshot.players == [
        {"name": "Alice", "email": "alice@example.org", "nickname": "", "role": "", "secret": "01067"},
        {"name": "Bob", "email": "bob@example.org", "nickname": "", "role": "", "secret": "4711"},
    ]
    assert snapshot.player_rows == [2, 4]
    assert snapshot.responses == [
        FormResponse(
            timestamp=datetime(2026, 11, 23, 14, 5, tzinfo=BERLIN),
            email="alice@example.org",
            game="truce-1",
            orders="give 2 to bob",
            secret="01067",
        )
    ]


@pytest.mark.parametrize(
    ("zone", "serial", "expected"),
    [
        ("Europe/Berlin", NOVEMBER, datetime(2026, 11, 23, 13, 5, tzinfo=UTC)),  # UTC+1 in winter
        ("Europe/Berlin", JULY, datetime(2026, 7, 1, 7, 30, tzinfo=UTC)),  # UTC+2 in summer
        ("America/New_York", NOVEMBER, datetime(2026, 11, 23, 19, 5, tzinfo=UTC)),
    ],
)
def test_form_timestamps_are_serials_in_the_spreadsheets_time_zone(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any], zone: str, serial: float, expected: datetime
) -> None:
    form: list[list[Any]] = [["Timestamp", "Orders (one per line)"], [serial, "pass"]]
    sheets_server.create(KEY, _game(**{"Form Responses 1": form}), time_zone=zone)

    [response] = GoogleSheet(KEY, sheets_settings).read().responses

    assert response.timestamp == expected
    assert response.timestamp.utcoffset() is not None


def test_cells_read_as_the_organiser_sees_them(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    """Sheets turns a typed 20:00 into a time (the day fraction 0.8333...) and keeps the zeros of a
    number formatted 00000 only in its display: both are read as displayed."""
    tabs = _game()
    tabs["Config"] = [
        *tabs["Config"],
        ["deadlines", Formatted(20 / 24, "20:00")],
        ["start", Formatted(46357, "2026-12-01")],
    ]
    tabs["Players"] = [["Name", "Email", "Secret"], ["Alice", "alice@example.org", Formatted(1067, "01067")]]
    sheets_server.create(KEY, tabs)

    snapshot = GoogleSheet(KEY, sheets_settings).read()

    assert snapshot.config["deadlines"] == "20:00"
    assert snapshot.config["start"] == "2026-12-01"
    assert snapshot.config["rounds"] == "12"
    assert snapshot.players[0]["secret"] == "01067"


def test_form_timestamps_come_from_the_serial_whatever_the_display(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    """A US-locale display of 3 November would read as 11 March elsewhere; the serial beneath is exact."""
    serial = 46329.58680555556  # 2026-11-03 14:05:00
    form: list[list[Any]] = [["Timestamp", "Orders"], [Formatted(serial, "11/3/2026 14:05:00"), "pass"]]
    sheets_server.create(KEY, _game(**{"Form Responses 1": form}), time_zone="America/New_York")

    [response] = GoogleSheet(KEY, sheets_settings).read().responses

    assert response.timestamp == datetime(2026, 11, 3, 19, 5, tzinfo=UTC)  # EST, UTC-5


def test_a_read_is_one_request(sheets_server: FakeSheets, sheets_settings: dict[str, Any]) -> None:
    form: list[list[Any]] = [["Timestamp", "Orders"], [NOVEMBER, "pass"]]
    sheets_server.create(KEY, _game(**{"Form Responses 1": form, "Ledger": [["x"]], "Notes": [["y"]]}))
    sheet = GoogleSheet(KEY, sheets_settings)

    sheet.read()
    sheet.read()
    GoogleSheet(KEY, sheets_settings).read()

    calls = sheets_server.api_calls()
    assert len(calls) == 3
    assert all(call.method == "GET" and call.path == f"/v4/spreadsheets/{KEY}" for call in calls)
    [fields] = calls[0].query["fields"]
    for wanted in ("timeZone", "gridProperties", "formattedValue", "effectiveValue"):
        assert wanted in fields
    assert "ranges" not in calls[0].query  # naming a tab that is missing would fail the whole read


def test_a_missing_players_tab_says_what_to_do(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    sheets_server.create(KEY, {"Config": [["Key", "Value"]]})

    with pytest.raises(WorkbookError, match=f"^the sheet {KEY} has no Players tab; run `courier init`$"):
        GoogleSheet(KEY, sheets_settings).read()


# --- publishing --------------------------------------------------------------------------------


def test_write_public_is_one_raw_batch_update_and_values_stay_literal(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    wide = ["o" * 40] * 3  # text as wide as the new: the columns' widths stay (test_gsheet_widths.py)
    sheets_server.create(KEY, _game(Ledger=[wide], History=[["old"]]), time_zone="Europe/Berlin")
    sheet = GoogleSheet(KEY, sheets_settings)
    sheet.read()
    ledger: list[list[Any]] = [
        ["Player", "Coins", "Note"],
        ['=IMPORTXML("http://x")', 3, "+1"],
        ["01067", 2.5, "#N/A"],
        ["Carol", None, datetime(2026, 11, 23, 13, 5, tzinfo=UTC)],
    ]

    sheet.write_public(ledger=ledger, history=[["Round", "Event"], [1, "=1+1"]])

    [write] = sheets_server.api_calls("values:batchUpdate")
    assert write.body["valueInputOption"] == "RAW"
    assert len(sheets_server.api_calls()) == 2  # one read, one write
    assert sheets_server.values(KEY, "Ledger") == [
        ["Player", "Coins", "Note"],
        ['=IMPORTXML("http://x")', 3, "+1"],  # text, not a Formula
        ["01067", 2.5, "#N/A"],
        ["Carol", "", "2026-11-23 14:05"],  # Berlin wall time, as text
    ]
    assert sheets_server.values(KEY, "History") == [["Round", "Event"], [1, "=1+1"]]
    assert not any(
        isinstance(v, Formula) for tab in sheets_server.spreadsheets[KEY].tabs for v in tab.cells.values()
    )


def test_the_fake_would_have_made_formulas_of_user_entered_text(
    sheets_server: FakeSheets, sheets_credentials: Path
) -> None:
    """The check above means something: the same text typed (USER_ENTERED) becomes a formula."""
    sheets_server.create(KEY, {"Ledger": []})
    credentials = service_account.Credentials.from_service_account_file(str(sheets_credentials))  # type: ignore[no-untyped-call]
    client = gspread.Client(auth=credentials.with_scopes(["https://www.googleapis.com/auth/spreadsheets"]))
    client.http_client.session = _local_session(client.http_client.session, sheets_server.url)

    client.http_client.values_update(
        KEY, "'Ledger'!A1", params={"valueInputOption": "USER_ENTERED"}, body={"values": [["=1+1", "01067"]]}
    )

    assert sheets_server.values(KEY, "Ledger") == [[Formula("=1+1"), 1067]]


def _local_session(session: Any, base: str) -> Any:
    original = session.request

    def request(method: str, url: str, *args: Any, **kwargs: Any) -> Any:
        return original(method, url.replace("https://sheets.googleapis.com", base), *args, **kwargs)

    session.request = request
    return session


def test_shrinking_the_ledger_leaves_no_stale_cells(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    sheets_server.create(KEY, _game())
    GoogleSheet(KEY, sheets_settings).write_public(
        ledger=[["Player", "Coins", "Seat", "Note"], *[[f"p{i}", i, i, "x"] for i in range(9)]],
        history=[["Round"], *[[r] for r in range(20)]],
    )
    next_tick = GoogleSheet(KEY, sheets_settings)
    next_tick.read()

    next_tick.write_public(ledger=[["Player", "Coins"], ["p1", 4]], history=[["Round"], [1]])
    assert sheets_server.values(KEY, "Ledger") == [["Player", "Coins"], ["p1", 4]]
    assert sheets_server.values(KEY, "History") == [["Round"], [1]]

    next_tick.write_public(ledger=[["Player"]], history=[["Round"]])  # same object: it knows the extent
    assert sheets_server.values(KEY, "Ledger") == [["Player"]]
    # The first write also made the tabs: one spreadsheets.batchUpdate; the two after it, values.
    assert len(sheets_server.api_calls(":batchUpdate")) == 1
    assert len(sheets_server.api_calls("values:batchUpdate")) == 2


def test_publishing_without_a_read_first_reads_the_old_extent(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    sheets_server.create(KEY, _game(Ledger=[["a", "b", "c"], ["1", "2", "3"]], History=[["Round"], [1], [2]]))

    GoogleSheet(KEY, sheets_settings).write_public(ledger=[["z"]], history=[["Round"]])

    assert sheets_server.values(KEY, "Ledger") == [["z"]]
    assert sheets_server.values(KEY, "History") == [["Round"]]
    assert [
        len(sheets_server.api_calls(k)) for k in ("metadata", "values:batchGet", "values:batchUpdate")
    ] == [1, 0, 1]


def test_missing_public_tabs_are_added_and_written_in_one_request(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    """The first publication on a sheet without Ledger and History is still one write (quota):
    the tabs are added and their cells set in one spreadsheets.batchUpdate, values kept literal."""
    sheets_server.create(KEY, _game())
    sheet = GoogleSheet(KEY, sheets_settings)

    sheet.write_public(
        ledger=[["Player", "Coins", "Note"], ["Alice", 3, "=1+1"], ["01067", 2.5, True]],
        history=[["Round"]],
    )

    assert sheets_server.titles(KEY) == ["Config", "Players", "Ledger", "History"]
    [write] = sheets_server.api_calls(":batchUpdate")
    kinds = [next(iter(r)) for r in write.body["requests"]]
    assert kinds == ["addSheet", "addSheet", "updateCells", "updateCells"]
    assert sheets_server.values(KEY, "Ledger") == [
        ["Player", "Coins", "Note"],
        ["Alice", 3, "=1+1"],  # text, not a Formula
        ["01067", 2.5, True],
    ]
    assert sheets_server.values(KEY, "History") == [["Round"]]
    assert len(sheets_server.api_calls()) == 2  # the read, one write


def test_a_history_longer_than_the_grid_grows_it_first(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    sheets_server.create(KEY, _game(Ledger=[["Player"]], History=[["Round"]]))
    history: list[list[Any]] = [["Round", "Event"], *[[r, f"event {r}"] for r in range(1500)]]

    GoogleSheet(KEY, sheets_settings).write_public(ledger=[["Player"]], history=history)

    assert len(sheets_server.values(KEY, "History")) == 1501
    [grow] = sheets_server.api_calls(":batchUpdate")  # grown and written in one request
    assert grow.body["requests"][0]["appendDimension"]["length"] == 501
    assert sheets_server.api_calls("values:batchUpdate") == []
    assert len(sheets_server.api_calls()) == 2  # the read, one write


# --- failures ----------------------------------------------------------------------------------


def test_rate_limits_are_retried_with_growing_pauses(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    sheets_server.create(KEY, _game())
    sleeps = Sleeps()
    sheet = GoogleSheet(KEY, {**sheets_settings, "backoff": 1}, sleep=sleeps)
    sheets_server.fail_next(2, 429)

    assert sheet.read().config["game"] == "truce"

    assert sleeps.doubling(1, 2)  # Google's way: 2ⁿ s and a random part of a second
    assert len(sheets_server.api_calls()) == 3  # two refused, then the read
    count_fault("sheets rate limit")


def test_a_server_that_keeps_failing_gives_up_after_bounded_retries_and_writes_nothing(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    sheets_server.create(KEY, _game(Ledger=[["Player"], ["Alice"]], History=[["Round"], [1]]))
    sleeps = Sleeps()
    sheet = GoogleSheet(KEY, {**sheets_settings, "backoff": 1, "retries": 3}, sleep=sleeps)
    sheet.read()
    before = len(sheets_server.api_calls())
    sheets_server.fail_next(100, 500)

    with pytest.raises(TransientError, match=f"^Google Sheets {KEY}: HTTP 500 .*gave up after 4 attempts$"):
        sheet.write_public(ledger=[["Player"], ["Bob"]], history=[["Round"], [2]])

    assert sleeps.doubling(1, 2, 4)
    assert len(sheets_server.api_calls()) - before == 4
    assert sheets_server.values(KEY, "Ledger") == [["Player"], ["Alice"]]
    assert sheets_server.values(KEY, "History") == [["Round"], [1]]
    count_fault("sheets server failing")


def test_backoff_is_capped(sheets_server: FakeSheets, sheets_settings: dict[str, Any]) -> None:
    sheets_server.create(KEY, _game())
    sleeps = Sleeps()
    sheets_server.fail_next(100, 503)

    settings = {**sheets_settings, "backoff": 10, "retries": 5, "wait": 1000}
    with pytest.raises(TransientError):
        GoogleSheet(KEY, settings, sleep=sleeps).read()

    assert sleeps.doubling(10, 20) and sleeps[2:] == [32, 32, 32]  # Google's maximum backoff


def test_an_unreachable_server_is_transient(sheets_settings: dict[str, Any]) -> None:
    settings = {**sheets_settings, "api_base": "http://127.0.0.1:9", "retries": 1}

    with pytest.raises(TransientError, match="cannot reach Google Sheets"):
        GoogleSheet(KEY, settings, sleep=Sleeps()).read()


def test_a_sheet_not_shared_with_the_account_says_so(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    sheets_server.create(KEY, _game()).forbidden = True

    with pytest.raises(WorkbookError) as caught:
        GoogleSheet(KEY, sheets_settings).read()

    assert str(caught.value) == (
        f"the sheet {KEY} is not shared with the service account {SERVICE_ACCOUNT}; "
        "share it with that address as an editor"
    )
    assert len(sheets_server.api_calls()) == 1  # refusals are not retried


def test_an_unknown_sheet_says_so(sheets_server: FakeSheets, sheets_settings: dict[str, Any]) -> None:
    with pytest.raises(WorkbookError, match=r"^no spreadsheet nope; check the sheet key in the config$"):
        GoogleSheet("nope", sheets_settings).read()


@pytest.mark.parametrize("content", [None, "not json", json.dumps({"type": "service_account"})])
def test_an_unusable_key_file_is_named(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "key.json"
    if content is not None:
        path.write_text(content)

    with pytest.raises(WorkbookError, match=str(path)):
        GoogleSheet(KEY, {"credentials_file": str(path)})


def test_without_any_key_the_settings_to_use_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COURIER_SHEETS_CREDENTIALS", raising=False)
    monkeypatch.delenv("GOOGLE_APPLICATION_CREDENTIALS", raising=False)

    with pytest.raises(WorkbookError, match=r"credentials_file.*COURIER_SHEETS_CREDENTIALS"):
        GoogleSheet(KEY, {})


def test_the_key_file_may_come_from_the_environment(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    sheets_server.create(KEY, _game())
    monkeypatch.setenv("COURIER_SHEETS_CREDENTIALS", sheets_settings.pop("credentials_file"))

    assert GoogleSheet(KEY, sheets_settings).read().config["game"] == "truce"


# --- tokens ------------------------------------------------------------------------------------


def test_one_token_serves_every_request_until_it_expires(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    sheets_server.create(KEY, _game())
    with freeze_time("2026-11-23 12:00:00", real_asyncio=True) as clock:
        for _ in range(2):  # two games of one tick share the key file and so the token
            sheet = GoogleSheet(KEY, sheets_settings)
            sheet.read()
            sheet.write_public(ledger=[["Player"]], history=[["Round"]])
        assert len(sheets_server.tokens) == 1

        clock.tick(timedelta(minutes=55))  # tokens last an hour (the fake's expires_in=3600)
        GoogleSheet(KEY, sheets_settings).read()
        assert len(sheets_server.tokens) == 1

        clock.tick(timedelta(minutes=2))  # google-auth renews 3¾ minutes before expiry
        GoogleSheet(KEY, sheets_settings).read()

    assert len(sheets_server.tokens) == 2
    assert len([r for r in sheets_server.requests if r.path == "/token"]) == 2


# --- init --------------------------------------------------------------------------------------


def test_init_creates_every_tab_and_is_idempotent(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    sheets_server.create(KEY, {"Sheet1": []})

    GoogleSheet(KEY, sheets_settings).init(game="truce")

    assert sheets_server.titles(KEY) == [
        "Sheet1",
        "Config",
        "Players",
        "Form Responses 1",
        "Ledger",
        "History",
    ]
    config = sheets_server.values(KEY, "Config")
    assert config[0] == ["Key", "Value", "Note"]
    assert [row[:2] for row in config[1:]] == [
        ["game", "truce"],
        ["rounds", 10],
        ["timezone", "UTC"],
        ["deadlines", "20:00"],
        ["reminders", "12h, 1h"],
        ["early_resolution", "no"],
    ]
    assert sheets_server.values(KEY, "Form Responses 1") == [
        ["Timestamp", "Email Address", "Game", "Orders", "Secret"]
    ]
    snapshot = GoogleSheet(KEY, sheets_settings).read()
    assert snapshot.config["rounds"] == "10"
    assert len(snapshot.players) == 3

    sheets_server.spreadsheets[KEY].tab("Players").cells[(1, 0)] = "Carol"
    writes = len(sheets_server.api_calls("values:batchUpdate")) + len(sheets_server.api_calls(":batchUpdate"))
    GoogleSheet(KEY, sheets_settings).init(game="monarchs")

    assert (
        len(sheets_server.api_calls("values:batchUpdate")) + len(sheets_server.api_calls(":batchUpdate"))
        == writes
    )
    assert sheets_server.values(KEY, "Config")[1][:2] == ["game", "truce"]
    assert sheets_server.values(KEY, "Players")[1][0] == "Carol"


def test_init_fills_only_missing_or_blank_tabs(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    tabs = _game(**{"Formularantworten 1": [["Zeitstempel", "Orders"]], "Ledger": []})
    sheets_server.create(KEY, tabs)

    GoogleSheet(KEY, sheets_settings).init(game="truce")

    assert sheets_server.titles(KEY) == ["Config", "Players", "Formularantworten 1", "Ledger", "History"]
    assert sheets_server.values(KEY, "Players") == [list(row) for row in tabs["Players"]]
    assert sheets_server.values(KEY, "Ledger") == [["Round", "Player"]]


def test_courier_init_sheet_adds_the_tabs(
    tmp_path: Path, sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    from courier.tools.cli import main

    sheets_server.create("fresh", {"Sheet1": []})
    config = tmp_path / "courier.toml"
    table = "\n".join(
        f'{k} = "{v}"' if isinstance(v, str) else f"{k} = {v}" for k, v in sheets_settings.items()
    )
    config.write_text(f'from = "c@x.test"\norganiser = "o@x.test"\n\n[sheets]\n{table}\n', encoding="utf-8")
    assert main(["init", "--sheet", "fresh", "--config", str(config)]) == 0
    titles = sheets_server.titles("fresh")
    for tab in ("Config", "Players", "Form Responses 1", "Ledger", "History"):
        assert tab in titles
    assert sheets_server.values("fresh", "Config")[0][:2] == ["Key", "Value"]


def test_update_players_sets_only_the_cells_that_differ(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    """A substitute shown in the seat's row: the address and secret change, a missing column is skipped."""
    sheets_server.create(KEY, _game(), time_zone="Europe/Berlin")
    sheet = GoogleSheet(KEY, sheets_settings)
    sheet.update_players({"Bob": {"email": "emmett@example.org", "secret": "", "nickname": "Emmett"}})
    [write] = sheets_server.api_calls("values:batchUpdate")
    assert write.body["valueInputOption"] == "RAW"
    assert sheets_server.values(KEY, "Players")[3] == ["", "emmett@example.org", "Bob"]
    assert sheets_server.values(KEY, "Players")[1] == ["01067", " Alice@Example.ORG ", "Alice"]
    sheet.update_players({"Bob": {"email": "emmett@example.org", "secret": ""}})
    assert len(sheets_server.api_calls("values:batchUpdate")) == 1  # nothing differs: no write


def test_a_substitute_on_the_players_tab_goes_with_the_ledger_in_one_write(
    sheets_server: FakeSheets, sheets_settings: dict[str, Any]
) -> None:
    """The tick's read already holds the Players tab: no second read to find the row, one write."""
    sheets_server.create(KEY, _game(Ledger=[["Player"]], History=[["Round"]]))
    sheet = GoogleSheet(KEY, sheets_settings)
    sheet.read()

    sheet.write_public(
        ledger=[["Player"], ["Bob"]],
        history=[["Round"]],
        players={"Bob": {"email": "emmett@example.org", "secret": ""}},
    )

    assert [c.method for c in sheets_server.api_calls()] == ["GET", "POST"]  # one read, one write
    assert sheets_server.values(KEY, "Players")[3] == ["", "emmett@example.org", "Bob"]
    assert sheets_server.values(KEY, "Ledger") == [["Player"], ["Bob"]]
    sheet.update_players({"Bob": {"email": "emmett@example.org", "secret": ""}})
    assert len(sheets_server.api_calls()) == 2  # what was just written is known: nothing to do
