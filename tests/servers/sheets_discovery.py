"""Google's own definition of the Sheets API v4: the discovery document google-api-python-client
ships (tests/data/google/sheets.v4.json, see the README beside it), read once. The test Sheets server
finds each request's method here (HTTP method and path), and checks its parameters, body and field
mask against the schemas (tests/servers/sheets_rules.py, sheets_masks.py)."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from tests.helpers.paths import DATA

__all__ = ["Method", "document", "global_parameters", "route", "schema"]

DOCUMENT = DATA / "google" / "sheets.v4.json"
PROTO = "type.googleapis.com/google.apps.sheets.v4."  # how error messages name a message type


@dataclass(frozen=True)
class Method:
    """One method of the API, e.g. ``sheets.spreadsheets.values.get``."""

    id: str
    http_method: str
    flat_path: str  # "v4/spreadsheets/{spreadsheetId}/values/{range}:append"
    pattern: re.Pattern[str]
    parameters: Mapping[str, Mapping[str, Any]]  # its own, query and path
    request: str | None  # the body's schema
    response: str | None
    scopes: frozenset[str]

    @property
    def is_read(self) -> bool:
        """Google counts a GET against the read quota, anything else against the write quota."""
        return self.http_method == "GET"


@functools.cache
def document() -> Mapping[str, Any]:
    loaded: dict[str, Any] = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    return loaded


def schema(name: str) -> Mapping[str, Any]:
    found: Mapping[str, Any] = document()["schemas"][name]
    return found


def global_parameters() -> Mapping[str, Mapping[str, Any]]:
    """Parameters every method takes (``fields``, ``alt``, ``key``, ``prettyPrint``...)."""
    found: Mapping[str, Mapping[str, Any]] = document()["parameters"]
    return found


@functools.cache
def _methods() -> tuple[Method, ...]:
    return tuple(_walk(document()))


def _walk(resource: Mapping[str, Any]) -> Iterator[Method]:
    for method in resource.get("methods", {}).values():
        yield Method(
            id=method["id"],
            http_method=method["httpMethod"],
            flat_path=method["flatPath"],
            pattern=_pattern(method["flatPath"]),
            parameters=method.get("parameters", {}),
            request=method.get("request", {}).get("$ref"),
            response=method.get("response", {}).get("$ref"),
            scopes=frozenset(method.get("scopes", [])),
        )
    for inner in resource.get("resources", {}).values():
        yield from _walk(inner)


def _pattern(flat_path: str) -> re.Pattern[str]:
    """A path template as a regular expression over the raw (still percent-encoded) path. A range
    may hold colons; ids may not (a colon starts a custom verb such as ``:batchUpdate``)."""
    regex = ""
    for literal, name in re.findall(r"([^{]*)(?:\{(\w+)\})?", flat_path):
        regex += re.escape(literal)
        if name:
            regex += f"(?P<{name}>[^/]+)" if name == "range" else f"(?P<{name}>[^/:]+)"
    return re.compile(f"/{regex}")


def route(http_method: str, raw_path: str) -> tuple[Method, dict[str, str]] | None:
    """The method this request calls and its decoded path parameters; None when no method has this
    path and HTTP method (Google's front end then answers 404 with an HTML page)."""
    found = [
        (method, match)
        for method in _methods()
        if method.http_method == http_method
        for match in [method.pattern.fullmatch(raw_path)]
        if match
    ]
    if not found:
        return None
    method, match = max(found, key=lambda pair: len(pair[0].flat_path))  # the most literal template
    return method, {name: unquote(value) for name, value in match.groupdict().items()}
