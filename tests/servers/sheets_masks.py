"""Field masks (the ``fields`` query parameter) as the Sheets API reads them: ``a.b,c(d,e(f))`` or
``a/b``, ``*`` for everything at a level; no spaces (the Sheets parser, unlike Drive's, refuses
them). Each path is checked against the method's response schema in the discovery document: a
name the schema does not have at that place is refused with Google's 400 "Request contains an
invalid argument." Then the answer is cut to what the mask selects."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tests.servers.sheets_discovery import schema
from tests.servers.sheets_errors import bad_request

__all__ = ["parse_mask", "select"]

_NAME = re.compile(r"\*|[A-Za-z_]\w*")
Mask = dict[str, Any]


def parse_mask(text: str, response: str | None) -> Mask:
    """ "a.b,c(d,e(f))" -> {"a": {"b": {}}, "c": {"d": {}, "e": {"f": {}}}}, each path checked
    against the schema ``response``; {} would select everything."""
    tree: Mask = {}
    if not text or _parse(text, 0, tree) != len(text):
        raise _refused(text)
    if response is not None:
        _check(tree, {"$ref": response}, text)
    return tree


def _parse(text: str, pos: int, tree: Mask) -> int:
    """Read a comma-separated list of paths (each may end in a parenthesised list) from ``pos``."""
    while True:
        node, pos = _path(text, pos, tree)
        if text.startswith("(", pos):
            pos = _parse(text, pos + 1, node)
            if not text.startswith(")", pos):
                raise _refused(text)
            pos += 1
        if not text.startswith(",", pos):
            return pos
        pos += 1


def _path(text: str, pos: int, tree: Mask) -> tuple[Mask, int]:
    """Read ``a.b/c`` from ``pos`` into ``tree``: the node it ends at, and where it ends."""
    node = tree
    while True:
        name = _NAME.match(text, pos)
        if not name:
            raise _refused(text)
        node = node.setdefault(name.group(), {})
        pos = name.end()
        if not text.startswith((".", "/"), pos):
            return node, pos
        pos += 1


def _check(tree: Mask, spec: Mapping[str, Any], text: str) -> None:
    """Every name in ``tree`` exists where it stands in the schema ``spec``."""
    while spec.get("type") == "array":
        spec = spec["items"]
    if "$ref" in spec:
        spec = schema(spec["$ref"])
    properties: Mapping[str, Any] = spec.get("properties", {})
    for name, inner in tree.items():
        if name == "*":
            continue
        if "additionalProperties" in spec:  # a map: any key
            _check(inner, spec["additionalProperties"], text)
        elif name in properties:
            _check(inner, properties[name], text)
        elif spec.get("type") != "any":
            raise _refused(text)


def _refused(text: str) -> Exception:
    del text  # Google does not say which name it could not find
    return bad_request("Request contains an invalid argument.")


def select(value: Any, mask: Mapping[str, Any]) -> Any:
    """What of ``value`` the mask selects."""
    if not mask or "*" in mask:
        return value
    if isinstance(value, list):
        return [select(item, mask) for item in value]
    if isinstance(value, dict):
        return {name: select(value[name], inner) for name, inner in mask.items() if name in value}
    return value
