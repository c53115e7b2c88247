"""The test Sheets server's fault injection, tested over plain HTTP: each fault does what the client
of the real service meets (issue 28), so the client's tests can rely on it."""

from __future__ import annotations

import pytest
import requests

from tests.helpers.sheets_wire import bearer, call, error
from tests.servers.sheets import FakeSheets

KEY = "faulty"
BATCH = {"valueInputOption": "RAW", "data": [{"range": "'Ledger'!A1", "values": [["Alice"]]}]}


@pytest.fixture
def fake(sheets_server: FakeSheets) -> FakeSheets:
    sheets_server.create(KEY, {"Ledger": [["Player"]]})
    return sheets_server


def test_a_lost_answer_is_performed_but_never_answered(fake: FakeSheets) -> None:
    token = bearer(fake)
    fake.lose_answers(1, kind="values:batchUpdate")

    with pytest.raises(requests.ConnectionError):
        call(fake, "POST", f"{KEY}/values:batchUpdate", token=token, json=BATCH)

    assert fake.values(KEY, "Ledger") == [["Alice"]]  # done all the same
    again = call(fake, "POST", f"{KEY}/values:batchUpdate", token=token, json=BATCH)
    assert again.status_code == 200  # one answer lost, not more


def test_a_lost_answer_hits_only_its_kind(fake: FakeSheets) -> None:
    token = bearer(fake)
    fake.lose_answers(1, kind="write")

    assert call(fake, "GET", KEY, token=token).status_code == 200
    with pytest.raises(requests.ConnectionError):
        call(fake, "POST", f"{KEY}/values:batchUpdate", token=token, json=BATCH)


def test_a_lost_answer_can_come_too_late_for_the_client(fake: FakeSheets) -> None:
    token = bearer(fake)
    fake.lose_answers(1, delay=0.5)

    with pytest.raises(requests.Timeout):
        call(fake, "POST", f"{KEY}/values:batchUpdate", token=token, json=BATCH, timeout=0.1)

    assert fake.values(KEY, "Ledger") == [["Alice"]]


def test_a_storm_of_a_count_answers_429_with_googles_quota_error_then_stops(fake: FakeSheets) -> None:
    token = bearer(fake)
    fake.storm(3)

    answers = [call(fake, "GET", KEY, token=token) for _ in range(4)]

    assert [a.status_code for a in answers] == [429, 429, 429, 200]
    refused = error(answers[0])
    assert refused["status"] == "RESOURCE_EXHAUSTED"
    assert refused["message"].startswith(
        "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' "
        "of service 'sheets.googleapis.com'"
    )
    assert refused["details"][0]["reason"] == "RATE_LIMIT_EXCEEDED"


def test_a_storm_of_some_seconds_ends_by_the_servers_clock(fake: FakeSheets) -> None:
    now = [1000.0]
    fake.set_clock(lambda: now[0])
    token = bearer(fake)
    fake.storm(seconds=30)

    assert call(fake, "POST", f"{KEY}/values:batchUpdate", token=token, json=BATCH).status_code == 429
    now[0] += 29
    assert error(call(fake, "GET", KEY, token=token))["status"] == "RESOURCE_EXHAUSTED"
    now[0] += 1
    assert call(fake, "GET", KEY, token=token).status_code == 200
    assert fake.values(KEY, "Ledger") == [["Player"]]  # nothing refused was performed


def test_a_token_without_the_spreadsheets_scope_is_refused_403(fake: FakeSheets) -> None:
    token = bearer(fake)
    fake.missing_scope(keep=["https://www.googleapis.com/auth/spreadsheets.readonly"])

    assert call(fake, "GET", KEY, token=token).status_code == 200  # reads need less
    refused = call(fake, "POST", f"{KEY}/values:batchUpdate", token=token, json=BATCH)

    assert refused.status_code == 403
    assert error(refused)["status"] == "PERMISSION_DENIED"
    assert error(refused)["message"] == "Request had insufficient authentication scopes."
    assert error(refused)["details"][0]["reason"] == "ACCESS_TOKEN_SCOPE_INSUFFICIENT"


def test_an_uploaded_xlsx_is_refused_400_failed_precondition(fake: FakeSheets) -> None:
    fake.as_uploaded_xlsx(KEY)

    refused = call(fake, "GET", KEY)

    assert refused.status_code == 400
    assert error(refused)["status"] == "FAILED_PRECONDITION"
    assert error(refused)["message"] == "This operation is not supported for this document"


@pytest.mark.parametrize("status", [502, 413, 408, 504])
def test_html_error_pages_are_googles_front_end_pages(fake: FakeSheets, status: int) -> None:
    token = bearer(fake)
    fake.html_error_next(status)

    page = call(fake, "POST", f"{KEY}/values:batchUpdate", token=token, json=BATCH)

    assert page.status_code == status
    assert page.headers["Content-Type"].startswith("text/html")
    assert f"<title>Error {status} (" in page.text
    assert "That\u2019s an error." in page.text
    assert len(page.text) > 1500  # what an organiser must not get verbatim
    assert fake.values(KEY, "Ledger") == [["Player"]]
    assert call(fake, "GET", KEY, token=token).status_code == 200  # the next one is served


@pytest.mark.parametrize(
    ("status", "name"), [(500, "INTERNAL"), (503, "UNAVAILABLE"), (504, "DEADLINE_EXCEEDED"), (408, "")]
)
def test_fail_next_answers_in_googles_error_shape(fake: FakeSheets, status: int, name: str) -> None:
    token = bearer(fake)
    fake.fail_next(2, status, kind="metadata")

    assert call(fake, "POST", f"{KEY}/values:batchUpdate", token=token, json=BATCH).status_code == 200
    answers = [call(fake, "GET", KEY, token=token) for _ in range(3)]

    assert [a.status_code for a in answers] == [status, status, 200]
    if name:
        assert error(answers[0])["status"] == name


def test_no_fault_asked_is_none_injected(fake: FakeSheets) -> None:
    token = bearer(fake)
    fake.fail_next(0)
    fake.lose_answers(0)
    fake.html_error_next(502, count=0)

    assert call(fake, "GET", KEY, token=token).status_code == 200
