"""Google's refusals in words an organiser can act on: one short line each, the status of an HTML
error page rather than the page, google-auth's RefreshError as its OAuth error and description rather
than a Python tuple, a network error as its innermost reason (courier/backends/gsheet.py uses them)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from http import HTTPStatus

import gspread
from google.auth.exceptions import RefreshError

__all__ = ["api_message", "cause", "error_reason", "grant_error", "is_api_json", "one_line", "status_line"]


def is_api_json(error: gspread.exceptions.APIError) -> bool:
    """False when the answer was not the API's JSON (an HTML page from a proxy or Google's front end)."""
    return not str(error.error.get("status", "")).startswith("invalid JSON")


def api_message(error: gspread.exceptions.APIError) -> str:
    return one_line(str(error.error.get("message", ""))) if is_api_json(error) else ""


def error_reason(error: gspread.exceptions.APIError) -> str:
    """The ErrorInfo reason Google gives in ``details`` (``ACCESS_TOKEN_SCOPE_INSUFFICIENT``)."""
    details = error.error.get("details") or []
    return next((str(d.get("reason", "")) for d in details if isinstance(d, dict) and d.get("reason")), "")


def status_line(error: gspread.exceptions.APIError) -> str:
    """``HTTP 429 Quota exceeded …``; for an HTML error page, its status only, never the page."""
    status = error.response.status_code
    if is_api_json(error):
        return f"HTTP {status} {api_message(error)}".strip()
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = error.response.reason or ""
    return f"HTTP {status} {phrase} (an error page, not an answer of the Sheets API)".replace("  ", " ")


def grant_error(error: RefreshError) -> str:
    """google-auth's RefreshError as OAuth words: ``invalid_grant (Invalid JWT Signature.)``."""
    answer = next((a for a in error.args[1:] if isinstance(a, Mapping)), None)
    if answer and answer.get("error"):
        described = answer.get("error_description")
        return f"{answer['error']} ({one_line(str(described))})" if described else str(answer["error"])
    first = str(error.args[0]) if error.args else ""
    if first.lstrip().startswith("<"):
        return "an error page, not an OAuth answer"
    try:
        answer = json.loads(first)
    except ValueError:
        return one_line(first)
    return one_line(first) if not isinstance(answer, dict) else str(answer.get("error", first))


def cause(error: BaseException) -> str:
    """The innermost reason of a network error (``[Errno 111] Connection refused``), one line."""
    seen: BaseException = error
    for _ in range(8):
        inner = seen.__cause__ or getattr(seen, "reason", None)
        inner = inner or next((a for a in seen.args if isinstance(a, BaseException)), None)
        if not isinstance(inner, BaseException):
            break
        seen = inner
    return one_line(str(seen) or type(seen).__name__)


def one_line(text: str, limit: int = 200) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
