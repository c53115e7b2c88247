"""The test Sheets server's token endpoint is as strict as Google's for a service account's
JWT-bearer grant (issue 28): the RS256 signature by the test key, ``iss``, ``aud``, ``iat``/``exp``,
``scope``; RFC 6749 error shapes; tokens that expire; scopes checked per method. Plain HTTP, so the
server itself is under test (google-auth's own flow is exercised by test_gsheet.py)."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from google.auth import crypt, jwt

from tests.helpers.sheets_wire import GRANT, assertion, bearer, call, error, grant
from tests.servers.sheets import FakeSheets

KEY = "guarded"
SHORT_LIVED = (
    "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. "
    "Check your iat and exp values in the JWT claim."
)
AUTH = "https://www.googleapis.com/auth/"


class Clock:
    """The server's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def fake(sheets_server: FakeSheets, clock: Clock) -> FakeSheets:
    sheets_server.create(KEY, {"Ledger": [["Player"]]})
    sheets_server.set_clock(clock)
    return sheets_server


def oauth_error(answer: requests.Response, kind: str, description: str) -> None:
    """An RFC 6749 section 5.2 refusal, status 400."""
    assert answer.status_code == 400
    assert answer.json() == {"error": kind, "error_description": description}


def test_a_grant_signed_by_the_test_key_gets_a_bearer_token(fake: FakeSheets) -> None:
    answer = grant(fake)

    assert answer.status_code == 200
    body = answer.json()
    assert body["token_type"] == "Bearer"
    assert body["expires_in"] == 3600
    assert call(fake, "GET", KEY, token=body["access_token"]).status_code == 200


def test_a_grant_signed_by_another_key_is_refused(fake: FakeSheets) -> None:
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = other.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    signer = crypt.RSASigner.from_string(pem, key_id="0123456789abcdef")  # type: ignore[no-untyped-call]
    honest = assertion(fake)
    claims = jwt.decode(honest, verify=False)  # type: ignore[no-untyped-call]
    forged: bytes = jwt.encode(signer, claims)  # type: ignore[no-untyped-call]

    oauth_error(grant(fake, forged.decode()), "invalid_grant", "Invalid JWT Signature.")


def test_a_grant_whose_claims_were_changed_after_signing_is_refused(fake: FakeSheets) -> None:
    head, _, signature = assertion(fake).split(".")
    _, body, _ = assertion(fake, scopes=[AUTH + "drive"]).split(".")

    oauth_error(grant(fake, f"{head}.{body}.{signature}"), "invalid_grant", "Invalid JWT Signature.")


def test_a_grant_for_another_key_id_is_refused(fake: FakeSheets) -> None:
    _, body, signature = assertion(fake).split(".")
    header: dict[str, Any] = {"alg": "RS256", "typ": "JWT", "kid": "fedcba9876543210"}
    other_head = base64.urlsafe_b64encode(json.dumps(header).encode()).decode().rstrip("=")

    oauth_error(grant(fake, f"{other_head}.{body}.{signature}"), "invalid_grant", "Invalid JWT Signature.")


def test_an_unknown_account_is_refused(fake: FakeSheets) -> None:
    answer = grant(fake, iss="someone@else.iam.gserviceaccount.com")

    oauth_error(answer, "invalid_grant", "Invalid grant: account not found")


def test_the_audience_must_be_googles_token_endpoint(fake: FakeSheets) -> None:
    answer = grant(fake, aud="https://example.com/token")

    oauth_error(
        answer,
        "invalid_grant",
        "Invalid JWT: Failed audience check. The right audience is https://oauth2.googleapis.com/token",
    )
    assert grant(fake, aud="https://oauth2.googleapis.com/token").status_code == 200  # what google-auth signs


@pytest.mark.parametrize(
    ("issued", "lifetime"),
    [
        (0, 3601),  # longer than an hour
        (0, 0),  # expires as it is issued
        (-7200, 3600),  # expired an hour ago
        (3600, 3600),  # issued an hour from now
    ],
)
def test_a_grant_must_be_short_lived_and_timely(fake: FakeSheets, issued: int, lifetime: int) -> None:
    answer = grant(fake, now=fake.now() + issued, lifetime=lifetime)

    oauth_error(answer, "invalid_grant", SHORT_LIVED)


def test_five_minutes_of_clock_skew_are_tolerated(fake: FakeSheets) -> None:
    assert grant(fake, now=fake.now() + 240).status_code == 200


def test_a_grant_without_a_scope_is_refused(fake: FakeSheets) -> None:
    answer = grant(fake, scopes=[])

    oauth_error(answer, "invalid_scope", "Invalid OAuth scope or ID token audience provided.")


@pytest.mark.parametrize(
    ("form", "kind", "description"),
    [
        (
            {"grant_type": "client_credentials", "assertion": "x"},
            "unsupported_grant_type",
            "Invalid grant_type: client_credentials",
        ),
        ({"grant_type": GRANT}, "invalid_request", "Missing required parameter: assertion"),
        ({"assertion": "x"}, "invalid_request", "Missing required parameter: grant_type"),
        (
            {"grant_type": GRANT, "assertion": "not-a-jwt"},
            "invalid_grant",
            "Invalid JWT: malformed assertion",
        ),
    ],
)
def test_a_malformed_grant_is_refused_in_rfc_6749s_shape(
    fake: FakeSheets, form: dict[str, str], kind: str, description: str
) -> None:
    answer = requests.post(f"{fake.url}/token", data=form, timeout=10)

    oauth_error(answer, kind, description)


# --- bearer tokens ----------------------------------------------------------------------------------


def test_a_token_expires_after_its_lifetime(fake: FakeSheets, clock: Clock) -> None:
    fake.token_lifetime = 600
    answer = grant(fake)
    token = answer.json()["access_token"]
    assert answer.json()["expires_in"] == 600

    clock.now += 599
    assert call(fake, "GET", KEY, token=token).status_code == 200
    clock.now += 1
    expired = call(fake, "GET", KEY, token=token)

    assert expired.status_code == 401
    assert error(expired)["status"] == "UNAUTHENTICATED"
    assert error(expired)["details"][0]["reason"] == "ACCESS_TOKEN_EXPIRED"


@pytest.mark.parametrize("token", ["ya29.made-up", ""])
def test_an_unknown_or_missing_token_is_401(fake: FakeSheets, token: str) -> None:
    answer = requests.get(
        f"{fake.url}/v4/spreadsheets/{KEY}", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )

    assert answer.status_code == 401
    assert error(answer)["status"] == "UNAUTHENTICATED"
    assert error(answer)["message"].startswith("Request had invalid authentication credentials.")


def test_a_token_may_come_as_the_access_token_parameter(fake: FakeSheets) -> None:
    token = bearer(fake)

    answer = requests.get(f"{fake.url}/v4/spreadsheets/{KEY}", params={"access_token": token}, timeout=10)

    assert answer.status_code == 200


def test_a_read_only_token_reads_but_may_not_write(fake: FakeSheets) -> None:
    token = bearer(fake, scopes=[AUTH + "spreadsheets.readonly"])
    body = {"valueInputOption": "RAW", "data": [{"range": "Ledger!A2", "values": [["Alice"]]}]}

    read = call(fake, "GET", KEY, token=token)
    write = call(fake, "POST", f"{KEY}/values:batchUpdate", token=token, json=body)

    assert read.status_code == 200
    assert write.status_code == 403
    assert error(write)["status"] == "PERMISSION_DENIED"
    assert error(write)["message"] == "Request had insufficient authentication scopes."
    assert fake.values(KEY, "Ledger") == [["Player"]]


def test_a_drive_token_opens_spreadsheets_as_google_allows(fake: FakeSheets) -> None:
    token = bearer(fake, scopes=[AUTH + "drive"])
    body = {"valueInputOption": "RAW", "data": [{"range": "Ledger!A2", "values": [["Alice"]]}]}

    assert call(fake, "POST", f"{KEY}/values:batchUpdate", token=token, json=body).status_code == 200


def test_a_token_for_another_api_is_refused_403(fake: FakeSheets) -> None:
    token = bearer(fake, scopes=[AUTH + "gmail.send"])

    answer = call(fake, "GET", KEY, token=token)

    assert answer.status_code == 403
    assert error(answer)["details"][0]["reason"] == "ACCESS_TOKEN_SCOPE_INSUFFICIENT"
