"""Incoming mail → the facts the tick needs: who sent it, to which address, whether it must never be
answered, whether the receiving server saw a forgery, and the order text with quotes and signatures cut.

Pure: bytes in, a frozen ``IncomingMail`` out. A merely malformed message comes back with empty
fields, and the caller's receipt says so. A message shaped to break the standard library's parser
(thousands of nested comments, MIME nested a thousand deep) is refused before parsing, and anything
else that goes wrong while reading one message becomes ``UnreadableMail``: one mail never stops a tick.
"""

from __future__ import annotations

import email
import email.policy
import re
import tomllib
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.utils import getaddresses, parseaddr
from functools import cache

from courier.data import shipped_dir
from courier.mail.authorship import auth_passed, auth_refusal, author_of, receiving_results
from courier.mail.html_text import html_to_text
from courier.mail.quote_rules import QuoteRules, shipped_rules
from courier.mail.quotes import FORWARD, MAX_ORDER_CHARS, cut_reply
from courier.screenful import printable, shorten

__all__ = [
    "IncomingMail",
    "UnreadableMail",
    "cut_reply",
    "game_tag",
    "html_to_text",
    "plus_tag",
    "raw_message_id",
    "read_mail",
]

# HTML carries several times its text in markup; cut it before converting (a 20 MB page is no order).
MAX_HTML_CHARS = 10 * MAX_ORDER_CHARS
# Limits no real client's mail comes near, far below where the standard library's recursive parsers
# fail: a header's comment nesting, MIME parts nested in one another, and the header block's size.
MAX_COMMENT_DEPTH = 32
MAX_MIME_DEPTH = 40
MAX_HEADER_BYTES = 512 * 1024


class UnreadableMail(Exception):
    """A message that cannot be read safely; the reason is for the journal and the log."""


@dataclass(frozen=True)
class IncomingMail:
    sender: str  # bare addr-spec from From:, lower case ("" if none)
    sender_name: str
    subject: str
    message_id: str  # "<id@host>" or ""
    in_reply_to: str
    recipients: tuple[str, ...]  # To, Cc, Delivered-To, X-Original-To, Envelope-To; lower case, no repeats
    text: str  # the player's own words: quotes, attributions and signatures cut
    full_text: str  # the whole body as text, before cutting
    automatic: str | None  # why this message must never be answered, or None
    refusal: str | None  # why it must not count though its From is registered (forgery, two authors)
    forwarded: bool = False  # it carried forwarded text (inline or attached), which was not read
    references: tuple[str, ...] = ()  # the References header's Message-IDs, oldest first
    authenticated: bool = False  # a trusted server saw an aligned DKIM or DMARC pass


def read_mail(
    raw: bytes,
    *,
    trusted_authserv_ids: Collection[str] = (),
    require_pass: bool = False,
    quotes: QuoteRules | None = None,
) -> IncomingMail:
    """Everything interpretation needs from one raw message. When ``trusted_authserv_ids`` is given,
    only Authentication-Results headers added by those servers are believed; ``require_pass`` refuses
    a mail they do not show as DKIM- or DMARC-authenticated (``courier.authorship``). ``quotes`` are
    the patterns that find the quoted part (default: config/quotes.toml's)."""
    refusal = _screen(raw)
    if refusal:
        raise UnreadableMail(refusal)
    try:
        return _read(raw, trusted_authserv_ids, require_pass, quotes or shipped_rules())
    except Exception as e:  # whatever a hostile shape finds in the parser, this mail alone is lost
        raise UnreadableMail(f"{type(e).__name__} while reading it") from e


def _read(
    raw: bytes, trusted_authserv_ids: Collection[str], require_pass: bool, quotes: QuoteRules
) -> IncomingMail:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)  # policy.default always builds EmailMessage
    # The raw From, not the policy's reading of it: that drops `<evil@x>` after an address-like name.
    headers = [(key, _unescaped(str(value))) for key, value in msg.raw_items()]
    author = author_of([v for k, v in headers if k.lower() == "from"])
    sender = author.address
    results = receiving_results(headers)
    verdict = auth_refusal(results, sender=sender, trusted=trusted_authserv_ids, require_pass=require_pass)
    full_text = printable(_body_text(msg, quotes))
    return IncomingMail(
        sender=sender,
        sender_name=printable(author.name),
        subject=printable(" ".join(_header(msg, "Subject").split())),
        message_id=_msg_id(_header(msg, "Message-ID")),
        in_reply_to=_msg_id(_header(msg, "In-Reply-To")),
        recipients=_recipients(msg),
        text=cut_reply(full_text, quotes),
        full_text=full_text,
        automatic=_automatic(msg, sender),
        refusal=author.problem or verdict,
        forwarded=_attached_message(msg) or bool(FORWARD.search(full_text[:MAX_ORDER_CHARS])),
        references=tuple(re.findall(r"<[^<>\s]+>", _header(msg, "References"))),
        authenticated=verdict is None and auth_passed(results, sender=sender, trusted=trusted_authserv_ids),
    )


# --- screening before parsing -----------------------------------------------------------------------

_MIME_CONTAINER = re.compile(rb"^content-type:[ \t]*(?:multipart|message)/", re.IGNORECASE | re.MULTILINE)


def _screen(raw: bytes) -> str | None:
    """Why this message must not reach the parser, or None. Cheap: a few scans of the bytes."""
    header_block = _header_block(raw)
    if len(header_block) > MAX_HEADER_BYTES:
        return f"its headers are {len(header_block):,} bytes long"
    depth = _comment_depth(header_block)
    if depth > MAX_COMMENT_DEPTH:
        return f"a header nests {depth} comments"
    containers = len(_MIME_CONTAINER.findall(raw))
    if containers > MAX_MIME_DEPTH:
        return f"it holds {containers} nested MIME containers"
    return None


def _header_block(raw: bytes) -> bytes:
    ends = [i for i in (raw.find(b"\n\n"), raw.find(b"\r\n\r\n")) if i >= 0]
    return raw[: min(ends)] if ends else raw


def _comment_depth(header_block: bytes) -> int:
    """The deepest ``(`` nesting within any one header (continuation lines belong to their header)."""
    if header_block.count(b"(") <= MAX_COMMENT_DEPTH:
        return header_block.count(b"(")  # cannot nest deeper than it has parentheses
    deepest = depth = 0
    escaped = False
    for line in header_block.splitlines():
        if line[:1] not in (b" ", b"\t"):
            depth = 0
        for byte in line:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash quotes the next character
                escaped = True
            elif byte == 0x28:
                depth += 1
                deepest = max(deepest, depth)
            elif byte == 0x29:
                depth = max(0, depth - 1)
    return deepest


def raw_message_id(raw: bytes) -> str:
    """The Message-ID for the journal's duplicate check, read without the structured-header parser
    (which a hostile Message-ID can send into deep recursion)."""
    found = re.search(rb"^message-id:[ \t]*((?:.*)(?:\r?\n[ \t].*)*)", _header_block(raw), re.I | re.M)
    value = found.group(1).decode("latin-1") if found else ""
    return _msg_id(" ".join(value.split()))[:998]


# --- headers ---------------------------------------------------------------------------------------


def _header_values(msg: EmailMessage, name: str) -> list[str]:
    """Every value of one header, decoded. The policy's parser can raise on some malformed headers;
    the raw value is better than losing the message."""
    try:
        return [_unescaped(str(value)) for value in msg.get_all(name, [])]
    except Exception:  # any parser bug must degrade to the raw text
        return [_unescaped(str(v)) for k, v in msg.raw_items() if k.lower() == name.lower()]


def _unescaped(value: str) -> str:
    """Raw 8-bit bytes in a header (sent unencoded) reach us as surrogates, which no journal or mail can
    store: read them as the UTF-8 they almost always are, anything else as U+FFFD."""
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _header(msg: EmailMessage, name: str) -> str:
    return ", ".join(_header_values(msg, name))


def _msg_id(value: str) -> str:
    found = re.search(r"<[^<>\s]+>", value)
    if found:
        return found.group()
    bare = value.strip().split()
    return f"<{bare[0]}>" if bare else ""


_RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")


def _recipients(msg: EmailMessage) -> tuple[str, ...]:
    values = [_header(msg, name) for name in _RECIPIENT_HEADERS]
    found: dict[str, None] = {}
    for _name, addr in getaddresses([v for v in values if v]):
        if "@" in addr:
            found[addr.strip().lower()] = None
    return tuple(found)


_AUTOMATIC_FLAGS = ("X-Autoreply", "X-Autorespond", "X-Autogenerated", "X-Failed-Recipients")
_DAEMONS = ("mailer-daemon", "postmaster")


def _automatic(msg: EmailMessage, sender: str) -> str | None:
    """RFC 3834 and the older conventions autoresponders, list servers and bounces follow."""
    auto_submitted = _header(msg, "Auto-Submitted").strip()
    if auto_submitted and auto_submitted.split(";")[0].strip().lower() != "no":
        return f"Auto-Submitted: {auto_submitted}"
    precedence = _header(msg, "Precedence").strip()
    if precedence.lower() not in _autoreplies()["ordinary_precedence"]:
        return f"Precedence: {precedence}"
    for flag in _AUTOMATIC_FLAGS:
        if flag in msg:
            return f"{flag}: {_header(msg, flag).strip()}"
    if "List-Id" in msg:
        return f"sent through a mailing list (List-Id: {_header(msg, 'List-Id').strip()})"
    if "Return-Path" in msg and _header(msg, "Return-Path").strip() in ("<>", ""):
        return "empty Return-Path <> (a bounce or other notification)"
    if sender.split("@")[0] in _DAEMONS:
        return f"sent by {sender}"
    if msg.get_content_type() == "multipart/report":
        report_type = msg.get_param("report-type", "")
        return f"multipart/report ({report_type or 'report'}), a bounce or receipt"
    return _automatic_subject(" ".join(_header(msg, "Subject").split()))


def _automatic_subject(subject: str) -> str | None:
    """Autoresponders that set no header still announce themselves in the subject's first words."""
    folded = subject.casefold()
    for prefix in _autoreplies()["subject_prefixes"]:
        if folded.startswith(prefix.casefold()) and not folded[len(prefix) : len(prefix) + 1].isalnum():
            return f"an automatic reply (subject “{shorten(subject)}”)"
    return None


@cache
def _autoreplies() -> dict[str, list[str]]:
    data = tomllib.loads((shipped_dir("config") / "autoreplies.toml").read_text(encoding="utf-8"))
    return {"subject_prefixes": data["subject_prefixes"], "ordinary_precedence": data["ordinary_precedence"]}


# --- subject and address tags ----------------------------------------------------------------------

# One reply or forward prefix in the languages we read: "Re:", "AW[2]:", "Fwd(3):".
REPLY_WORD = r"(?:re|fwd?|aw|wg|sv|vs|antw|tr|rv)\s*(?:\[\d+\]|\(\d+\))?\s*:\s*"
_REPLY_PREFIX = re.compile(rf"^\s*(?:{REPLY_WORD})+", re.I)
_TAG = re.compile(r"\[([a-z0-9][a-z0-9_.-]*)\]", re.IGNORECASE)
# Markers that mail filters put in subjects; never a game.
_FILTER_TAGS = frozenset({"spam", "external", "ext", "extern", "extern-mail", "bulk", "suspicious", "phish"})


def game_tag(subject: str) -> str | None:
    """The first ``[game-id]`` in a subject, lower case: ``Re: AW: [Truce-1] orders`` → ``truce-1``."""
    rest = _REPLY_PREFIX.sub("", subject)
    for found in _TAG.finditer(rest):
        tag = found.group(1).lower()
        if tag not in _FILTER_TAGS:
            return tag
    return None


def plus_tag(address: str) -> str | None:
    """``orders+truce-1@x.org`` (or ``Orders <orders+Truce-1@x.org>``) → ``truce-1``."""
    local = parseaddr(address)[1].rpartition("@")[0]
    _base, plus, tag = local.partition("+")
    return tag.lower() if plus and tag else None


# --- body ------------------------------------------------------------------------------------------


def _body_text(msg: EmailMessage, quotes: QuoteRules) -> str:
    """The plain part when it says anything, else the HTML part as text."""
    plain = _find_part(msg, "plain")
    text = _decode(plain)[:MAX_HTML_CHARS] if plain is not None else ""
    if not text.strip():
        html = _find_part(msg, "html")
        if html is not None:
            text = html_to_text(_decode(html)[:MAX_HTML_CHARS], quotes)
    return text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")


def _find_part(msg: EmailMessage, subtype: str) -> Message | None:
    """The sender's own text part: never one inside a forwarded (attached) message."""
    own = list(_own_parts(msg))
    try:
        body = msg.get_body(preferencelist=(subtype,))
    except Exception:  # a broken MIME tree falls back to the walk below
        body = None
    if body is not None and any(part is body for part in own):
        return body
    for part in own:  # get_body skips e.g. text parts inside multipart/report
        if part.get_content_type() == f"text/{subtype}" and part.get_content_disposition() != "attachment":
            return part
    return None


def _own_parts(msg: Message) -> Iterator[Message]:
    """Every part but those inside an attached message (message/rfc822 and the like), at any depth."""
    stack = [msg]
    while stack:
        part = stack.pop()
        yield part
        if part.get_content_maintype() == "message" and part is not msg:
            continue
        payload = part.get_payload()
        if isinstance(payload, list):
            stack.extend(reversed([p for p in payload if isinstance(p, Message)]))


def _attached_message(msg: Message) -> bool:
    return any(p.get_content_type() in _FORWARDED_TYPES for p in _own_parts(msg) if p is not msg)


_FORWARDED_TYPES = frozenset({"message/rfc822", "message/global"})


_LATIN1_LABELS = frozenset({"iso-8859-1", "iso8859-1", "latin-1", "latin1", "l1"})


def _decode(part: Message) -> str:
    """get_content() raises on unknown charsets and garbles UTF-8 labelled us-ascii; decode the bytes
    ourselves with a fallback chain instead."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    declared = part.get_content_charset() or "utf-8"
    # As browsers do (WHATWG Encoding): mail labelled Latin-1 is Windows-1252 in practice, whose
    # "…" and curly quotes would otherwise become invisible control characters.
    declared = "cp1252" if declared.lower() in _LATIN1_LABELS else declared
    for charset in (declared, "utf-8", "cp1252"):
        try:
            return payload.decode(charset)
        except (LookupError, UnicodeDecodeError):
            continue
    return payload.decode("latin-1")  # never fails: every byte is a character


@dataclass(frozen=True)
class Letter:
    """An input reduced to what interpretation needs, whatever its source."""

    sender: str
    subject: str
    message_id: str
    tags: tuple[str, ...]  # game ids named by subject tag or plus-address
    text: str
    secret: str | None  # a form's Secret column; mail carries it as a `secret:` line
    refusal: str | None  # why this mail must not count (auth failure), to tell the real player
    silent: str | None  # why this input is dropped without any reply (auto-reply, our own mail)
    forwarded: bool = False  # forwarded text was left out of ``text``
    in_reply_to: str = ""  # a reply to relayed press goes back to its author
    references: tuple[str, ...] = ()  # the mails it answers, with ``in_reply_to`` (courier.mail.own_lines)
    authenticated: bool = False  # a trusted DKIM/DMARC pass: more than a From line (``IncomingMail``)
    sender_name: str = ""  # the From line's name, told to the organiser when the address is a stranger's
