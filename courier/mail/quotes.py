"""A reply's own words: the quoted mail cut away, in any mail program's shape and language.

Where the quote starts is recognised the way reply parsers do it (talon, email_reply_parser,
mail-parser-reply): ``>``/``|``-marked lines, an attribution line ("On … wrote:", wrapped onto up to
three lines or written after the reply on the same line), an unquoted header block ("From:/Sent:"),
a separator ("-----Original Message-----"). The patterns are data (``config/quotes.toml``, compiled by
quote_rules.py). From an attribution, a header block or a separator on, nothing is the player's —
unless ``>``-marked lines follow an attribution, where answers may sit between the quoted lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mailparser_reply import EmailMessage as ReplyMessage

from courier.mail.quote_rules import QuoteRules, shipped_rules

__all__ = ["FORWARD", "MAX_ORDER_CHARS", "cut_reply", "is_furniture"]

# Orders come first and are short; cutting a stray newsletter's megabytes would cost seconds.
MAX_ORDER_CHARS = 100_000
SIGNATURE_LANGUAGES = ("en", "de", "fr", "es", "it", "nl")
# Inline forwards as mail programs write them; everything from here on is someone else's text.
FORWARD = re.compile(
    r"^[ \t]*(?:-{3,}[ \t]*(?:forwarded message|weitergeleitete nachricht|message transféré|"
    r"mensaje reenviado|messaggio inoltrato|doorgestuurd bericht|mensagem encaminhada|"
    r"videresendt meddelelse|vidarebefordrat meddelande|videresendt melding)[ \t]*-{3,}|"
    r"begin forwarded message:|anfang der weitergeleiteten nachricht:|"
    r"début du message (?:réexpédié|transféré)\s?:|inicio del mensaje reenviado:|"
    r"inizio messaggio inoltrato:|begin doorgestuurd bericht:)[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
_QUOTE_MARK = re.compile(r"^[ \t]*[>|]")
_TIME = re.compile(r"\d{1,2}[:.]\d{2}")
# A date first: "30 серп. 2016", "ma 23. marrask. 2026", "2016. 11. 8.", "пн, 23 нояб."
_DATE_FIRST = re.compile(r"^\W{0,4}(?:[^\W\d]{1,6}[.,]?\s+)?\d")
_ADDRESSY = re.compile(r"[@<]")
_FURNITURE_EDGES = " \t*_>-–—"
_LONGEST_ATTRIBUTION = 400
# An attribution wraps onto at most this many lines (Gmail's plain text wraps at 78 characters;
# Polymail puts blank lines and the address's brackets on lines of their own).
_WRAPPED = 4
_WRAPPED_SPAN = 6
# An attribution with neither date nor address ("Courier schrieb:") is a name and a verb; with one of
# these words it is the player's own sentence ("As I wrote:").
_SHORT_ATTRIBUTION_WORDS = 6
_FIRST_PERSON = frozenset(
    {"i", "we", "me", "my", "ich", "wir", "je", "j'ai", "nous", "yo", "io", "ik", "wij", "jeg", "vi"}
    | {"jag", "minä", "ja", "я", "мы", "我", "私"}
)
# Hands mail-parser-reply the whole text as one reply: quotes are cut here, it finds signatures.
_NEVER = re.compile(r"(?!)")


def cut_reply(text: str, rules: QuoteRules | None = None) -> str:
    """The player's own lines: quoted lines dropped (so inline and bottom-posted answers survive),
    everything from an attribution, a header block, a separator, a "-- " delimiter or a forward cut,
    then signatures ("Sent from my phone", "Best regards,") cut by mail-parser-reply."""
    own = _own_lines(text[:MAX_ORDER_CHARS].replace("\r\n", "\n").split("\n"), rules or shipped_rules())
    if not own:
        return ""
    message = ReplyMessage(
        text=own, languages=list(SIGNATURE_LANGUAGES), keep_hyphen_lists=True, _header_regex=_NEVER
    )
    without_signature = str(message.read().replies[0].body).strip()
    return without_signature or own  # never let a signature rule swallow the whole message


def _own_lines(lines: list[str], rules: QuoteRules) -> str:
    kept: list[tuple[int, str]] = []
    for index, line in enumerate(lines):
        marked = _QUOTE_MARK.match(line) is not None
        if marked and not _is_bare_verb(_QUOTE_MARK.sub("", line), rules):
            continue
        if not marked and (line.rstrip() == "--" or FORWARD.match(line) or rules.separator.match(line)):
            break
        if not marked and _header_block_at(lines, index, rules):
            break
        found = _attribution_ending_at(lines, index, rules)
        if found is None:
            if not marked:
                kept.append((index, line.rstrip()))
            continue
        start, column = found
        kept = [(i, text) for i, text in kept if i < start]
        if column:
            kept.append((start, lines[start][:column].rstrip(_FURNITURE_EDGES)))
        if not _marked_quote_follows(lines, index):
            break
    # Dropped quotes leave gaps; one blank line is enough.
    return re.sub(r"\n{3,}", "\n\n", "\n".join(text for _, text in kept)).strip()


def _marked_quote_follows(lines: Sequence[str], index: int) -> bool:
    """After "On … wrote:", ">" lines: a quote that answers may be written between."""
    following = next((line for line in lines[index + 1 :] if line.strip()), "")
    return bool(_QUOTE_MARK.match(following))


# --- attributions -----------------------------------------------------------------------------------


def _attribution_ending_at(lines: Sequence[str], end: int, rules: QuoteRules) -> tuple[int, int] | None:
    """(line, column) where an attribution ending with line ``end`` starts, or None. A line that
    opens like one ("On …", a date) and is one wins; then a wrapped one, cut whole (its first line must
    show a date); then one that starts mid-line after the player's words ("loot please On … wrote:")."""
    last = lines[end]
    if _QUOTE_MARK.match(last):  # Polymail's "On … <\nmailto:…>\n> wrote:": only a bare verb
        last = _QUOTE_MARK.sub("", last)
        if not _is_bare_verb(last, rules):
            return None
    tail = last.rstrip(" \t*_")
    if not tail or not (tail[-1] in ":：-–—" or tail[-1].isalpha()):
        return None
    if _opens(last.strip(), rules) and _is_attribution(last, rules):
        return end, 0
    for start in range(max(0, end - _WRAPPED_SPAN + 1), end):
        first = lines[start].strip()
        if not first or _QUOTE_MARK.match(first) or not any(ch.isdigit() for ch in first):
            continue
        parts = [line.strip() for line in lines[start:end] if line.strip()] + [last.strip()]
        if len(parts) > _WRAPPED or any(_QUOTE_MARK.match(part) for part in parts[1:-1]):
            continue
        joined = " ".join(parts)
        columns = [m.start() for m in rules.lead_in.finditer(first)]
        for column in [0, *columns] if _DATE_FIRST.match(first) else columns:
            if _is_attribution(joined[column:], rules):
                return start, _indent(lines[start]) + column
    text = last.strip()
    # Words before a lead-in are the player's, unless they hold an address ("X <x@y> 於 … 寫道：").
    mid_line = [
        m.start()
        for m in rules.lead_in.finditer(text)
        if m.start() and not _ADDRESSY.search(text[: m.start()])
    ]
    for column in [*mid_line, 0]:
        if _is_attribution(text[column:], rules):
            return end, _indent(last) + column
    return None


def _opens(text: str, rules: QuoteRules) -> bool:
    return rules.lead_in.match(text.lstrip(_FURNITURE_EDGES)) is not None or bool(_DATE_FIRST.match(text))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _is_attribution(text: str, rules: QuoteRules) -> bool:
    core = text.strip(_FURNITURE_EDGES)
    if not core or len(core) > _LONGEST_ATTRIBUTION:
        return False
    if any(pattern.search(text.strip(" \t*_")) for pattern in rules.verbless):
        return True
    dashed = text.rstrip(" \t*_").endswith(("--", "——", "––"))
    colon = core.endswith((":", "："))
    core = core.rstrip(":： \t")
    verb = rules.verb.search(core)
    if verb is None:
        return False
    if not re.search(r"[\d@]", core):
        return colon and verb.end() == len(core) and _short_name_and_verb(core)
    opens = rules.lead_in.match(core) is not None
    if colon or dashed:
        return opens or "@" in core or bool(_TIME.search(core)) or bool(_DATE_FIRST.match(core))
    return opens and verb.end() == len(core)  # "On … wrote" without its colon


def _short_name_and_verb(core: str) -> bool:
    words = core.casefold().split()
    return len(words) <= _SHORT_ATTRIBUTION_WORDS and not _FIRST_PERSON.intersection(words)


def _is_bare_verb(text: str, rules: QuoteRules) -> bool:
    """A line that is only an attribution's verb ("wrote:"), the last line of a wrapped one."""
    core = text.strip(_FURNITURE_EDGES)
    if not core.endswith((":", "：")):
        return False
    verb = rules.verb.fullmatch(core.rstrip(":： \t"))
    return verb is not None


# --- header blocks ----------------------------------------------------------------------------------


def _header_block_at(lines: Sequence[str], start: int, rules: QuoteRules) -> bool:
    """A From/Sent/To/Subject block starts here: a From and a date, a date with a time and another
    field, or three fields with a From or a date among them. "From: X / To: Y" alone is not one: a
    player may write such lines."""
    kinds: set[str] = set()
    timed = False
    continued = 0
    for line in lines[start : start + 12]:
        found = _header_kinds(line, rules)
        if found:
            kinds |= found
            timed = timed or ("date" in found and bool(_TIME.search(line)))
            continued = 0
        elif kinds and line.strip() and continued < 2 and not _QUOTE_MARK.match(line):
            continued += 1  # a wrapped field ("From: Courier, the arbiter of / Truce <…>")
        else:
            break
    if {"from", "date"} <= kinds or (timed and len(kinds) >= 2):
        return True
    return len(kinds) >= 3 and bool(kinds & {"from", "date"})


def _header_kind(line: str, rules: QuoteRules) -> str | None:
    match = rules.header_field.match(line)
    if match is None:
        return None
    return rules.header_kinds.get(" ".join(match["name"].split()).casefold())


def _header_kinds(line: str, rules: QuoteRules) -> set[str]:
    """The fields of a line that starts with one; HTML turned to text may hold several on a line."""
    first = _header_kind(line, rules)
    if first is None:
        return set()
    more = (
        rules.header_kinds.get(" ".join(m["name"].split()).casefold())
        for m in rules.header_field_inline.finditer(line)
    )
    return {first, *(kind for kind in more if kind)}


# --- the receipt's view ---------------------------------------------------------------------------


def is_furniture(line: str, rules: QuoteRules | None = None) -> bool:
    """Whether a line is quote furniture (an attribution, a header field, a separator), which a
    receipt must never quote back as "not an order"."""
    rules = rules or shipped_rules()
    return bool(
        rules.separator.match(line)
        or _header_kind(line, rules)
        or _attribution_ending_at([line], 0, rules)
        or FORWARD.match(line)
    )
