"""How the test Sheets server says no, in Google's shapes: the JSON error of every Google API
(``{"error": {"code", "message", "status", "details"}}``, the status a google.rpc.Code name), and the
HTML pages Google's front end serves for what never reaches the API (a wrong path or method, 408,
413, 502)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "STATUS_NAMES",
    "ApiError",
    "Reply",
    "bad_request",
    "html_page",
    "quota_exceeded",
    "scope_insufficient",
    "unauthenticated",
]

SERVICE = "sheets.googleapis.com"
PROJECT = "123456789012"  # the consumer project Google names in quota errors

# The google.rpc.Code Google puts beside each HTTP status, and the message it says when nothing
# more specific applies.
STATUS_NAMES: dict[int, tuple[str, str]] = {
    400: ("INVALID_ARGUMENT", "Request contains an invalid argument."),
    401: ("UNAUTHENTICATED", "Request had invalid authentication credentials."),
    403: ("PERMISSION_DENIED", "The caller does not have permission"),
    404: ("NOT_FOUND", "Requested entity was not found."),
    409: ("ABORTED", "The operation was aborted."),
    429: ("RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota)."),
    499: ("CANCELLED", "The operation was cancelled."),
    500: ("INTERNAL", "Internal error encountered."),
    501: ("NOT_IMPLEMENTED", "Operation is not implemented, or supported, or enabled."),
    503: ("UNAVAILABLE", "The service is currently unavailable."),
    504: ("DEADLINE_EXCEEDED", "The request timed out. Please try again."),
}

# Google's front-end error pages (the robot page), what each says; ~1.6 KB each with the style.
_HTML_SAYS = {
    404: ("Not Found", "The requested URL <code>{path}</code> was not found on this server."),
    405: ("Method Not Allowed", "The request method <code>{method}</code> is inappropriate for the URL."),
    408: ("Request Timeout", "Your client has taken too long to issue its request."),
    411: ("Length Required", "POST requests require a <code>Content-length</code> header."),
    413: ("Request Entity Too Large", "Your client issued a request that was too large."),
    500: ("Internal Server Error", "The server encountered an error and could not complete your request."),
    502: (
        "Server Error",
        "The server encountered a temporary error and could not complete your request."
        "<p>Please try again in 30 seconds.",
    ),
    503: ("Service Unavailable", "The service you requested is not available at this time."),
    504: ("Gateway Timeout", "The server did not answer in time.<p>Please try again in 30 seconds."),
}
_STYLE = (
    "*{margin:0;padding:0}html,code{font:15px/22px arial,sans-serif}html{background:#fff;color:#222;"
    "padding:15px}body{margin:7% auto 0;max-width:390px;min-height:180px;padding:30px 0 15px}"
    "* > body{background:url(//www.google.com/images/errors/robot.png) 100% 5px no-repeat;"
    "padding-right:205px}p{margin:11px 0 22px;overflow:hidden}ins{color:#777;text-decoration:none}"
    "a img{border:0}@media screen and (max-width:772px){body{background:none;margin-top:0;"
    "max-width:none;padding-right:0}}#logo{background:url(//www.google.com/images/branding/"
    "googlelogo/1x/googlelogo_color_150x54dp.png) no-repeat;margin-left:-5px}@media only screen and "
    "(min-resolution:192dpi){#logo{background:url(//www.google.com/images/branding/googlelogo/2x/"
    "googlelogo_color_150x54dp.png) no-repeat 0% 0%/100% 100%;-moz-border-image:url(//www.google.com/"
    "images/branding/googlelogo/2x/googlelogo_color_150x54dp.png) 0}}@media only screen and "
    "(-webkit-min-device-pixel-ratio:2){#logo{background:url(//www.google.com/images/branding/"
    "googlelogo/2x/googlelogo_color_150x54dp.png) no-repeat;-webkit-background-size:100% 100%}}"
    "#logo{display:inline-block;height:54px;width:150px}"
)


class ApiError(Exception):
    """A refusal in Google's JSON error shape; ``status`` defaults to the code's google.rpc name."""

    def __init__(
        self, code: int, status: str = "", message: str = "", details: list[dict[str, Any]] | None = None
    ) -> None:
        default_status, default_message = STATUS_NAMES.get(code, ("UNKNOWN", "Unknown error."))
        self.code, self.status = code, status or default_status
        self.message = message or default_message
        self.details = details or []
        super().__init__(self.message)

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message, "status": self.status}
        if self.details:
            error["details"] = self.details
        return {"error": error}


@dataclass(frozen=True)
class Reply:
    """What the HTTP layer sends: JSON (``body``), an HTML page (``html``), or nothing at all
    (``lose``: the seconds to wait before closing the connection without an answer)."""

    status: int
    body: Any = None
    html: str | None = None
    lose: float | None = None
    headers: dict[str, str] = field(default_factory=dict)


def bad_request(message: str, field_path: str | None = None) -> ApiError:
    """400 INVALID_ARGUMENT; with a field, the google.rpc.BadRequest detail Google adds."""
    details: list[dict[str, Any]] = []
    if field_path is not None:  # "" for the body as a whole: no field named
        violation = {"field": field_path, "description": message} if field_path else {"description": message}
        details = [{"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [violation]}]
    return ApiError(400, "INVALID_ARGUMENT", message, details)


def unauthenticated(reason: str) -> ApiError:
    """401 as Google answers a missing, unknown or expired bearer token."""
    message = (
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie "
        "or other valid authentication credential. "
        "See https://developers.google.com/identity/sign-in/web/devconsole-project."
    )
    info: dict[str, Any] = {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": reason}
    info["domain"] = "googleapis.com"
    info["metadata"] = {"service": SERVICE, "method": "google.apps.sheets.v4.SpreadsheetsService"}
    return ApiError(401, "UNAUTHENTICATED", message, [info])


def scope_insufficient(method_id: str) -> ApiError:
    """403 for a token whose scopes do not cover the method (``method_id`` as Google names it)."""
    info: dict[str, Any] = {"@type": "type.googleapis.com/google.rpc.ErrorInfo"}
    info["reason"] = "ACCESS_TOKEN_SCOPE_INSUFFICIENT"
    info |= {"domain": "googleapis.com", "metadata": {"service": SERVICE, "method": method_id}}
    return ApiError(403, "PERMISSION_DENIED", "Request had insufficient authentication scopes.", [info])


def quota_exceeded(kind: str, limit: int) -> ApiError:
    """429 for the per-minute-per-user quota of ``kind`` ("Read" or "Write"), word for word."""
    metric, name = f"{kind} requests", f"{kind}RequestsPerMinutePerUser"
    message = (
        f"Quota exceeded for quota metric '{metric}' and limit '{metric} per minute per user' of "
        f"service '{SERVICE}' for consumer 'project_number:{PROJECT}'."
    )
    metadata = {
        "quota_location": "global",
        "quota_metric": f"{SERVICE}/{kind.lower()}_requests",
        "quota_limit": name,
        "quota_limit_value": str(limit),
        "service": SERVICE,
        "consumer": f"projects/{PROJECT}",
    }
    details: list[dict[str, Any]] = [
        {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": "RATE_LIMIT_EXCEEDED",
            "domain": "googleapis.com",
            "metadata": metadata,
        },
        {
            "@type": "type.googleapis.com/google.rpc.Help",
            "links": [
                {
                    "description": "Request a higher quota limit.",
                    "url": "https://cloud.google.com/docs/quotas/help/request_increase",
                }
            ],
        },
    ]
    return ApiError(429, "RESOURCE_EXHAUSTED", message, details)


def html_page(status: int, *, path: str = "/", method: str = "GET") -> str:
    """Google's front-end error page for ``status`` (the robot page), as a proxy or the edge sends it."""
    title, says = _HTML_SAYS.get(status, ("Error", "The server cannot process the request."))
    text = says.format(path=path, method=method)
    return (
        "<!DOCTYPE html>\n<html lang=en>\n  <meta charset=utf-8>\n"
        '  <meta name=viewport content="initial-scale=1, minimum-scale=1, width=device-width">\n'
        f"  <title>Error {status} ({title})!!1</title>\n  <style>\n    {_STYLE}\n  </style>\n"
        "  <a href=//www.google.com/><span id=logo aria-label=Google></span></a>\n"
        f"  <p><b>{status}.</b> <ins>That\u2019s an error.</ins>\n"
        f"  <p>{text}  <ins>That\u2019s all we know.</ins>\n"
    )
