"""The mail provider's limit or throttle (an ``OverLimit`` reply, config/smtp_replies.toml) holds
the whole outbox until it resets: no mail is tried before then, none is counted as tried, none is
given up, and no notice is queued about the mail that waits. The organiser hears once by each
channel that still works: one line (and a non-zero exit) on the tick that meets it, a line in
``courier status`` while it lasts, and one mail once sending works again."""

from __future__ import annotations

import logging
from datetime import datetime

from courier.backends.base import OverLimit
from courier.journal.meta import SENDING_HELD, SendingHeld
from courier.state.context import Tick

log = logging.getLogger(__name__)


def account_of(tick: Tick) -> str:
    """The login the tick's transport sends as ("" for one with no account, the files outbox)."""
    return str(getattr(tick.transport, "account", ""))


def holding(tick: Tick) -> SendingHeld | None:
    """The hold still in force for this tick's account, if any (another account is not held: the
    organiser who moves to another login or provider sends at once)."""
    held = SENDING_HELD.get(tick.journal)
    if held is None or held["account"] != account_of(tick):
        return None
    if tick.now >= datetime.fromisoformat(held["until"]):
        return None
    return held


def hold(tick: Tick, refused: OverLimit, *, waiting: int) -> None:
    """Hold every mail until the limit resets; a line on stderr only when the hold begins."""
    earlier = SENDING_HELD.get(tick.journal)
    if earlier and earlier["account"] != refused.account:
        earlier = None  # another account's hold: this one is news
    until = tick.now + refused.wait
    held = SendingHeld(
        account=refused.account,
        reason=str(refused),
        means=refused.means,
        since=earlier["since"] if earlier else tick.now.isoformat(),
        until=until.isoformat(),
        waiting=waiting,
    )
    SENDING_HELD.set(tick.journal, "", held)
    if earlier:  # the same hold goes on: told already
        log.warning("sending still held until %s: %s", until, refused)
        return
    tick.problem(
        f"{_what(refused.means)} ({refused}): {waiting} mails wait until {_when(until)}, none is given up;"
        " `courier status` shows the hold"
    )


def release(tick: Tick) -> None:
    """Sending works again: forget the hold and tell the organiser, once, what it held."""
    held = SENDING_HELD.get(tick.journal)
    if held is None:
        return
    with tick.journal.transaction() as db:
        SENDING_HELD.delete(db)
    since = datetime.fromisoformat(held["since"])
    tick.tell_organiser(
        None,
        tick.deployment.organiser,
        f"Sending mail was held from {_when(since)} to {_when(tick.now)}: {_what(held['means'])}"
        f" ({held['reason']}). The {held['waiting']} mails that waited are going now; none was lost."
        " If this happens often, see docs/deploying.md (Gmail's limits) or set daily_recipients"
        " in [outbox].",
    )


def describe(held: SendingHeld, now: datetime) -> str:
    """The hold as `courier status` shows it; once its time has passed, the next tick tries again."""
    until = datetime.fromisoformat(held["until"])
    what = f"({_what(held['means'])} since {_when(datetime.fromisoformat(held['since']))}: {held['reason']})"
    if now >= until:
        return f"sending was held until {_when(until)} {what}; the next tick sends again, none is lost"
    return f"sending is HELD until {_when(until)} {what}; mail waits, none is lost"


def _what(means: str) -> str:
    if means == "limit":
        return "the mail provider's sending limit"
    return "the mail provider asks us to slow down"


def _when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M %Z").strip()
