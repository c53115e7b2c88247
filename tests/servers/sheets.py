"""A stand-in for the Google Sheets API v4 on 127.0.0.1 (stdlib HTTP server in a thread), as strict
as Google where Courier and gspread go, so the real gspread + google-auth code runs over the wire and
a request Google would refuse is refused here too (tests/servers/README.md lists the rules).

It keeps spreadsheets in memory, logs every request (``FakeSheets.requests``), issues OAuth tokens at
``POST /token`` for a JWT-bearer grant signed with the test key (sheets_oauth.py) and refuses API
calls without a valid one, finds each request's method in Google's discovery document and checks its
query, body and field mask against it (sheets_discovery.py, sheets_rules.py, sheets_masks.py),
counts reads and writes per minute against Google's quota (sheets_quota.py), and enforces Google's
limits on cells and grids (sheets_endpoints.py). It honours ``valueInputOption`` (USER_ENTERED turns
"=1+1" into a ``Formula`` and "01067" into 1067; RAW stores what it got). Cells are stored
unformatted: seed a timestamp as its serial number, and a cell whose display differs from its value
as ``Formatted(value, text)`` (a time 20:00 is ``Formatted(0.8333333333333334, "20:00")``).
``spreadsheets.get`` serves grid data (formattedValue, effectiveValue, userEnteredValue per cell)
when ``includeGridData=true`` or a ``fields`` mask asks for it, and applies the mask.
``spreadsheets.batchUpdate`` knows addSheet (with a chosen ``sheetId`` or not), appendDimension,
updateCells (``fields=userEnteredValue``) and updateDimensionProperties (columns' ``pixelSize``,
kept in ``Tab.widths``), applied in order, all or none.
Fixtures: ``sheets_server``, ``sheets_credentials`` (a key file), ``sheets_settings``; outside
pytest, ``serve_sheets()`` and ``write_credentials()``.

Settings a test may change: ``set_clock(fn)`` (the server's clock, ``time.time()`` by default: token
expiry, the quota's minute, storms), ``token_lifetime`` (``expires_in`` of tokens issued from now on),
``set_quota(reads=60, writes=60)`` (per user per minute; None lifts a limit; ``set_quota(None, None)``
switches the quota model off).

Fault injection (for the client's retry tests; ``kind`` picks requests: None any, "read", "write",
"metadata", ":batchUpdate", "values:batchUpdate", "values:batchGet"...; /token is never hit):

- ``fail_next(count, status=500, kind=None)``: Google's JSON error (500 INTERNAL, 503 UNAVAILABLE,
  429 the quota message...), nothing performed;
- ``lose_answers(count, kind=None, delay=0.0)``: performed and kept, then the connection closes
  without an answer (after ``delay`` s: past the client's timeout it sees a timeout instead);
- ``storm(count=None, seconds=None)``: 429 RESOURCE_EXHAUSTED for the next ``count`` requests or for
  ``seconds`` of the server's clock (``set_clock``), nothing performed;
- ``html_error_next(status=502, count=1, kind=None)``: Google's front-end HTML page (502, 413, 408,
  504), nothing performed;
- ``as_uploaded_xlsx(key)``: 400 FAILED_PRECONDITION "This operation is not supported for this
  document" for every call on that spreadsheet;
- ``missing_scope(keep=())``: every token holds only ``keep``; a call needing more answers 403
  PERMISSION_DENIED "Request had insufficient authentication scopes."."""

from __future__ import annotations

import contextlib
import copy
import json
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from google.oauth2 import service_account

from tests.servers.sheets_discovery import Method, route
from tests.servers.sheets_endpoints import dispatch
from tests.servers.sheets_errors import ApiError, Reply, bad_request, html_page
from tests.servers.sheets_faults import Faults, matches
from tests.servers.sheets_http import serve
from tests.servers.sheets_masks import parse_mask, select
from tests.servers.sheets_model import Formatted, Formula, Logged, Spreadsheet, Tab
from tests.servers.sheets_oauth import SERVICE_ACCOUNT, OAuthError, TokenIssuer, service_account_info
from tests.servers.sheets_quota import Quota
from tests.servers.sheets_rules import check_body, check_query

__all__ = [
    "SERVICE_ACCOUNT",
    "FakeSheets",
    "Formatted",
    "Formula",
    "Logged",
    "Spreadsheet",
    "Tab",
    "serve_sheets",
    "service_account_info",
    "sheets_credentials",
    "sheets_server",
    "sheets_settings",
    "write_credentials",
]

_UNPARSED = object()  # a body that is not JSON


@dataclass
class FakeSheets:
    spreadsheets: dict[str, Spreadsheet] = field(default_factory=dict)
    requests: list[Logged] = field(default_factory=list)
    url: str = ""
    clock: Callable[[], float] = field(default=lambda: time.time())  # freezegun moves it too
    faults: Faults = field(default_factory=Faults)
    oauth: TokenIssuer = field(default_factory=TokenIssuer)
    quota: Quota = field(default_factory=Quota)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.faults.clock = self.oauth.clock = self.quota.clock = self.now

    def now(self) -> float:
        return self.clock()

    # --- settings for tests ------------------------------------------------------------------------

    def set_clock(self, clock: Callable[[], float]) -> None:
        """Run the server on ``clock`` (seconds, like ``time.time``), so a test can advance it."""
        self.clock = clock

    def set_quota(self, reads: int | None = 60, writes: int | None = 60) -> None:
        """Requests allowed per user in any 60 s (Google's are 60 and 60); None: no limit."""
        self.quota.reads, self.quota.writes = reads, writes

    @property
    def tokens(self) -> list[str]:
        """Access tokens issued, in order."""
        return self.oauth.tokens

    @property
    def token_lifetime(self) -> int:
        return self.oauth.lifetime

    @token_lifetime.setter
    def token_lifetime(self, seconds: int) -> None:
        self.oauth.lifetime = seconds

    def create(
        self, key: str, tabs: Mapping[str, Sequence[Sequence[Any]]], *, time_zone: str = "UTC"
    ) -> Spreadsheet:
        """A spreadsheet holding these tabs (values as the API returns them unformatted)."""
        sheet = Spreadsheet(key, time_zone)
        for index, (title, rows) in enumerate(tabs.items()):
            tab = Tab(index * 1000 + 7, title)
            for r, row in enumerate(rows):
                tab.cells.update({(r, c): value for c, value in enumerate(row) if value not in (None, "")})
            tab.rows = max(tab.rows, len(rows))
            sheet.tabs.append(tab)
        self.spreadsheets[key] = sheet
        return sheet

    def values(self, key: str, title: str) -> list[list[Any]]:
        return self.spreadsheets[key].tab(title).values()

    def titles(self, key: str) -> list[str]:
        return [tab.title for tab in self.spreadsheets[key].tabs]

    def api_calls(self, kind: str | None = None) -> list[Logged]:
        """Logged API requests, e.g. kind "values:batchGet", "values:batchUpdate", ":batchUpdate",
        "metadata" (spreadsheets.get), "read", "write"."""
        calls = [r for r in self.requests if r.path.startswith("/v4/")]
        return [r for r in calls if matches(kind, r.method, r.path)]

    # --- fault injection (kinds: see tests/servers/sheets_faults.py) ---------------------------------
    def fail_next(self, count: int, status: int = 500, *, kind: str | None = None) -> None:
        """Answer the next ``count`` API requests (of ``kind``; never /token) with ``status`` in
        Google's JSON error shape (500 INTERNAL, 503 UNAVAILABLE, 429 the quota message...), without
        performing them."""
        self.faults.fail(count, status, kind)

    def lose_answers(self, count: int, *, kind: str | None = None, delay: float = 0.0) -> None:
        """Perform the next ``count`` API requests of ``kind`` as usual (their changes are kept), then
        close the connection without an answer, after ``delay`` seconds (past a client's timeout, the
        client gives up first): the client sees a connection error or a timeout."""
        self.faults.lose(count, kind, delay)

    def storm(self, count: int | None = None, *, seconds: float | None = None) -> None:
        """A 429 storm: the next ``count`` API requests, or every one for ``seconds`` by the server's
        clock (or until both run out), answer 429 RESOURCE_EXHAUSTED with Google's quota message."""
        self.faults.storm(count, seconds)

    def html_error_next(self, status: int = 502, count: int = 1, *, kind: str | None = None) -> None:
        """Answer the next ``count`` API requests of ``kind`` with Google's front-end HTML error page
        (502, 413, 408, 504...; text/html, ~1.7 KB), without performing them."""
        self.faults.html(count, status, kind)

    def as_uploaded_xlsx(self, key: str) -> None:
        """The spreadsheet ``key`` is an uploaded .xlsx file: every Sheets API call on it answers 400
        FAILED_PRECONDITION "This operation is not supported for this document"."""
        self.spreadsheets[key].uploaded_xlsx = True

    def missing_scope(self, keep: Sequence[str] = ()) -> None:
        """Every access token (issued or to come) holds only the scopes ``keep``: an API call that
        needs another answers 403 PERMISSION_DENIED "Request had insufficient authentication
        scopes." (keep ``.../auth/spreadsheets.readonly`` and reads still work)."""
        self.oauth.scopes_left = frozenset(keep)

    # --- serving -----------------------------------------------------------------------------------

    def handle(self, method: str, target: str, body: bytes, headers: Mapping[str, str]) -> Reply:
        """One request; ``headers`` with lower-case names."""
        parts = urlsplit(target)
        query = parse_qs(parts.query, keep_blank_values=True)
        text = body.decode("utf-8", "replace") if body else ""
        parsed = _json(text) if headers.get("content-type", "").startswith("application/json") else text
        path = unquote(parts.path)
        with self._lock:
            self.requests.append(Logged(method, path, query, text if parsed is _UNPARSED else parsed))
            if parts.path == "/token":
                return self._token(method, text)
            found = route(method, parts.path)
            if found is None:  # Google's front end knows no such method at this path
                return Reply(404, html=html_page(404, path=parts.path, method=method))
            injected = self.faults.before(method, path)
            if injected is not None:
                return injected
            try:
                reply = Reply(200, self._api(found[0], found[1], query, parsed, headers))
            except ApiError as e:
                reply = Reply(e.code, e.body())
            return self.faults.after(method, path, reply)

    def _token(self, method: str, text: str) -> Reply:
        try:
            if method != "POST":
                raise OAuthError("invalid_request", f"Invalid request method: {method}")
            return Reply(200, self.oauth.grant(parse_qs(text), f"{self.url}/token"))
        except OAuthError as e:
            return Reply(e.status, e.body())

    def _api(
        self,
        method: Method,
        path: Mapping[str, str],
        query: Mapping[str, list[str]],
        body: Any,
        headers: Mapping[str, str],
    ) -> Any:
        """Authorise, count against the quota, check, then perform ``method`` whole or not at all."""
        token = headers.get("authorization", "").removeprefix("Bearer ")
        token = token or (query.get("access_token") or query.get("oauth_token") or [""])[0]
        granted = self.oauth.authorise(token, method.scopes, method.id)
        self.quota.spend(granted.account, method.is_read)
        check_query(method, query)
        mask = parse_mask(query["fields"][0], method.response) if query.get("fields") else None
        if body is _UNPARSED:
            raise bad_request("Invalid JSON payload received. Unexpected token.", "")
        check_body(method, body if body != "" else {})
        sheet = self._spreadsheet(path["spreadsheetId"])
        working = copy.deepcopy(sheet)  # every request applies whole or not at all
        answer = dispatch(working, method.id, path, query, body if body != "" else {})
        self.spreadsheets[sheet.key] = working
        return answer if mask is None else select(answer, mask)

    def _spreadsheet(self, key: str) -> Spreadsheet:
        sheet = self.spreadsheets.get(key)
        if sheet is None:
            raise ApiError(404, "NOT_FOUND", "Requested entity was not found.")
        if sheet.forbidden:
            raise ApiError(403, "PERMISSION_DENIED", "The caller does not have permission")
        if sheet.uploaded_xlsx:
            raise ApiError(400, "FAILED_PRECONDITION", "This operation is not supported for this document")
        return sheet


def _json(text: str) -> Any:
    if not text:
        return ""
    try:
        return json.loads(text)
    except ValueError:
        return _UNPARSED


# --- fixtures --------------------------------------------------------------------------------------


@contextlib.contextmanager
def serve_sheets() -> Iterator[FakeSheets]:
    """A fresh fake Sheets API in a thread while the block runs; ``.url`` is its base (``api_base``).
    The fixture uses it; so do benchmarks, outside pytest."""
    fake = FakeSheets()
    with serve(fake) as url:
        fake.url = url
        yield fake


def write_credentials(path: Path, fake: FakeSheets) -> Path:
    """A service-account key file at ``path`` whose token_uri is the fake's /token. Callers also
    switch off google-auth's "regional access boundary" lookup (see ``sheets_credentials``)."""
    path.write_text(json.dumps(service_account_info(f"{fake.url}/token")), encoding="utf-8")
    return path


@pytest.fixture
def sheets_server() -> Iterator[FakeSheets]:
    """A fresh fake Sheets API; ``.url`` is its base (the ``api_base`` setting)."""
    with serve_sheets() as fake:
        yield fake


@pytest.fixture
def sheets_credentials(tmp_path: Path, sheets_server: FakeSheets, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A service-account key file whose token_uri is the fake's /token. google-auth would also look
    up the account's "regional access boundary" at iamcredentials.googleapis.com in the background:
    tests never touch the internet, so that lookup is switched off."""
    monkeypatch.setattr(
        service_account.Credentials, "_is_regional_access_boundary_lookup_required", lambda self: False
    )
    return write_credentials(tmp_path / "service-account.json", sheets_server)


@pytest.fixture
def sheets_settings(sheets_server: FakeSheets, sheets_credentials: Path) -> dict[str, Any]:
    """A deployment's ``[sheets]`` table pointing at the fake, with no waiting between retries."""
    return {"credentials_file": str(sheets_credentials), "api_base": sheets_server.url, "backoff": 0}
