"""The test Sheets server refuses what Google refuses (issue 28), tested over plain HTTP so the
server itself is under test: Google's discovery document decides which methods, parameters, fields
and enum values exist; Google's limits, error shapes and quota apply. The token endpoint is in
test_sheets_server_oauth.py, the faults in test_sheets_server_faults.py."""

from __future__ import annotations

from typing import Any

import pytest
import requests

from courier.backends.gsheet import READ_FIELDS
from tests.helpers.sheets_wire import bearer, call, error
from tests.servers.sheets import FakeSheets

KEY = "strict"
LEDGER_ID = 7  # the first tab's sheetId as FakeSheets.create numbers them


@pytest.fixture
def fake(sheets_server: FakeSheets) -> FakeSheets:
    sheets_server.create(KEY, {"Ledger": [["Player"], ["Alice"]]})
    return sheets_server


@pytest.fixture
def token(fake: FakeSheets) -> str:
    return bearer(fake)


def batch(fake: FakeSheets, token: str, *requests: dict[str, Any]) -> Any:
    return call(fake, "POST", f"{KEY}:batchUpdate", token=token, json={"requests": list(requests)})


def values_batch(fake: FakeSheets, token: str, body: dict[str, Any]) -> Any:
    return call(fake, "POST", f"{KEY}/values:batchUpdate", token=token, json=body)


def refused(answer: Any, message: str, status: str = "INVALID_ARGUMENT") -> dict[str, Any]:
    """Assert a 4xx in Google's JSON shape saying ``message``."""
    found = error(answer)
    assert (found["status"], found["message"]) == (status, message)
    return found


# --- methods and paths ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("DELETE", KEY),  # no such method in the API
        ("POST", KEY),  # spreadsheets.get is a GET
        ("GET", f"{KEY}:batchUpdate"),
        ("POST", f"{KEY}/values/A1"),  # values.update is a PUT, append is ...:append
        ("PUT", f"{KEY}/values:batchUpdate"),
        ("GET", f"{KEY}/nowhere"),
    ],
)
def test_a_method_or_path_google_does_not_have_is_an_html_404(
    fake: FakeSheets, token: str, method: str, path: str
) -> None:
    answer = call(fake, method, path, token=token)

    assert answer.status_code == 404
    assert answer.headers["Content-Type"].startswith("text/html")
    assert "<title>Error 404 (Not Found)!!1</title>" in answer.text
    assert fake.values(KEY, "Ledger") == [["Player"], ["Alice"]]


def test_a_method_google_has_but_the_server_does_not_implement_says_so(fake: FakeSheets, token: str) -> None:
    answer = call(fake, "POST", f"{KEY}/values:batchGetByDataFilter", token=token, json={})

    assert answer.status_code == 501
    assert "does not implement sheets.spreadsheets.values.batchGetByDataFilter" in error(answer)["message"]


# --- query parameters -------------------------------------------------------------------------------


def test_an_unknown_query_parameter_is_refused(fake: FakeSheets, token: str) -> None:
    answer = call(fake, "GET", KEY, token=token, params={"includeGridDta": "true"})

    assert answer.status_code == 400
    refused(
        answer,
        'Invalid JSON payload received. Unknown name "includeGridDta": Cannot bind query parameter. '
        "Field 'includeGridDta' could not be found in request message.",
    )


def test_a_parameter_of_another_method_is_unknown_here(fake: FakeSheets, token: str) -> None:
    answer = call(fake, "GET", KEY, token=token, params={"valueRenderOption": "FORMULA"})

    assert "Cannot bind query parameter" in error(answer)["message"]


@pytest.mark.parametrize(
    ("method", "path", "parameter", "proto"),
    [
        ("GET", "values/Ledger", "valueRenderOption", "ValueRenderOption"),
        ("GET", "values/Ledger", "dateTimeRenderOption", "DateTimeRenderOption"),
        ("GET", "values/Ledger", "majorDimension", "Dimension"),
        ("GET", "values:batchGet", "valueRenderOption", "ValueRenderOption"),
        ("PUT", "values/Ledger!A3", "valueInputOption", "ValueInputOption"),
        ("PUT", "values/Ledger!A3", "responseValueRenderOption", "ValueRenderOption"),
        ("POST", "values/Ledger:append", "insertDataOption", "InsertDataOption"),
        ("POST", "values/Ledger:append", "responseDateTimeRenderOption", "DateTimeRenderOption"),
    ],
)
def test_an_enum_parameter_takes_only_googles_values(
    fake: FakeSheets, token: str, method: str, path: str, parameter: str, proto: str
) -> None:
    body = {"values": [["Bob"]]} if method != "GET" else None
    params = ({"valueInputOption": "RAW"} if method != "GET" else {}) | {parameter: "FORMATTED"}

    answer = call(fake, method, f"{KEY}/{path}", token=token, params=params, json=body)

    assert answer.status_code == 400
    field = {"valueRenderOption": "value_render_option"}.get(parameter, "")
    message = error(answer)["message"]
    assert message.startswith("Invalid value at '")
    assert message.endswith(f'(type.googleapis.com/google.apps.sheets.v4.{proto}), "FORMATTED"')
    assert field in message
    assert fake.values(KEY, "Ledger") == [["Player"], ["Alice"]]


def test_a_boolean_parameter_takes_true_or_false(fake: FakeSheets, token: str) -> None:
    answer = call(fake, "GET", KEY, token=token, params={"includeGridData": "yes"})

    refused(answer, "Invalid value at 'include_grid_data' (TYPE_BOOL), \"yes\"")


def test_values_update_needs_a_value_input_option(fake: FakeSheets, token: str) -> None:
    answer = call(fake, "PUT", f"{KEY}/values/Ledger!A3", token=token, json={"values": [["Bob"]]})

    refused(answer, "'valueInputOption' is required but not specified")


def test_valid_parameters_are_served(fake: FakeSheets, token: str) -> None:
    params = {"valueRenderOption": "UNFORMATTED_VALUE", "dateTimeRenderOption": "SERIAL_NUMBER"}

    answer = call(
        fake, "GET", f"{KEY}/values/Ledger", token=token, params={**params, "majorDimension": "COLUMNS"}
    )

    assert answer.status_code == 200
    assert answer.json()["values"] == [["Player", "Alice"]]


# --- request bodies ---------------------------------------------------------------------------------


def test_an_unknown_field_in_a_request_is_refused_with_googles_words(fake: FakeSheets, token: str) -> None:
    answer = batch(fake, token, {"addSheet": {}, "x": 1})

    found = refused(
        answer, "Invalid JSON payload received. Unknown name \"x\" at 'requests[0]': Cannot find field."
    )
    assert found["details"][0]["@type"] == "type.googleapis.com/google.rpc.BadRequest"
    assert found["details"][0]["fieldViolations"][0]["field"] == "requests[0]"
    assert fake.titles(KEY) == ["Ledger"]


def test_an_unknown_field_deep_down_names_its_place_in_snake_case(fake: FakeSheets, token: str) -> None:
    answer = batch(fake, token, {"addSheet": {"properties": {"title": "New", "sheetID": 3}}})

    refused(
        answer,
        "Invalid JSON payload received. Unknown name \"sheetID\" at 'requests[0].add_sheet.properties': "
        "Cannot find field.",
    )


def test_an_unknown_top_level_field_is_refused(fake: FakeSheets, token: str) -> None:
    answer = values_batch(fake, token, {"valueInputOption": "RAW", "data": [], "valueInputOptions": "RAW"})

    refused(answer, 'Invalid JSON payload received. Unknown name "valueInputOptions": Cannot find field.')


def test_a_request_with_two_kinds_is_refused(fake: FakeSheets, token: str) -> None:
    grow = {"sheetId": LEDGER_ID, "dimension": "ROWS", "length": 5}
    answer = batch(fake, token, {"addSheet": {"properties": {"title": "New"}}, "appendDimension": grow})

    refused(
        answer,
        "Invalid value at 'requests[0]' (oneof), oneof field 'kind' is already set. "
        "Cannot set 'appendDimension'",
    )
    assert fake.titles(KEY) == ["Ledger"]


def test_a_cell_with_two_values_is_refused(fake: FakeSheets, token: str) -> None:
    cell = {"userEnteredValue": {"stringValue": "a", "numberValue": 1}}
    start = {"sheetId": LEDGER_ID}
    update = {"start": start, "rows": [{"values": [cell]}], "fields": "userEnteredValue"}

    answer = batch(fake, token, {"updateCells": update})

    assert "oneof field 'value' is already set. Cannot set 'numberValue'" in error(answer)["message"]
    assert "requests[0].update_cells.rows[0].values[0].user_entered_value" in error(answer)["message"]


def test_a_batch_update_needs_requests_each_of_one_kind(fake: FakeSheets, token: str) -> None:
    refused(batch(fake, token), "Must specify at least one request.")
    refused(batch(fake, token, {}), "Invalid requests[0]: No request set.")


@pytest.mark.parametrize(
    ("grow", "message"),
    [
        (
            {"sheetId": LEDGER_ID, "dimension": "ROW", "length": 1},
            "Invalid value at 'requests[0].append_dimension.dimension' "
            '(type.googleapis.com/google.apps.sheets.v4.Dimension), "ROW"',
        ),
        (
            {"sheetId": LEDGER_ID, "dimension": "ROWS", "length": "many"},
            "Invalid value at 'requests[0].append_dimension.length' (TYPE_INT32), \"many\"",
        ),
        (
            {"sheetId": LEDGER_ID, "dimension": "ROWS", "length": 1.5},
            "Invalid value at 'requests[0].append_dimension.length' (TYPE_INT32), 1.5",
        ),
        (
            {"sheetId": [LEDGER_ID], "dimension": "ROWS", "length": 1},
            "Invalid JSON payload received. Proto field is not repeating, cannot start list.",
        ),
    ],
)
def test_field_values_must_fit_their_type(
    fake: FakeSheets, token: str, grow: dict[str, Any], message: str
) -> None:
    refused(batch(fake, token, {"appendDimension": grow}), message)


def test_a_range_must_be_text(fake: FakeSheets, token: str) -> None:
    answer = values_batch(fake, token, {"valueInputOption": "RAW", "data": [{"range": 5, "values": [[1]]}]})

    refused(answer, "Invalid value at 'data[0].range' (TYPE_STRING), 5")


def test_a_body_that_is_not_json_is_refused(fake: FakeSheets, token: str) -> None:
    url = f"{fake.url}/v4/spreadsheets/{KEY}:batchUpdate"
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    answer = requests.post(url, data=b"{requests: [", headers=headers, timeout=10)

    assert answer.status_code == 400
    assert error(answer)["message"].startswith("Invalid JSON payload received.")


@pytest.mark.parametrize("sheet_id", [-1, 999])
def test_a_negative_or_unknown_sheet_id_is_refused(fake: FakeSheets, token: str, sheet_id: int) -> None:
    grow = {"sheetId": sheet_id, "dimension": "ROWS", "length": 1}
    cells = {"start": {"sheetId": sheet_id}, "rows": [], "fields": "userEnteredValue"}

    refused(
        batch(fake, token, {"appendDimension": grow}),
        f"Invalid requests[0].appendDimension: No grid with id: {sheet_id}",
    )
    refused(
        batch(fake, token, {"updateCells": cells}),
        f"Invalid requests[0].updateCells: No grid with id: {sheet_id}",
    )


def test_a_new_sheet_may_not_have_a_negative_id(fake: FakeSheets, token: str) -> None:
    answer = batch(fake, token, {"addSheet": {"properties": {"title": "New", "sheetId": -3}}})

    assert answer.status_code == 400
    assert error(answer)["message"].startswith("Invalid requests[0].addSheet: ")
    assert fake.titles(KEY) == ["Ledger"]


def test_a_second_sheet_of_the_same_name_is_refused_and_nothing_of_the_batch_applies(
    fake: FakeSheets, token: str
) -> None:
    answer = batch(
        fake,
        token,
        {"addSheet": {"properties": {"title": "History"}}},
        {"addSheet": {"properties": {"title": "ledger"}}},
    )

    refused(
        answer,
        'Invalid requests[1].addSheet: A sheet with the name "ledger" already exists. '
        "Please enter another name.",
    )
    assert fake.titles(KEY) == ["Ledger"]


# --- field masks ------------------------------------------------------------------------------------


def test_couriers_field_mask_is_valid(fake: FakeSheets, token: str) -> None:
    answer = call(fake, "GET", KEY, token=token, params={"fields": READ_FIELDS})

    assert answer.status_code == 200
    assert set(answer.json()) == {"properties", "sheets"}
    assert set(answer.json()["sheets"][0]) == {"properties", "data"}


@pytest.mark.parametrize(
    "mask",
    [
        "sheets.properties.bogus",
        "sheets(properties(title),data(rowData(values(formattedValues))))",
        "properties, sheets.properties",  # the Sheets parser takes no spaces
        "spreadsheetId,range",  # range is a ValueRange's, not a Spreadsheet's
        "sheets(properties",
    ],
)
def test_a_field_mask_is_checked_path_by_path_against_the_response(
    fake: FakeSheets, token: str, mask: str
) -> None:
    answer = call(fake, "GET", KEY, token=token, params={"fields": mask})

    refused(answer, "Request contains an invalid argument.")


def test_a_field_mask_is_checked_against_each_methods_own_response(fake: FakeSheets, token: str) -> None:
    good = call(fake, "GET", f"{KEY}/values/Ledger", token=token, params={"fields": "range,values"})
    bad = call(fake, "GET", f"{KEY}/values/Ledger", token=token, params={"fields": "sheets"})
    write = values_batch(fake, token, {"valueInputOption": "RAW", "data": []})

    assert set(good.json()) == {"range", "values"}
    refused(bad, "Request contains an invalid argument.")
    assert write.status_code == 200


# --- limits -----------------------------------------------------------------------------------------


def test_a_cell_holds_at_most_50000_characters(fake: FakeSheets, token: str) -> None:
    def write(text: str) -> Any:
        data = [{"range": "Ledger!B1", "values": [[text]]}]
        return values_batch(fake, token, {"valueInputOption": "RAW", "data": data})

    assert write("x" * 50_000).status_code == 200
    refused(
        write("y" * 50_001), "Your input contains more than the maximum of 50000 characters in a single cell."
    )
    assert len(fake.values(KEY, "Ledger")[0][1]) == 50_000


def test_update_cells_holds_to_the_same_50000(fake: FakeSheets, token: str) -> None:
    cell = {"userEnteredValue": {"stringValue": "z" * 50_001}}
    update = {"start": {"sheetId": LEDGER_ID}, "rows": [{"values": [cell]}], "fields": "userEnteredValue"}

    answer = batch(fake, token, {"updateCells": update})

    assert error(answer)["message"].endswith("more than the maximum of 50000 characters in a single cell.")


def test_a_spreadsheet_holds_at_most_ten_million_cells(fake: FakeSheets, token: str) -> None:
    # Ledger is 1000 x 26; 10,000,000 cells are 384,615 rows of 26 (and 10 to spare).
    fits = {"sheetId": LEDGER_ID, "dimension": "ROWS", "length": 384_615 - 1000}
    over = {"sheetId": LEDGER_ID, "dimension": "ROWS", "length": 1}

    assert batch(fake, token, {"appendDimension": fits}).status_code == 200
    refused(
        batch(fake, token, {"appendDimension": over}),
        "Invalid requests[0].appendDimension: This action would increase the number of cells in the "
        "workbook above the limit of 10000000 cells.",
    )
    added = batch(fake, token, {"addSheet": {"properties": {"title": "More"}}})
    assert "above the limit of 10000000 cells" in error(added)["message"]


def test_appending_values_past_ten_million_cells_is_refused(fake: FakeSheets, token: str) -> None:
    grow = {"sheetId": LEDGER_ID, "dimension": "ROWS", "length": 384_615 - 1000}
    batch(fake, token, {"appendDimension": grow})
    fake.spreadsheets[KEY].tabs[0].cells[(384_614, 0)] = "last"

    answer = call(
        fake,
        "POST",
        f"{KEY}/values/Ledger:append",
        token=token,
        params={"valueInputOption": "RAW"},
        json={"values": [["x"]]},
    )

    refused(
        answer,
        "This action would increase the number of cells in the workbook above the limit of 10000000 cells.",
    )


def test_a_sheet_has_at_most_18278_columns(fake: FakeSheets, token: str) -> None:
    wide = {"title": "Wide", "sheetId": 50, "gridProperties": {"rowCount": 10, "columnCount": 18_278}}
    wider = {"title": "Wider", "gridProperties": {"rowCount": 10, "columnCount": 18_279}}
    grow = {"sheetId": 50, "dimension": "COLUMNS", "length": 1}

    assert batch(fake, token, {"addSheet": {"properties": wide}}).status_code == 200
    grown = batch(fake, token, {"appendDimension": grow})
    added = batch(fake, token, {"addSheet": {"properties": wider}})

    refused(
        grown,
        "Invalid requests[0].appendDimension: This action would increase the number of columns in "
        'sheet "Wide" above the limit of 18278.',
    )
    assert "above the limit of 18278." in error(added)["message"]
    assert fake.spreadsheets[KEY].tabs[1].columns == 18_278


# --- error shapes -----------------------------------------------------------------------------------


def test_an_unknown_spreadsheet_is_404_not_found(fake: FakeSheets, token: str) -> None:
    refused(call(fake, "GET", "nope", token=token), "Requested entity was not found.", "NOT_FOUND")


def test_a_spreadsheet_not_shared_is_403_permission_denied(fake: FakeSheets, token: str) -> None:
    fake.spreadsheets[KEY].forbidden = True

    refused(call(fake, "GET", KEY, token=token), "The caller does not have permission", "PERMISSION_DENIED")


# --- quota ------------------------------------------------------------------------------------------


def test_sixty_reads_a_minute_then_429_with_googles_message(fake: FakeSheets) -> None:
    now = [5000.0]
    fake.set_clock(lambda: now[0])
    token = bearer(fake)

    answers = [call(fake, "GET", KEY, token=token).status_code for _ in range(60)]
    over = call(fake, "GET", KEY, token=token)
    write = values_batch(fake, token, {"valueInputOption": "RAW", "data": []})  # writes count apart

    assert answers == [200] * 60
    found = refused(
        over,
        "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' of "
        "service 'sheets.googleapis.com' for consumer 'project_number:123456789012'.",
        "RESOURCE_EXHAUSTED",
    )
    assert found["code"] == 429
    assert found["details"][0]["metadata"]["quota_limit_value"] == "60"
    assert write.status_code == 200
    now[0] += 59.9
    assert call(fake, "GET", KEY, token=token).status_code == 429  # the window slides
    now[0] += 0.2
    assert call(fake, "GET", KEY, token=token).status_code == 200


def test_sixty_writes_a_minute(fake: FakeSheets) -> None:
    fake.set_clock(lambda: 7000.0)
    token = bearer(fake)
    body = {"valueInputOption": "RAW", "data": [{"range": "Ledger!A3", "values": [["Bob"]]}]}

    codes = [values_batch(fake, token, body).status_code for _ in range(61)]

    assert codes == [200] * 60 + [429]
    assert "'Write requests per minute per user'" in error(values_batch(fake, token, body))["message"]
    assert call(fake, "GET", KEY, token=token).status_code == 200


def test_the_quota_can_be_set_per_test_or_switched_off(fake: FakeSheets) -> None:
    fake.set_clock(lambda: 9000.0)
    token = bearer(fake)
    fake.set_quota(reads=2)
    assert [call(fake, "GET", KEY, token=token).status_code for _ in range(3)] == [200, 200, 429]

    fake.set_quota(None, None)
    assert {call(fake, "GET", KEY, token=token).status_code for _ in range(70)} == {200}
