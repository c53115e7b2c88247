"""``courier resolve GAME``'s conversation: requests on stdin, each answered on stdout as it comes.

The first line that is not blank decides the form. If it is a JSON value on its own, the input is
JSON Lines: every line is answered with one line as soon as it is read (and flushed), so a client
may write a request, read its answer, then write the next; a line that is not JSON is answered
with an error naming it and the lines after it are still answered. Otherwise the input is one JSON
document over several lines: it is read to the end and answered indented; input that is not one
JSON document either is answered line by line as above."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, TextIO

from engine.core import Ruleset
from engine.request import resolve_request

__all__ = ["answer_requests"]


def answer_requests(ruleset: Ruleset, given: TextIO, out: TextIO) -> bool:
    """Answer every request in ``given`` on ``out``; whether all were answered without an error."""
    lines = enumerate(iter(given.readline, ""), 1)  # each line as soon as it is there
    number, first = next(((n, line) for n, line in lines if line.strip()), (0, ""))
    if not first:
        return True  # nothing asked
    try:
        request = json.loads(first)
    except json.JSONDecodeError:
        return _answer_document(ruleset, number, first + given.read(), out)
    answered = _answer(ruleset, lambda: request, out, indent=None)
    return _answer_lines(ruleset, lines, out) and answered


def _answer_document(ruleset: Ruleset, first: int, text: str, out: TextIO) -> bool:
    """One document over several lines (from line ``first``), or lines that are not one."""
    try:
        request = json.loads(text)
    except json.JSONDecodeError:
        return _answer_lines(ruleset, enumerate(text.splitlines(), first), out)
    return _answer(ruleset, lambda: request, out, indent=2)


def _answer_lines(ruleset: Ruleset, lines: Iterable[tuple[int, str]], out: TextIO) -> bool:
    answered = True
    for number, line in lines:
        if line.strip():
            answered &= _answer(ruleset, partial(_json_line, number, line), out, indent=None)
    return answered


def _answer(ruleset: Ruleset, request: Callable[[], Any], out: TextIO, *, indent: int | None) -> bool:
    """Write the answer to one request (an ``{"error": …}`` for a bad one); whether it was good."""
    try:
        answer, answered = resolve_request(ruleset, request()), True
    except (ValueError, KeyError, TypeError) as e:
        answer, answered = {"error": str(e)}, False
    out.write(json.dumps(answer, ensure_ascii=False, indent=indent) + "\n")
    out.flush()  # the client may be waiting for this answer before it writes the next request
    return answered


def _json_line(number: int, line: str) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as e:
        raise ValueError(f"line {number} is not JSON: {e.msg} (column {e.colno})") from e
