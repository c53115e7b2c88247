"""The patterns that say where a reply's quoted part starts, read from ``config/quotes.toml`` (and an
organiser's own file named by ``quote_patterns`` in courier.toml), compiled once.

Three kinds of quote furniture: attribution lines ("On … wrote:"), header blocks ("From:/Sent:/To:")
and separator lines ("-----Original Message-----"); plus the HTML classes and ids mail programs put
around a quote. courier/mail/quotes.py applies them.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from courier.data import shipped_dir

__all__ = ["QuoteRules", "RulesError", "load_rules", "shipped_rules"]

HEADER_KINDS = ("from", "date", "to", "subject", "cc", "reply_to")


class RulesError(ValueError):
    """A quote-pattern file that cannot be used; the message names the entry."""


@dataclass(frozen=True)
class QuoteRules:
    verb: re.Pattern[str]  # any attribution verb ("wrote", "schrieb", "写道")
    lead_in: re.Pattern[str]  # a word that opens an attribution ("On", "Am", "W dniu")
    verbless: tuple[re.Pattern[str], ...]  # whole attributions without a verb (Gmail's numeric form)
    header_field: re.Pattern[str]  # a header field name at a line's start; group "name"
    header_field_inline: re.Pattern[str]  # another field on the same line ("From: x Date: y", HTML)
    header_kinds: Mapping[str, str]  # casefolded field name → from/date/to/subject/cc/reply_to
    separator: re.Pattern[str]
    html_quote_classes: frozenset[str]
    html_quote_ids: frozenset[str]
    html_starts_quote_ids: frozenset[str]


@cache
def shipped_rules() -> QuoteRules:
    return load_rules(())


def load_rules(extra_files: tuple[Path, ...]) -> QuoteRules:
    """The shipped patterns plus each extra file's; raises RulesError naming a bad entry. Compiled
    again only when a file changed (a long-running process sees the organiser's edits)."""
    try:
        stamps = tuple(path.stat().st_mtime_ns for path in extra_files)
    except OSError as e:
        raise RulesError(f"{e.filename}: cannot be read: {e.strerror}") from None
    return _load(extra_files, stamps)


@cache
def _load(extra_files: tuple[Path, ...], stamps: tuple[int, ...]) -> QuoteRules:
    tables = [_read(shipped_dir("config") / "quotes.toml")] + [_read(p) for p in extra_files]
    return _compile(tables)


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise RulesError(f"{path.name}: {e}") from e


def _compile(tables: list[dict[str, Any]]) -> QuoteRules:
    attributions = [entry for table in tables for entry in table.get("attribution", [])]
    fields: dict[str, str] = {}
    for table in tables:
        for kind, names in table.get("header_fields", {}).items():
            if kind in HEADER_KINDS:
                fields.update(
                    (_words(name).casefold(), kind) for name in _texts(names, f"header_fields.{kind}")
                )
    phrases = [p for t in tables for p in _texts(t.get("separators", {}).get("phrases", []), "separators")]
    html = [t.get("html", {}) for t in tables]
    return QuoteRules(
        verb=_alternation(_all(attributions, "verbs"), boundaries=True),
        lead_in=re.compile(rf"(?<!\w)(?:{_choice(_all(attributions, 'lead_ins'))})(?!\w)", re.IGNORECASE),
        verbless=tuple(_pattern(p) for p in _all(attributions, "patterns")),
        header_field=re.compile(
            rf"^[\s*_]{{0,3}}(?P<name>{_choice(fields)})[\s*_]{{0,3}}[:：]", re.IGNORECASE
        ),
        header_field_inline=re.compile(
            rf"(?<=\s)[*_]{{0,2}}(?P<name>{_choice(fields)})[\s*_]{{0,3}}[:：]", re.IGNORECASE
        ),
        header_kinds=fields,
        separator=re.compile(
            rf"^[\s*]*(?:[-–—=]{{2,}}\s*(?:{_choice(phrases)})\s*:?\s*[-–—=]{{2,}}|_{{10,}})[\s*]*$",
            re.IGNORECASE,
        ),
        html_quote_classes=frozenset(_all(html, "quote_classes")),
        html_quote_ids=frozenset(_all(html, "quote_ids")),
        html_starts_quote_ids=frozenset(_all(html, "starts_quote_ids")),
    )


def _all(entries: Iterable[Mapping[str, Any]], key: str) -> list[str]:
    return [text for entry in entries for text in _texts(entry.get(key, []), key)]


def _texts(value: object, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise RulesError(f"{where}: expected a list of non-empty texts")
    return value


def _words(name: str) -> str:
    return " ".join(name.split())


def _choice(words: Iterable[str]) -> str:
    """One alternation, longest first so "Envoyé le" wins over "Envoyé"; spaces match any run."""
    unique = sorted({_words(w) for w in words}, key=len, reverse=True)
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in unique) or "(?!)"


def _alternation(words: list[str], *, boundaries: bool) -> re.Pattern[str]:
    # A CJK or Hangul verb follows the name with no space ("张三写道"): word boundaries only for words
    # that start and end with a letter of an alphabet.
    bounded = [w for w in words if w[0].isascii() or not _ideographic(w)]
    free = [w for w in words if w not in bounded]
    parts = []
    if bounded:
        parts.append(rf"(?<!\w)(?:{_choice(bounded)})(?!\w)" if boundaries else _choice(bounded))
    if free:
        parts.append(f"(?:{_choice(free)})")
    return re.compile("|".join(parts) or "(?!)", re.IGNORECASE)


def _ideographic(word: str) -> bool:
    return any("\u3040" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" for ch in word)


def _pattern(text: str) -> re.Pattern[str]:
    try:
        return re.compile(text, re.IGNORECASE)
    except re.error as e:
        raise RulesError(f"attribution pattern {text!r}: {e}") from e


# --- the docs' table ---------------------------------------------------------------------------------


def markdown() -> str:
    """The known attribution lines, header fields and separators, as docs/reading-mail.md shows them."""
    data = _read(shipped_dir("config") / "quotes.toml")
    rows = ["| language | attribution verbs | an example |", "|---|---|---|"]
    for entry in data["attribution"]:
        verbs = ", ".join(f"`{v}`" for v in entry["verbs"]) or "(none: a date and an address)"
        rows.append(f"| {entry['language']} | {verbs} | `{entry['examples'][0]}` |")
    fields = data["header_fields"]
    rows += ["", "| header field | its names |", "|---|---|"]
    rows += [f"| {kind} | {', '.join(fields[kind])} |" for kind in HEADER_KINDS]
    rows += ["", "Separators: " + ", ".join(f"`{p}`" for p in data["separators"]["phrases"]) + "."]
    return "\n".join(rows) + "\n"
