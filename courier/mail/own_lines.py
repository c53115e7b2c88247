"""Lines of Courier's own mail, so that a quote the cut missed never becomes an order (issue 26).

A mail program that quotes without ``>`` and without an attribution line Courier knows leaves the
whole receipt or report in the reply's text, and its echo of the player's standing orders would be
read as new orders. So every mail Courier sends is kept as short digests of its lines
(``SentLines``, in the journal beside the outbox), in three kinds:

- an order echo: a line that repeats the player's orders (a receipt's, a reminder's);
- the order form: the copy-me block and its heading, which a player may rightly copy and fill in
  (and other words a player may write again: an answer's order syntax, relayed press);
- the rest: the greeting, headings, results, the deadline line, the footer.

A line of the rest is evidence that an unmarked quote starts (no player writes "Hello Agatha,"), so
``without_quoted`` drops, from the first such line on, every line that equals a line of the mail
being answered. Lines above it are the player's new text and stay, even when they repeat an echoed
order; lines below it that differ from the sent mail (an inline answer, a filled-in form line such
as ``action: loot`` under ``action:``) stay too.
"""

from __future__ import annotations

import functools
import hashlib
import html
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

__all__ = ["SentLines", "html_lines", "line_digest", "normal_line", "without_quoted"]

# A digest is 8 bytes of BLAKE2b: a report of 200 lines is 1.8 kB in the journal, and two distinct
# lines of one mail share a digest with odds of about one in 10^15.
DIGEST_SIZE = 8
_ECHO, _FORM, _TEXT = b"e", b"f", b"t"
_ENTRY = 1 + DIGEST_SIZE  # a kind byte, then the digest

# What quoting and list rendering put before a line: `>`/`|` quote marks, a bullet.
_LEAD = re.compile(r"^(?:[\s>|]+|[-*•]\s+)+")


def normal_line(line: str) -> str:
    """A line as any quoting would leave it: without quote marks, bullet and outer spaces, its
    spaces collapsed, case folded. ``"> >  Hello  Agatha,"`` → ``"hello agatha,"``."""
    return " ".join(_LEAD.sub("", line).split()).casefold()


@functools.lru_cache(maxsize=8192)  # a round's reports share most lines: each is digested once
def line_digest(line: str) -> bytes | None:
    """The digest of a line's normal form; None for a line with nothing on it."""
    normal = normal_line(line)
    if not normal:
        return None
    return hashlib.blake2b(normal.encode("utf-8"), digest_size=DIGEST_SIZE).digest()


# Courier's own HTML as a mail program shows it, line by line: a few regular expressions, not a parser
# (a parser cost twice the whole composing of the mail). Block tags break lines, table cells are spaced.
_UNSHOWN = re.compile(r"<(head|style|script)\b.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_PRE = re.compile(r"(<pre\b.*?</pre\s*>)", re.IGNORECASE | re.DOTALL)  # its line breaks are shown
_BLOCK = re.compile(
    r"</?(?:p|div|li|ul|ol|dl|dt|dd|tr|table|h[1-6]|pre|blockquote|hr|br|section|header|footer)\b[^>]*>",
    re.IGNORECASE,
)
_CELL = re.compile(r"<t[dh]\b[^>]*>", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")


def html_lines(body: str) -> list[str]:
    """The lines a mail program shows for an HTML body Courier wrote (paragraphs unwrapped)."""
    parts = _PRE.split(_UNSHOWN.sub("", body))
    flowed = "".join(part if i % 2 else " ".join(part.split()) for i, part in enumerate(parts))
    shown = _TAG.sub("", _CELL.sub(" ", _BLOCK.sub("\n", flowed)))
    return html.unescape(shown).splitlines()


def _digests(lines: Iterable[str]) -> frozenset[bytes]:
    return frozenset(d for d in map(line_digest, set(lines)) if d is not None)


@dataclass(frozen=True)
class SentLines:
    """The digests of one or more sent mails' lines, by kind (see the module's docstring)."""

    echoes: frozenset[bytes] = frozenset()
    form: frozenset[bytes] = frozenset()
    text: frozenset[bytes] = frozenset()

    @classmethod
    def of(cls, lines: Iterable[str], *, echoes: Iterable[str], form: Iterable[str]) -> SentLines:
        """Sort a mail's ``lines`` by kind: an echo when it equals one of ``echoes`` (the orders the
        mail repeats), form when it equals a line of ``form``, else text."""
        echo_set, form_set = _digests(echoes), _digests(form)
        every = _digests(lines)
        return cls(
            echoes=every & echo_set,
            form=(every & form_set) - echo_set,
            text=every - echo_set - form_set,
        )

    def pack(self) -> bytes:
        """The journal's form: a kind byte and a digest per line, in a stable order."""
        return b"".join(
            kind + digest
            for kind, digests in ((_ECHO, self.echoes), (_FORM, self.form), (_TEXT, self.text))
            for digest in sorted(digests)
        )

    @classmethod
    def unpack(cls, packed: bytes) -> SentLines:
        found: dict[bytes, set[bytes]] = {_ECHO: set(), _FORM: set(), _TEXT: set()}
        for start in range(0, len(packed) - _ENTRY + 1, _ENTRY):
            entry = packed[start : start + _ENTRY]
            found.setdefault(entry[:1], set()).add(entry[1:])
        return cls(frozenset(found[_ECHO]), frozenset(found[_FORM]), frozenset(found[_TEXT]))

    def __or__(self, other: SentLines) -> SentLines:
        return SentLines(self.echoes | other.echoes, self.form | other.form, self.text | other.text)

    @property
    def every(self) -> frozenset[bytes]:
        return self.echoes | self.form | self.text


def without_quoted(text: str, sent: SentLines, *, is_order: Callable[[str], bool]) -> str:
    """``text`` without the lines quoted from ``sent`` (the mails it answers).

    The quote starts at the first line that equals a text line of ``sent`` (not an echo, not the
    form) and that the game would not read as an order (``is_order``: a report may list results
    in the words of orders, and a player may send such a line as new text). From there on, every
    line equal to a line of ``sent`` goes; everything else stays."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if _starts_quote(line, sent, is_order)), None)
    if start is None:
        return text
    every = sent.every
    kept = lines[:start] + [line for line in lines[start:] if line_digest(line) not in every]
    # Dropped lines leave gaps; one blank line is enough.
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()


def _starts_quote(line: str, sent: SentLines, is_order: Callable[[str], bool]) -> bool:
    digest = line_digest(line)
    return digest is not None and digest in sent.text and not is_order(line)
