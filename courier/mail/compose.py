"""Compose Courier's outgoing mail: one context dataclass per kind of message, one ``compose``.

Each kind has a template pair ``common/<kind>.txt.j2`` and ``common/<kind>.html.j2``; the template
sees the fields of ``MailContext`` and of the kind's context as plain variables. Everything in the
message is a function of the arguments (no clock, no random boundary), so composing the same outbox
row twice gives the same bytes and the same Message-ID.
"""

from __future__ import annotations

import binascii
import dataclasses
import email.policy
import email.utils
import functools
import hashlib
import io
import itertools
import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email.generator import BytesGenerator
from email.header import Header
from email.headerregistry import BaseHeader, HeaderRegistry
from email.message import EmailMessage
from typing import TYPE_CHECKING, Any, ClassVar

import jinja2

from courier.config.schedule import DAY_NAMES, MONTH_NAMES
from courier.journal.interface import picture_line
from courier.mail.calendar import DeadlineEvent, calendar_bytes
from courier.mail.own_lines import SentLines, html_lines
from courier.mail.render import inline_styles, render_template

if TYPE_CHECKING:
    from engine.core import LineError

__all__ = [
    "KINDS",
    "AnswerContext",
    "AnyContext",
    "Composed",
    "ErrorContext",
    "GameOverContext",
    "MailContext",
    "MailPicture",
    "NoticeContext",
    "OrganiserContext",
    "PressContext",
    "ReceiptContext",
    "ReminderContext",
    "ReportContext",
    "WelcomeContext",
    "compose",
    "is_our_message_id",
    "message_id_for",
    "subject_for",
]


@dataclass(frozen=True, kw_only=True)
class MailContext:
    """What every message knows: the game, the phase it is about and who it is for.

    ``deadline_text`` is already formatted in the game's zone and UTC (``""`` when there is none);
    ``order_template`` is the block a player copies into the next mail (``""`` when none).
    ``deadline_at`` is the same instant in the game's zone, ``deadline_key`` the phase it closes:
    with both the mail carries the deadline as a calendar event; with the key alone (a paused
    game) the event is cancelled. ``news`` are lines that waited for this mail (courier/state/news.py:
    a gift, an absence), told under "News since your last mail".
    """

    game_id: str
    game_title: str
    phase_label: str
    recipient_name: str
    recipient_email: str
    deadline_text: str = ""
    order_template: str = ""
    deadline_at: datetime | None = None
    deadline_key: str = ""
    # What the open phase asks of the recipient (courier/mail/now.py): ``awaited`` when the game
    # waits for their orders, ``asked`` the game's words for it ("Vote now: Disarmament").
    awaited: bool = True
    asked: str = ""
    absent_default: str = ""  # what the default does for a silent player ("you pass"), "" if untold
    news: Sequence[str] = ()


@dataclass(frozen=True, kw_only=True)
class ReceiptContext:
    """The echo of one player's mail. ``phase_label`` is the phase the orders count for, which
    is the next one when ``late``. ``standing`` are the orders that now stand for it; ``kept`` when
    the game kept orders from before the phase (then none standing is no absence)."""

    kind: ClassVar[str] = "receipt"
    mail: MailContext
    orders: Sequence[str] = ()
    errors: Sequence[LineError] = ()
    notes: Sequence[str] = ()
    standing: Sequence[str] = ()
    late: bool = False
    kept: bool = False


@dataclass(frozen=True, kw_only=True)
class ReportContext:
    """A round's results. ``phase_label`` is the round resolved; the deadline and the order template
    are for ``next_phase_label``. ``private_lines`` are the events only this player may see."""

    kind: ClassVar[str] = "report"
    mail: MailContext
    public_lines: Sequence[str] = ()
    private_lines: Sequence[str] = ()
    ledger_headers: Sequence[str] = ()
    ledger_rows: Sequence[Sequence[str]] = ()
    next_phase_label: str = ""
    headline: str = ""  # the recipient's own result of the round, one line (the game's ``headline``)
    window_title: str = ""  # a window opened, nothing resolved yet: the game's words (``Windowed``)
    window_intro: str = ""


@dataclass(frozen=True, kw_only=True)
class ReminderContext:
    kind: ClassVar[str] = "reminder"
    mail: MailContext
    standing: Sequence[str] = ()


@dataclass(frozen=True, kw_only=True)
class ErrorContext:
    """Why a mail could not be used at all (not registered, which game?). ``mail.game_id`` may be
    ``""`` when the game could not be told."""

    kind: ClassVar[str] = "error"
    mail: MailContext
    reason: str
    quoted_subject: str = ""


@dataclass(frozen=True, kw_only=True)
class NoticeContext:
    """Events that took effect on receipt (a Truce gift), announced between reports."""

    kind: ClassVar[str] = "notice"
    mail: MailContext
    lines: Sequence[str] = ()


@dataclass(frozen=True, kw_only=True)
class GameOverContext(ReportContext):
    """The last report. ``ranking`` is best first; players sharing a place share an inner list.
    ``ended_during`` names the phase during which the organiser ended the game (no round was
    resolved: no results, the standings then are final, ``reason`` says by what measure)."""

    kind: ClassVar[str] = "game_over"
    winners: Sequence[str] = ()
    ranking: Sequence[Sequence[str]] = ()
    seed: str = ""
    seed_hash: str = ""
    ended_during: str = ""
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class OrganiserContext:
    """A config or delivery problem only the organiser can fix; the game is ``mail.game_id``."""

    kind: ClassVar[str] = "organiser"
    mail: MailContext
    problem: str


@dataclass(frozen=True, kw_only=True)
class WelcomeContext:
    """Game start. ``seed_hash`` is the SHA-256 of the secret seed, revealed at the end."""

    kind: ClassVar[str] = "welcome"
    mail: MailContext
    players: Sequence[str] = ()
    rules_summary: str = ""
    seed_hash: str = ""
    private_lines: Sequence[str] = ()  # what only this player learns at the start (a secret role)
    took_over: str = ""  # the seat a substitute takes over in a game under way (``replace``)


@dataclass(frozen=True, kw_only=True)
class AnswerContext:
    """The arbiter's answer to a command (by mail or CLI): what was done or refused, a player's status,
    the order syntax; or a notice from the arbiter to everybody (``topic`` is the subject's words)."""

    kind: ClassVar[str] = "answer"
    mail: MailContext
    topic: str
    lines: Sequence[str] = ()
    block: str = ""  # preformatted text shown as it is (an order syntax, a notice's words)


@dataclass(frozen=True, kw_only=True)
class PressContext:
    """Press relayed by the arbiter in its own mail. ``author`` is a seat's name, or ``""`` for
    anonymous press; the sender's address never appears."""

    kind: ClassVar[str] = "press"
    mail: MailContext
    author: str
    addressees: Sequence[str] = ()
    text: str = ""
    reply: bool = False  # an answer to a press mail, relayed back to its author


AnyContext = (
    AnswerContext
    | PressContext
    | ReceiptContext
    | ReportContext
    | ReminderContext
    | ErrorContext
    | NoticeContext
    | GameOverContext
    | OrganiserContext
    | WelcomeContext
)

KINDS: dict[str, type[AnyContext]] = {
    c.kind: c
    for c in (
        AnswerContext,
        PressContext,
        ReceiptContext,
        ReportContext,
        ReminderContext,
        ErrorContext,
        NoticeContext,
        GameOverContext,
        OrganiserContext,
        WelcomeContext,
    )
}


# --- Message-IDs --------------------------------------------------------------------------------

_OUR_ID = re.compile(r"<?courier\.[0-9a-f]{24}@(?P<domain>[^>\s]+)>?")


def message_id_for(key: str, domain: str) -> str:
    """The Message-ID of the outbox row ``key``: the same key always gives the same id."""
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]
    return f"<courier.{digest}@{domain}>"


def is_our_message_id(msgid: str, domain: str) -> bool:
    """True when ``msgid`` looks like one ``message_id_for`` made for ``domain`` (a mail loop)."""
    match = _OUR_ID.fullmatch(msgid.strip())
    return match is not None and match["domain"].lower() == domain.lower()


# --- subjects -----------------------------------------------------------------------------------


def subject_for(ctx: AnyContext) -> str:
    """``[veneer-1] Vote now: Disarmament - by Tue 24 Nov 20:00 CET (Turn 1 purchases: results)``
    and the like: game first, then what is asked now and by when, then what the mail tells."""
    mail = ctx.mail
    prefix = f"[{mail.game_id}]" if mail.game_id else "[courier]"
    return _one_line(f"{prefix} {_subject_text(ctx)}")


def _subject_text(ctx: AnyContext) -> str:
    phase = ctx.mail.phase_label
    match ctx:
        case ReceiptContext(late=True):
            return f"Late orders received: they count for {phase}"
        case ReceiptContext(errors=errors) if errors:
            one = len(errors) == 1
            count = f"{len(errors)} line{'' if one else 's'}"
            again = f"; correct {'it' if one else 'them'}{_by(ctx)}" if ctx.mail.deadline_at else ""
            return f"Orders received for {phase}: {count} not understood{again}"
        case ReceiptContext():
            return f"Orders received for {phase}"
        case GameOverContext(winners=winners, ended_during=during) if during and len(winners) > 1:
            return f"Game over: a draw among {_and_join(winners)}"  # an organiser's end shared
        case GameOverContext(winners=winners) if winners:
            verb = "wins" if len(winners) == 1 else "win"
            return f"Game over: {_and_join(winners)} {verb}"
        case GameOverContext():
            return "Game over"
        case ReportContext(window_title=title) if title:
            return f"{title}{_until(ctx)}"
        case ReportContext(next_phase_label=upcoming) if upcoming and _asks(ctx):
            return f"{_asked(ctx, upcoming)} ({phase}: results)"
        case ReportContext():
            return f"{phase}: results"
        case ReminderContext(standing=standing) if standing and ctx.mail.deadline_at:
            return f"Reminder: {phase} closes {_short(ctx.mail.deadline_at)}; your orders stand"
        case ReminderContext() if ctx.mail.deadline_at:
            return f"Reminder: {_asked(ctx, phase)}"
        case ReminderContext() if ctx.mail.deadline_text:
            return f"Reminder: orders due {ctx.mail.deadline_text}"
        case ReminderContext():
            return f"Reminder: orders for {phase}"
        case ErrorContext():
            return "Your message could not be used"
        case NoticeContext():
            return f"News in {phase}"
        case OrganiserContext(problem=problem):
            return f"Problem to fix: {_shorten(problem, 50)}"
        case WelcomeContext() if _asks(ctx) and ctx.mail.deadline_at:
            return f"Welcome to {ctx.mail.game_title}: {_asked(ctx, phase)}"
        case WelcomeContext():
            return f"Welcome to {ctx.mail.game_title}"
        case AnswerContext(topic=topic):
            return topic
        case PressContext(author=author, reply=reply):
            return f"{'Reply to your press' if reply else 'Press'} from {author or 'someone (anonymous)'}"
    raise TypeError(f"no subject for {type(ctx).__name__}")


def _asks(ctx: AnyContext) -> bool:
    """The mail asks its player for orders: a form to fill in, and the game waits for it."""
    return bool(ctx.mail.order_template) and ctx.mail.awaited


def _asked(ctx: AnyContext, phase: str) -> str:
    """What is asked, in the game's words or the shell's, and by when: ``Vote now: Disarmament -
    by Tue 24 Nov 20:00 CET``, ``Round 4 of 10: your orders - by …``."""
    by = f" - by {_short(ctx.mail.deadline_at)}" if ctx.mail.deadline_at else ""  # ASCII: a plain header
    return f"{ctx.mail.asked or f'{phase}: your orders'}{by}"


def _until(ctx: AnyContext) -> str:
    """`` until Tue 24 Nov 20:00 CET``: how long an open window lasts."""
    return f" until {_short(ctx.mail.deadline_at)}" if ctx.mail.deadline_at else ""


def _by(ctx: AnyContext) -> str:
    """`` by Tue 24 Nov 20:00 CET``: the deadline, short, in the game's zone (the body adds UTC)."""
    return f" by {_short(ctx.mail.deadline_at)}" if ctx.mail.deadline_at else ""


def _short(when: datetime) -> str:
    day = f"{DAY_NAMES[when.weekday()]} {when.day:02d} {MONTH_NAMES[when.month - 1]}"
    return f"{day} {when:%H:%M} {when.tzname()}"


def _and_join(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _one_line(text: str) -> str:
    # A newline in a header would be an injection; names and problems come from config and mail.
    return " ".join(text.split())


def _shorten(text: str, limit: int) -> str:
    return textwrap.shorten(text, width=limit, placeholder=" …")


# --- composing ----------------------------------------------------------------------------------


def template_variables(ctx: AnyContext) -> dict[str, Any]:
    """The variables a template sees: the common fields, then the kind's own."""
    own = {f.name: getattr(ctx, f.name) for f in dataclasses.fields(ctx) if f.name != "mail"}
    common = {f.name: getattr(ctx.mail, f.name) for f in dataclasses.fields(ctx.mail)}
    return {**common, **own, "kind": ctx.kind}


@dataclass(frozen=True)
class MailPicture:
    """A picture for a mail: shown inline (PNG) in the HTML part, its SVG attached."""

    name: str
    title: str
    png: bytes
    svg: str


def render_bodies(
    env: jinja2.Environment,
    ctx: AnyContext,
    pictures: Sequence[dict[str, str]] = (),
    *,
    text_only: bool = False,
) -> tuple[str, str]:
    """The text and HTML bodies of one message (the HTML one ``""`` when ``text_only``).
    ``pictures`` are ``{"cid", "title", "file"}``."""
    variables = {**template_variables(ctx), "pictures": list(pictures)}
    text = render_template(env, f"common/{ctx.kind}.txt.j2", variables)
    if text_only:
        return _tidy(text), ""
    html = render_template(env, f"common/{ctx.kind}.html.j2", variables)
    return _tidy(text), _tidy(inline_styles(_tidy(html)))


def _tidy(body: str) -> str:
    # Templates may leave runs of blank lines where optional sections were skipped.
    lines = [line.rstrip() for line in body.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip() + "\n"


class _KnownHeaders(HeaderRegistry):
    """The standard header classes, each (name, text) parsed once: a round's hundreds of mails
    repeat most of their headers (From, a part's Content-Type, a picture's file name), and parsing
    a header is the email package's dearest step. Header objects are immutable, so sharing is safe."""

    def __call__(self, name: str, value: Any) -> BaseHeader:
        if isinstance(value, str):
            return _parsed_header(self, name, value)
        return super().__call__(name, value)


@functools.lru_cache(maxsize=4096)
def _parsed_header(registry: HeaderRegistry, name: str, value: str) -> BaseHeader:
    return HeaderRegistry.__call__(registry, name, value)


# The standard policy (the same bytes), with headers parsed once per value.
COMPOSING = email.policy.default.clone(header_factory=_KnownHeaders())


class Composed(EmailMessage):
    """A mail ``compose`` made, carrying the digests of its lines (``courier.mail.own_lines``) that the
    outbox keeps beside it, so a reply that quotes it unmarked is still read right."""

    sent_lines: SentLines = SentLines()


def _sent_lines(
    env: jinja2.Environment, ctx: AnyContext, bodies: tuple[str, str], pictures: Sequence[dict[str, str]]
) -> SentLines:
    """The lines of both bodies by kind. The form is what the text gains from the order template
    (its heading too, whatever an organiser's template calls it), with the words a player may
    rightly write again (an answer's order syntax, relayed press); the echoes are the orders the
    mail repeats."""
    text, html = bodies
    form = ctx.mail.order_template
    if isinstance(ctx, AnswerContext):
        form += "\n" + ctx.block  # an order syntax (`help`), copied like the form
    elif isinstance(ctx, PressContext):
        form += "\n" + ctx.text  # another player's words, which this one may write too
    if ctx.mail.order_template:
        without = dataclasses.replace(ctx, mail=dataclasses.replace(ctx.mail, order_template=""))
        bare = set(render_bodies(env, without, pictures, text_only=True)[0].splitlines())
        form += "\n" + "\n".join(line for line in text.splitlines() if line not in bare)
    lines = text.splitlines() + html_lines(html)
    return SentLines.of(lines, echoes=_echoes(ctx), form=form.splitlines())


def _echoes(ctx: AnyContext) -> Sequence[str]:
    match ctx:
        case ReceiptContext(orders=orders, standing=standing):
            return [*orders, *standing]
        case ReminderContext(standing=standing):
            return standing
    return ()


def compose(
    env: jinja2.Environment,
    kind: str,
    ctx: AnyContext,
    *,
    sender: str,
    reply_to: str | None,
    to: str,
    message_key: str,
    domain: str,
    in_reply_to: str | None = None,
    date: datetime,
    pictures: Sequence[MailPicture] = (),
) -> EmailMessage:
    """Render ``ctx`` with the ``kind`` templates into a multipart/alternative message."""
    if KINDS.get(kind) is not type(ctx):
        raise ValueError(f"kind {kind!r} does not match {type(ctx).__name__}")
    if date.tzinfo is None:
        raise ValueError("date must be timezone-aware")
    refs = [
        {"cid": _picture_cid(message_key, p.name, domain), "title": p.title, "file": f"{p.name}.svg"}
        for p in pictures
    ]
    text, html = render_bodies(env, ctx, refs)
    msg = Composed(policy=COMPOSING)
    msg.sent_lines = _sent_lines(env, ctx, (text, html), refs)
    msg.set_raw("Subject", folded_subject(subject_for(ctx)))
    msg["From"] = sender
    msg["To"] = to
    if reply_to:
        msg["Reply-To"] = reply_to
    msg["Date"] = email.utils.format_datetime(date)
    msg["Message-ID"] = message_id_for(message_key, domain)
    if in_reply_to:
        msg["In-Reply-To"] = _bracketed(in_reply_to)
        msg["References"] = _bracketed(in_reply_to)
    msg["Auto-Submitted"] = "auto-generated"
    msg["X-Courier-Game"] = ctx.mail.game_id
    msg["X-Courier-Kind"] = kind
    msg.set_content(text, subtype="plain", charset="utf-8", cte="quoted-printable")
    msg.add_alternative(html, subtype="html", charset="utf-8", cte="quoted-printable")
    _attach_pictures(msg, pictures, refs)
    _attach_deadline(msg, ctx, domain=domain, written=date, send_to=reply_to or sender)
    # Fixed boundaries keep the bytes reproducible; a hex digest never occurs in QP-encoded text.
    digest = hashlib.sha256(message_key.encode("utf-8")).hexdigest()[:32]
    for number, part in enumerate(p for p in msg.walk() if p.is_multipart()):
        part.set_boundary(f"=_courier_{digest}_{number}" if number else f"=_courier_{digest}")
    return msg


def _picture_cid(message_key: str, name: str, domain: str) -> str:
    return f"{hashlib.sha256(f'{message_key}/{name}'.encode()).hexdigest()[:20]}@{domain}"


def _attach_pictures(
    msg: EmailMessage, pictures: Sequence[MailPicture], refs: Sequence[dict[str, str]]
) -> None:
    """PNGs inline beside the HTML part (multipart/related), each SVG as an attachment. The parts are
    what ``add_related``/``add_attachment`` make, byte for byte; only the base64 text of a picture is
    made once for every recipient who sees it."""
    html = msg.get_body(("html",))
    for picture, ref in zip(pictures, refs, strict=True):
        assert isinstance(html, EmailMessage)
        png = _base64(picture.png)
        part = _binary_part(html, "image/png", png, f"{picture.name}.png", "inline", cid=f"<{ref['cid']}>")
        _add(html, "related", part)
    for picture in pictures:
        svg = _base64(picture.svg.encode("utf-8"))
        _add(msg, "mixed", _binary_part(msg, "image/svg+xml", svg, f"{picture.name}.svg", "attachment"))


def _attach_deadline(
    msg: EmailMessage, ctx: AnyContext, *, domain: str, written: datetime, send_to: str
) -> None:
    """The deadline the mail announces as a calendar event (``courier.mail.calendar``), a file
    ``deadline.ics`` a mail program offers to add to the calendar."""
    mail = ctx.mail
    if not mail.deadline_key or not mail.game_id:
        return
    label = getattr(ctx, "next_phase_label", "") or mail.phase_label
    _, address = email.utils.parseaddr(send_to)
    over = isinstance(ctx, GameOverContext)  # ended by the organiser: the open round's event goes
    event = DeadlineEvent(
        mail.game_id,
        mail.game_title,
        mail.deadline_key,
        getattr(ctx, "ended_during", "") or label,
        None if over else mail.deadline_at,
        mail.deadline_text,
        address,
        cancelled=GAME_OVER if over else PAUSED,
    )
    data = "".join(_base64(calendar_bytes(event, domain=domain, written=written)))  # a plain str: no picture
    part = _binary_part(msg, "text/calendar", data, "deadline.ics", "attachment")
    part.set_param("method", "PUBLISH")
    part.set_param("charset", "utf-8")
    _add(msg, "mixed", part)


PAUSED = "the game is paused; no deadline passes until it resumes"
GAME_OVER = "the game is over; no more orders are due"


def _binary_part(
    parent: EmailMessage, content_type: str, encoded: str, filename: str, disposition: str, *, cid: str = ""
) -> EmailMessage:
    part = EmailMessage(policy=parent.policy)
    part["Content-Type"] = content_type
    part.set_payload(encoded)
    part["Content-Transfer-Encoding"] = "base64"
    part["Content-Disposition"] = disposition
    part.set_param("filename", filename, header="Content-Disposition", replace=True)
    if cid:
        part["Content-ID"] = cid
    part["MIME-Version"] = "1.0"  # as EmailMessage.set_content adds it
    return part


def _add(container: EmailMessage, subtype: str, part: EmailMessage) -> None:
    if container.get_content_maintype() != "multipart" or container.get_content_subtype() != subtype:
        getattr(container, f"make_{subtype}")()
    container.attach(part)


class Encoded(str):
    """A picture's base64 text, made once for all its recipients. ``key`` names the picture in the
    journal, which stores it once however many mails carry it (``journal_bytes``)."""

    key: str
    ascii: bytes


@functools.lru_cache(maxsize=32)
def _base64(data: bytes) -> Encoded:
    """Base64 in 76-character lines, as the email package writes it (57 bytes a line)."""
    encoded = Encoded(
        "".join(binascii.b2a_base64(data[i : i + 57]).decode("ascii") for i in range(0, len(data), 57))
    )
    encoded.key = hashlib.sha256(data).hexdigest()[:32]
    encoded.ascii = encoded.encode("ascii")
    return encoded


_LINE_END = re.compile(r"\r\n|\r|\n")  # email.generator's NLCRE


class _Writer(BytesGenerator):
    """The standard generator, writing each part's lines in one call instead of two per line (a
    report with a map has ten thousand lines; the output is the same). With ``pictures`` given, a
    picture's base64 lines are written as the journal's stand-in line and the picture kept there."""

    pictures: dict[str, bytes] | None = None

    def clone(self, fp: Any) -> _Writer:
        twin = super().clone(fp)  # each part is written by a clone
        twin.pictures = self.pictures
        return twin

    def _write_lines(self, lines: str) -> None:
        newline: str = self._NL  # type: ignore[attr-defined]
        if isinstance(lines, Encoded) and self.pictures is not None and newline == "\n":
            self.pictures[lines.key] = lines.ascii
            self.write(picture_line(lines.key))
        elif newline == "\n" and "\r" not in lines:
            self.write(lines)  # already in this generator's line endings (base64 always is)
        elif lines:
            self.write(newline.join(_LINE_END.split(lines)))


def mail_bytes(message: EmailMessage) -> bytes:
    """``message.as_bytes()``, faster for mail with pictures."""
    buffer = io.BytesIO()
    _Writer(buffer, mangle_from_=False, policy=message.policy).flatten(message)
    return buffer.getvalue()


def journal_bytes(message: EmailMessage) -> tuple[bytes, dict[str, bytes]]:
    """``mail_bytes`` with each picture's lines left out, and the pictures by key: a round mails the
    same map to every player, and a journal that stored it once per mail wrote 200 MB a round for
    100 games. ``Journal.with_pictures`` puts them back."""
    buffer = io.BytesIO()
    writer = _Writer(buffer, mangle_from_=False, policy=message.policy)
    writer.pictures = {}
    writer.flatten(message)
    return buffer.getvalue(), writer.pictures


def folded_subject(subject: str) -> str:
    """The Subject as sent, folded at a space after its first words (the email package folds some
    right after ``Subject:``, which mail programs show as a leading space), its non-ASCII words as
    RFC 2047 words."""
    header = Header(header_name="Subject", maxlinelen=78)
    for plain, words in itertools.groupby(_one_line(subject).split(" "), key=str.isascii):
        header.append(" ".join(words), "us-ascii" if plain else "utf-8")  # encode only what must be
    return header.encode(linesep="\n")


def _bracketed(msgid: str) -> str:
    msgid = msgid.strip()
    return msgid if msgid.startswith("<") else f"<{msgid}>"
