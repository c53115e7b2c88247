"""Mail budgets: what one address's mail may cause, and what one address may receive, per clock hour
and per UTC day (``[budgets]`` in courier.toml, ``Deployment.budgets``).

Only mail that an input causes is counted: receipts, error replies, answers to commands and relayed
press. A round's reports, welcomes, reminders, game notices and the organiser's problem mail are the
game's own and never held. A mail beyond a budget is not lost: it is journalled in the outbox with
status 'held' (never sent, counted by ``courier status``), and the first one held in an hour or a day
tells the address concerned and the organiser, once each. The counts live in the journal's meta
table (``BUDGET``), written in the transaction that queues the mail, so a killed tick counts
exactly what it queued.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from courier.config.deployment import MailBudgets
from courier.journal.interface import Journal, Transaction
from courier.journal.meta import BUDGET, BudgetSpent

# Kinds of outbox mail that one sender's input causes, and that a budget may hold.
BUDGETED = frozenset({"receipt", "error", "answer", "press"})


@dataclass(frozen=True)
class Account:
    """One budget's count: whose (``scope`` 'sender' or 'recipient', an address) and its limits."""

    scope: str
    address: str
    per_hour: int
    per_day: int

    @property
    def name(self) -> str:
        return f"{self.scope}/{self.address.lower()}"


@dataclass(frozen=True)
class Tripped:
    """A budget that holds a mail: whose, which period (``hour`` or ``day``), its limit and its end."""

    account: Account
    period: str
    limit: int
    until: datetime
    first: bool  # the first mail this account held in this period: time to tell

    @property
    def stamp(self) -> str:
        """Names the period, so each trip is told once (the outbox keys carry it)."""
        return self.until.strftime("%Y-%m-%dT%H" if self.period == "hour" else "%Y-%m-%d")


def accounts(budgets: MailBudgets, *, sender: str, recipient: str) -> tuple[Account, Account]:
    return (
        Account("sender", sender, budgets.per_sender_hour, budgets.per_sender_day),
        Account("recipient", recipient, budgets.per_recipient_hour, budgets.per_recipient_day),
    )


@dataclass(frozen=True)
class Charge:
    """One mail's charge to its accounts: the counts before it, and the budgets it is beyond."""

    spent: dict[Account, BudgetSpent]
    tripped: tuple[Tripped, ...]

    def commit(self, db: Transaction) -> None:
        """Count the mail, as sent or as held by the budgets it tripped (in the queueing transaction)."""
        held = {t.account for t in self.tripped}
        for account, spent in self.spent.items():
            count = spent.copy()
            if not self.tripped:
                count["sent_hour"] += 1
                count["sent_day"] += 1
            elif account in held:
                count["held"] += 1
            else:
                continue
            BUDGET.put(db, account.name, count)


def charge(
    journal: Journal, counted: tuple[Account, ...], *, now: datetime, basis: Mapping[str, BudgetSpent]
) -> Charge:
    """What one more mail would cost these accounts now: nothing is written until ``commit``. An
    account found in ``basis`` is judged by that count: the sender's count before the input, so
    that one input's mail (a press and its relays) all goes or is all held."""
    spent = {a: _current(journal, a, now) for a in counted}
    judged = {a: basis.get(a.name, spent[a]) for a in counted}
    tripped = (_beyond(a, judged[a], now, first=spent[a]["held"] == 0) for a in counted)
    return Charge(spent, tuple(t for t in tripped if t is not None))


def _current(journal: Journal, account: Account, now: datetime) -> BudgetSpent:
    hour, day = _periods(now)
    stored = BUDGET.get(journal, account.name)
    if stored is None or stored["day"] != day:
        return BudgetSpent(hour=hour, sent_hour=0, day=day, sent_day=0, held=0)
    if stored["hour"] != hour:
        return BudgetSpent(hour=hour, sent_hour=0, day=day, sent_day=stored["sent_day"], held=0)
    return stored


def _beyond(account: Account, count: BudgetSpent, now: datetime, *, first: bool) -> Tripped | None:
    start = now.astimezone(UTC).replace(minute=0, second=0, microsecond=0)
    if count["sent_day"] >= account.per_day:
        midnight = start.replace(hour=0) + timedelta(days=1)
        return Tripped(account, "day", account.per_day, midnight, first)
    if count["sent_hour"] >= account.per_hour:
        return Tripped(account, "hour", account.per_hour, start + timedelta(hours=1), first)
    return None


def _periods(now: datetime) -> tuple[str, str]:
    utc = now.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H"), utc.strftime("%Y-%m-%d")


def told_player(trip: Tripped) -> str:
    """What the address a budget stopped hears, once per period."""
    whose = "caused by mail from your address" if trip.account.scope == "sender" else "to your address"
    return (
        f"More than {trip.limit} replies {whose} this {trip.period}: so that nobody's mail can flood "
        f"anyone, Courier sends no more of them until {trip.until:%Y-%m-%d %H:%M} UTC (receipts, "
        "answers, relayed press); those held are kept, not sent later. Orders you send still count, "
        "and round reports still come. If you did not send this much mail, someone may be writing in "
        "your name: tell the organiser."
    )


def told_organiser(trip: Tripped) -> str:
    """What the organiser hears, once per budget tripped per period."""
    whose = "caused by mail from" if trip.account.scope == "sender" else "addressed to"
    return (
        f"Mail budget reached: more than {trip.limit} replies {whose} {trip.account.address} this "
        f"{trip.period} ([budgets] in courier.toml). Until {trip.until:%Y-%m-%d %H:%M} UTC further ones "
        "are held, not sent; `courier status` counts them. Orders still count and reports still go."
    )
