"""Step 8: drain the outbox. A row is marked sent only after the transport took it, so a crash
between the two sends that mail once more, never zero times; its fixed Message-ID lets mail
clients and the files transport recognise the repeat.

A mail the server keeps refusing for now (or takes and then drops the connection) is tried again
after 5, 10, 20… minutes, at most ``MAX_ATTEMPTS`` times; then it is marked failed and the organiser
is told, so a server that stores and hangs up cannot make us send a mail without end. A condition of
the deployment (``Held``: a full disk, a refused login, the provider's limit) is no mail's failure:
sending stops for the tick and every mail waits, however long it lasts. The provider's limit or
throttle (``OverLimit``) holds every mail until it resets (courier/tick/held.py)."""

from __future__ import annotations

import logging
import re
from datetime import datetime, timedelta
from email import message_from_bytes
from email.message import Message
from email.parser import BytesParser
from email.policy import default as default_policy

from courier import faults
from courier.backends.base import (
    Held,
    OverLimit,
    PermanentError,
    RateLimited,
    RawTransport,
    TransientError,
)
from courier.journal.interface import PICTURE_AT, OutboxRow
from courier.journal.meta import SENDING_HELD
from courier.state.context import Tick
from courier.tick.budget import Budget
from courier.tick.held import hold, holding, release

log = logging.getLogger(__name__)


MAX_ATTEMPTS = 6
FIRST_WAIT = timedelta(minutes=5)
# How long a sent mail's text stays in the journal: long enough to look into a player's complaint
# ("no report came"); its pictures leave when it is sent (the state draws them again), so a journal
# and every copy of it is not mostly maps already delivered.
SENT_MAIL_KEPT = timedelta(days=2)
PICTURE_DROPPED = b"(picture sent, then dropped from the journal; the game's state draws it again)"
# An image part's headers, then its base64 lines ("-" is not base64: the boundary line ends them).
_PICTURE = re.compile(
    rb"(^Content-Type: image/[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n)(?:[A-Za-z0-9+/=]+\r?\n)+", re.M
)


def drain_outbox(tick: Tick) -> None:
    if held := holding(tick):
        log.info("sending held until %s: %s", held["until"], held["reason"])
    elif _send_queued(tick) and SENDING_HELD.get(tick.journal):
        release(tick)  # sending works again: the organiser hears what was held, at once
        _send_queued(tick)
    tick.journal.forget_pictures()
    dropped = tick.journal.forget_sent(tick.now - SENT_MAIL_KEPT)
    if dropped:
        log.info("dropped the bytes of %d mails sent before %s", dropped, tick.now - SENT_MAIL_KEPT)


def _send_queued(tick: Tick) -> bool:
    """Send what is due, within the daily budget; False when the server held the rest back (a
    limit, a login, a full disk)."""
    budget = Budget(tick)
    try:
        return _send_within(tick, budget)
    finally:
        budget.save(tick)


def _send_within(tick: Tick, budget: Budget) -> bool:
    queued = [row for row in tick.journal.queued() if _due(row, tick.now)]
    for done, row in enumerate(queued):
        if not budget.allows(row):  # the rest waits, earliest first, for the window to move
            budget.stop(len(queued) - done)
            return True
        faults.checkpoint("send.before")
        try:
            _send(tick, _as_sent(tick, row))
        except OverLimit as e:  # the provider's limit or throttle: nothing is tried until it resets
            hold(tick, e, waiting=len(queued) - done)
            return False
        except RateLimited as e:
            tick.problem(f"the mail server asks us to slow down ({e}); {len(queued) - done} mails wait")
            return False
        except Held as e:  # the deployment's condition, not this mail's: it delays, never fails
            tick.problem(f"no mail can go now ({e}); {len(queued) - done} mails wait, none is given up")
            return False
        except TransientError as e:
            last = row.attempts + 1 >= MAX_ATTEMPTS
            tick.journal.mark_attempt(
                row.id, str(e), failed=last, at=tick.now, kept=without_pictures(row.raw)
            )
            tick.problem(
                f"sending {row.key} to {row.recipient} failed {'for good' if last else 'for now'}: {e}"
            )
            if last and row.kind != "organiser":
                _tell_organiser_of_bounce(tick, row.game, row.recipient, f"{e} (tried {MAX_ATTEMPTS} times)")
            continue
        except PermanentError as e:
            tick.journal.mark_attempt(
                row.id, str(e), failed=True, at=tick.now, kept=without_pictures(row.raw)
            )
            tick.problem(f"sending {row.key} to {row.recipient} failed for good: {e}")
            if row.kind != "organiser":
                _tell_organiser_of_bounce(tick, row.game, row.recipient, str(e))
            continue
        faults.checkpoint("send.sent")
        budget.spend(row)
        tick.journal.mark_sent(row.id, tick.now, kept=without_pictures(row.raw))
        faults.checkpoint("send.marked")
    return True


def _due(row: OutboxRow, now: datetime) -> bool:
    """A failed mail waits 5 minutes after its first failure, then twice as long after each next."""
    return row.tried_at is None or now >= row.tried_at + FIRST_WAIT * 2 ** max(0, row.attempts - 1)


def _as_sent(tick: Tick, row: OutboxRow) -> bytes:
    try:
        return tick.journal.with_pictures(row.raw)
    except LookupError as e:
        raise PermanentError(str(e)) from e


def _send(tick: Tick, raw: bytes) -> None:
    """Hand one queued mail over; a transport that takes bytes gets them as queued, unparsed."""
    transport = tick.transport
    if isinstance(transport, RawTransport):
        transport.send_raw(raw, headers_of(raw))
    else:
        transport.send(message_from_bytes(raw, policy=default_policy))


def without_pictures(raw: bytes) -> bytes:
    """The mail as sent, each picture's bytes replaced by one line saying so (the pictures are
    stand-in lines in the journal, or their base64 lines in mail queued before that)."""
    raw = PICTURE_AT.sub(lambda _: PICTURE_DROPPED + b"\n", raw)
    return _PICTURE.sub(lambda found: found.group(1) + PICTURE_DROPPED + b"\n", raw)


def headers_of(raw: bytes) -> Message:
    """The header block alone: the parser would otherwise read a report's maps line by line (a
    quarter of a million lines a round for 100 games) only to ignore them."""
    end = min((i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0), default=len(raw))
    return BytesParser(policy=default_policy).parsebytes(raw[:end] + b"\n\n", headersonly=True)


def _tell_organiser_of_bounce(tick: Tick, game_id: str | None, recipient: str, error: str) -> None:
    loaded = tick.games.get(game_id or "")
    organiser = loaded.organiser if loaded else tick.deployment.organiser
    tick.tell_organiser(game_id, organiser, f"Mail to {recipient} cannot be delivered: {error}")
