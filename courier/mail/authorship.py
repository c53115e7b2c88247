"""Who really sent a mail: the author from ``From:`` as mail programs and DMARC read it, and the
receiving server's verdict in Authentication-Results (RFC 8601), believed only from trusted servers.

Pure string work on header values; ``mailtext.read_mail`` calls it.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from email.header import decode_header, make_header
from email.utils import getaddresses

__all__ = ["Author", "auth_passed", "auth_refusal", "author_of", "receiving_results"]


@dataclass(frozen=True)
class Author:
    name: str
    address: str  # bare addr-spec, lower case ("" if none)
    problem: str | None  # why the From cannot be trusted to name one author, or None


_ANGLE = re.compile(r"<([^<>]*)>")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')  # a quoted display name, escapes and all


def author_of(from_values: Sequence[str]) -> Author:
    """The addr-spec in angle brackets is the author, whatever the display name says (so
    ``agatha@players.example <evil@x.example>`` is evil's mail, as DMARC sees it). A mail with two
    From headers or two mailboxes in one has no single author: its first address is kept, so the
    registered player it names is told, and the mail is refused."""
    if not from_values:
        return Author("", "", None)
    value = from_values[0]
    problem = "it has more than one From header" if len(from_values) > 1 else None
    # Angle brackets inside a quoted name (`"<b>Agatha</b>" <agatha@…>`) hold no address: blank the
    # quoted part, keeping every offset, before looking for them.
    bare = _QUOTED.sub(lambda quoted: " " * len(quoted.group(0)), value)
    angles = _ANGLE.findall(bare)
    if angles:
        name = value[: bare.find("<")].strip().strip('"').strip()
        extra = len(angles) > 1 or "@" in bare[bare.rfind(">") + 1 :]
        address = angles[0] if extra else angles[-1]
    else:
        found = [(n, a) for n, a in getaddresses([value]) if a] or [("", "")]
        name, address = found[0]
        extra = len(found) > 1
    if extra:
        problem = problem or "its From header names more than one mailbox"
    return Author(_decoded(name), address.strip().lower(), problem)


def _decoded(name: str) -> str:
    """RFC 2047 words in the display name, decoded only after the address was found (decoded first,
    an encoded ``<agatha@…>`` would become an address)."""
    with contextlib.suppress(ValueError, LookupError, UnicodeError):
        name = str(make_header(decode_header(" ".join(name.split()))))
    return " ".join(name.split())


# --- Authentication-Results --------------------------------------------------------------------------

# Trace fields a receiving server writes beside its Received line (Gmail puts its verdict just below).
_TRACE = frozenset(
    {
        "authentication-results",
        "received-spf",
        "arc-seal",
        "arc-message-signature",
        "arc-authentication-results",
        "return-path",
        "delivered-to",
        "x-received",
        "x-original-to",
    }
)
_FROM_CLAUSE = re.compile(r"^\s*from\s", re.IGNORECASE)


def receiving_results(headers: Sequence[tuple[str, str]]) -> list[str]:
    """The Authentication-Results values the receiving side wrote, from the message's headers in order
    (RFC 8601, sections 5 and 7.1). The border server's Received line is the first with a ``from``
    clause (the hops above it are the receiver's own); its verdicts stand above it or in the trace
    fields just below it. Anything further down came with the mail, whoever claims to have written it.
    Of several verdicts by one server, the topmost (the last added) counts. A mail with no such
    Received line (dropped in a Maildir by hand, as the tests do) has no other verdicts to tell apart."""
    named = [(key.lower(), value) for key, value in headers]
    border = next((i for i, (k, v) in enumerate(named) if k == "received" and _FROM_CLAUSE.match(v)), None)
    end = len(named)
    if border is not None:
        end = border + 1
        while end < len(named) and named[end][0] in _TRACE:
            end += 1
    topmost: dict[str, str] = {}
    for key, value in named[:end]:
        if key == "authentication-results":
            topmost.setdefault(_authserv_id(value), value)
    return list(topmost.values())


_CLAUSE = re.compile(r"^\s*(dkim|dmarc|spf|arc)\s*=\s*([a-z]+)\b(.*)$", re.IGNORECASE | re.DOTALL)
_PROPERTY = re.compile(r"\bheader\.(from|d|i)\s*=\s*\"?([^\s;\"]+)", re.IGNORECASE)
# Never a pass: a failure, a broken signature or record, or no verdict at all.
_FAILED = frozenset({"fail", "permerror"})


@dataclass(frozen=True)
class _Clause:
    method: str
    result: str
    properties: dict[str, str]
    text: str


def auth_refusal(
    results: Sequence[str], *, sender: str, trusted: Collection[str], require_pass: bool
) -> str | None:
    """Why the receiving server's verdict refuses this mail, or None.

    Always refused: a DKIM or DMARC ``fail``/``permerror`` (SPF alone breaks on every forwarder), and a
    DMARC verdict about another domain than the sender's (``header.from``). With ``require_pass``, the
    mail must also show DKIM pass aligned with the sender's domain or DMARC pass; a missing verdict,
    ``none``, ``neutral``, ``policy`` or ``temperror`` refuses it."""
    clauses = _believed_clauses(results, trusted)
    domain = sender.rpartition("@")[2]
    failing = [c.text for c in clauses if c.method in ("dkim", "dmarc") and c.result in _FAILED]
    if failing:
        return "the receiving server reported " + "; ".join(failing)
    misaligned = [
        c.text
        for c in clauses
        if c.method == "dmarc" and not _aligned(c.properties.get("from", domain), domain)
    ]
    if misaligned:
        return f"the receiving server's DMARC check was for another domain than {domain} ({misaligned[0]})"
    if require_pass and not any(_passes(c, domain) for c in clauses):
        seen = "; ".join(c.text for c in clauses if c.method in ("dkim", "dmarc")) or "no verdict"
        return f"no trusted server confirmed it came from {domain} (DKIM or DMARC pass needed; saw {seen})"
    return None


def auth_passed(results: Sequence[str], *, sender: str, trusted: Collection[str]) -> bool:
    """Whether a trusted server saw an aligned DKIM or DMARC pass: proof beyond the From line. Only
    with ``trusted`` servers named: unnamed, any header a sender wrote is believed, so none proves."""
    domain = sender.rpartition("@")[2]
    return bool(trusted) and any(_passes(c, domain) for c in _believed_clauses(results, trusted))


def _believed_clauses(results: Sequence[str], trusted: Collection[str]) -> list[_Clause]:
    trusted_ids = {t.strip().lower() for t in trusted}
    clauses = []
    for value in results:
        if trusted_ids and _authserv_id(value) not in trusted_ids:
            continue
        for part in value.split(";")[1:]:
            found = _CLAUSE.match(part)
            if found:
                properties = {k.lower(): v.lower() for k, v in _PROPERTY.findall(found.group(3))}
                clauses.append(
                    _Clause(
                        found.group(1).lower(), found.group(2).lower(), properties, " ".join(part.split())
                    )
                )
    return clauses


def _passes(clause: _Clause, domain: str) -> bool:
    if clause.result != "pass":
        return False
    if clause.method == "dmarc":
        return _aligned(clause.properties.get("from", domain), domain)
    if clause.method == "dkim":
        signer = clause.properties.get("d") or clause.properties.get("i", "").rpartition("@")[2]
        return bool(signer) and _aligned(signer, domain)
    return False


def _aligned(other: str, domain: str) -> bool:
    """DMARC's relaxed alignment, approximated without the public suffix list: the same domain, or one
    a subdomain of the other, never a bare top-level domain (``d=test`` aligns with nothing)."""
    other, domain = other.lower().strip("."), domain.lower().strip(".")
    if "." not in other or "." not in domain:
        return False
    return other == domain or other.endswith("." + domain) or domain.endswith("." + other)


_INNERMOST_COMMENT = re.compile(r"\((?:[^()\\]|\\.)*\)")


def _authserv_id(value: str) -> str:
    """``mx.google.com; dkim=pass …`` → ``mx.google.com`` (RFC 8601: the id, then an optional version).
    Comments may stand around the id (``(c) mx.google.com; …``): they are dropped, innermost first."""
    head = value.split(";", 1)[0]
    while True:
        unwrapped = _INNERMOST_COMMENT.sub(" ", head)
        if unwrapped == head:
            break
        head = unwrapped
    words = head.split()
    return words[0].lower() if words else ""
