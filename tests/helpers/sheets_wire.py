"""Plain HTTP against the test Sheets server (``requests``, no gspread), for the tests of the server
itself: a real JWT-bearer grant signed with the test service-account key, and API calls with it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import requests
from google.auth import crypt, jwt

from tests.servers.sheets import FakeSheets, service_account_info

SPREADSHEETS = "https://www.googleapis.com/auth/spreadsheets"
GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"


def assertion(
    fake: FakeSheets,
    *,
    scopes: Sequence[str] = (SPREADSHEETS,),
    now: float | None = None,
    lifetime: int = 3600,
    **claims: Any,
) -> str:
    """A JWT as google-auth's service-account credential signs it; ``claims`` override or add."""
    info = service_account_info(f"{fake.url}/token")
    signer = crypt.RSASigner.from_service_account_info(info)  # type: ignore[no-untyped-call]
    issued = int(fake.now() if now is None else now)
    payload: dict[str, Any] = {
        "iss": info["client_email"],
        "aud": info["token_uri"],
        "scope": " ".join(scopes),
        "iat": issued,
        "exp": issued + lifetime,
    }
    payload.update(claims)
    signed: bytes = jwt.encode(signer, {k: v for k, v in payload.items() if v is not None})  # type: ignore[no-untyped-call]
    return signed.decode()


def grant(fake: FakeSheets, token: str | None = None, **kwargs: Any) -> requests.Response:
    """POST /token with a JWT-bearer grant (``token``, else a fresh ``assertion(**kwargs)``)."""
    form = {"grant_type": GRANT, "assertion": token or assertion(fake, **kwargs)}
    return requests.post(f"{fake.url}/token", data=form, timeout=10)


def bearer(fake: FakeSheets, **kwargs: Any) -> str:
    answer = grant(fake, **kwargs)
    assert answer.status_code == 200, answer.text
    return str(answer.json()["access_token"])


def call(
    fake: FakeSheets,
    method: str,
    path: str,
    *,
    token: str | None = None,
    params: Mapping[str, Any] | None = None,
    json: Any = None,
    timeout: float = 10,
) -> requests.Response:
    """One API request to ``/v4/spreadsheets/{path}`` with a bearer token (a fresh one by default)."""
    headers = {"Authorization": f"Bearer {token or bearer(fake)}"}
    url = f"{fake.url}/v4/spreadsheets/{path}"
    return requests.request(method, url, params=params, json=json, headers=headers, timeout=timeout)


def error(answer: requests.Response) -> dict[str, Any]:
    """The ``error`` object of a Google JSON error answer (asserting the shape)."""
    body = answer.json()
    assert set(body) == {"error"}, body
    assert {"code", "message", "status"} <= set(body["error"]), body
    assert body["error"]["code"] == answer.status_code
    return dict(body["error"])
