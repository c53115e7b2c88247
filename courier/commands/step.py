"""One command being applied, whoever gave it: where it writes, what it may change, and what a
seat's holder is told. The organiser's and the players' commands both build on it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from courier.config.game import GameConfig, Player
from courier.journal.interface import GameRow, Transaction
from courier.state.awaited import awaited
from courier.state.context import LoadedGame, Tick
from courier.state.control import control, kicked, put_control, seat_label, with_seats
from courier.state.history import add_history_note
from courier.state.newcomers import participants
from courier.state.news import ORGANISER, hold, news_every
from courier.state.seats import NoSuchSeat, Seats, seats_of
from engine.core import Standing, awaiting_seen


class Refused(Exception):
    """A command that cannot apply; the text says why, for the organiser."""


@dataclass
class Step:
    """One command being applied: where it writes and what it may change."""

    tick: Tick
    db: Transaction
    loaded: LoadedGame
    row: GameRow
    key: str  # outbox keys of this command's mail start with this

    @property
    def when(self) -> Callable[[datetime], str]:
        return self.loaded.config.schedule.format_deadline

    def save(self, **changes: object) -> None:
        self.row = replace(self.row, **changes)  # type: ignore[arg-type]
        self.db.update_game(
            self.row.id,
            state=self.row.state,
            phase_key=self.row.phase_key,
            opened_at=self.row.opened_at,
            deadline=self.row.deadline,
            finished=self.row.finished,
        )

    def control(self, **changes: object) -> None:
        put_control(self.db, self.row.id, {**control(self.tick.journal, self.row.id), **changes})

    def tell_all(self, text: str, *, besides: str = "") -> None:
        """A notice to every seated player now; ``besides`` is the seat it is about, who knows."""
        config = self.loaded.config
        for player in participants(config, self.row):
            if player.name in kicked(self.row) or player.name == besides:
                continue
            key = f"{self.key}/{player.name}"
            message = self.tick.mailer.announcement(config, player, row=self.row, text=text, key=key)
            self.tick.queue(self.db, key=key, message=message, game=self.row.id, kind="notice")

    def tell_news(self, text: str, *, besides: str = "") -> None:
        """News no rule needs told at once (an absence, a seat that left): it waits for the next mail
        each player gets anyway, or the game's digest (courier/state/news.py); ``besides`` is the
        seat it is about, who knows. With ``news_every = 0``, a notice at once, as ``tell_all``."""
        config = self.loaded.config
        if news_every(config) == timedelta(0):
            return self.tell_all(text)
        for player in participants(config, self.row):
            if player.name in kicked(self.row) or player.name == besides or player.bot:
                continue
            hold(
                self.db,
                self.tick.journal,
                game=self.row.id,
                to=player.email,
                name=player.name,
                lines=[text],
                now=self.tick.now,
            )
        return None

    def tell_organiser(self, text: str) -> None:
        """What the organiser should hear of a player's command (a resignation, an absence): in the
        organiser's next mail or digest (courier/state/news.py), never one mail each."""
        hold(
            self.db,
            self.tick.journal,
            game=self.row.id,
            to=self.loaded.organiser,
            name=ORGANISER,
            lines=[text],
            now=self.tick.now,
        )

    def history(self, text: str, *, label: str = "") -> None:
        add_history_note(self.tick, self.db, self.row.id, text, label=label)

    def phase_label(self) -> str:
        ruleset = self.loaded.config.ruleset
        return ruleset.phase(ruleset.from_json(self.row.state)).label

    def seat(self, name: str) -> str:
        """The seat a name means, read as orders read names (``courier.state.seats``): a player's
        name or its beginning, a nickname, a substitute's own name, the role the Ledger shows. A seat
        whose player left answers too: the command says what that means for it."""
        try:
            return self.seats().find(name)
        except NoSuchSeat as e:
            raise Refused(str(e)) from None

    def seats(self) -> Seats:
        return seats_of(self.loaded.config.players, self.row, self.loaded.config.ruleset)

    def running(self) -> None:
        if self.row.finished:
            raise Refused("the game is over")


def leave_seat(step: Step, seat: str, *, by: str) -> None:
    """A seat leaves (kicked, or resigned): its mail stops counting, the game's default plays it."""
    step.tell_news(
        f"{seat} has left the game ({by}); from now on the seat plays as an absent player would.",
        besides=seat,
    )
    setup = {**step.row.setup, "kicked": sorted({*kicked(step.row), seat})}
    step.db.set_setup(step.row.id, setup)
    step.row = replace(step.row, setup=setup)
    step.history(f"{seat} left the game ({by}); the seat plays the default")


def move_seat(step: Step, seat: str, address: str) -> None:
    """The same player goes on in their seat from a new address (`change address`): their name,
    nicknames and secret stay, the old address stops counting at once. Only the two addresses and
    the organiser hear of it: nothing changed for the other players."""
    config = step.loaded.config
    holder = next(p for p in config.players if p.name == seat)
    if holder.bot or seat in kicked(step.row):
        raise Refused(f"{seat} is not played by a player now; `replace` gives the seat to one")
    taken = config.player_by_email(address)
    if taken is not None:
        raise Refused(
            f"{address} is {seat}'s address already"
            if taken.name == seat
            else f"{address} already plays {taken.name}"
        )
    seats = step.row.setup.get("seats", {})
    before = seats.get(seat)
    moved = before is None or bool(before.get("moved"))  # a substitute who moves stays one (no secret)
    record = {"email": address, "name": (before or {}).get("name", ""), "moved": moved}
    setup = {**step.row.setup, "seats": {**seats, seat: record}}
    step.db.set_setup(step.row.id, setup)
    step.row = replace(step.row, setup=setup)
    step.loaded.config = with_seats(config, step.row)
    game = config.id
    _tell(
        step,
        to=holder.email,
        name=holder.greeted,
        topic="Your address changed",
        key="old",
        lines=[
            f"From now on {game} mails you at {address}, and only mail from there counts for {seat};"
            " this address no longer counts.",
        ],
    )
    _tell(
        step,
        to=address,
        name=holder.greeted,
        topic="Your new address",
        key="new",
        lines=[
            f"This address now plays {seat} in {game}: your orders and commands count from here, and the"
            " game's mail comes here. Nothing else changed; `status` shows where you stand.",
        ],
    )
    _tell(
        step,
        to=step.loaded.organiser,
        name="organiser",
        topic="A player's new address",
        key="organiser",
        lines=[
            f"{seat} plays from {address} from now on (the old address no longer counts); the Players tab"
            " shows it at the next tick. The other players are not told.",
        ],
    )


def _tell(step: Step, *, to: str, name: str, topic: str, key: str, lines: list[str]) -> None:
    key = f"{step.key}/{key}"
    message = step.tick.mailer.answer(step.loaded.config, to=to, name=name, topic=topic, lines=lines, key=key)
    step.tick.queue(step.db, key=key, message=message, game=step.row.id, kind="answer")


def status_lines(tick: Tick, config: GameConfig, row: GameRow, player: Player) -> tuple[list[str], str]:
    """What `status` tells a player: the phase and deadline, their orders on file, whose orders the
    round still awaits (of those the game lets them know about), and their own view of the game (the
    order form for their position)."""
    ruleset = config.ruleset
    state = ruleset.from_json(row.state)
    standing = tick.journal.standing(row.id, row.phase_key)
    when = config.schedule.format_deadline(row.deadline) if row.deadline else "none (the game is paused)"
    if row.finished:
        return ["The game is over."], ""
    mine = standing.get(player.name)
    orders: list[str] = list(mine[0].get("orders", [])) if mine else []
    kept = ruleset.standing(state, player.name) if isinstance(ruleset, Standing) else None
    if not orders and kept is not None:  # no mail yet, but orders stand (a Star Trek window's)
        orders = list(kept.orders)
    seen = awaiting_seen(ruleset, state, player.name)  # the game may keep some silences private
    # Awaited as `courier status` and the reminders have it: no valid orders standing (a greeting or
    # a gift alone is none), not gone, away or the bot's; named as the Ledger names the seat.
    waiting = awaited(tick.journal, ruleset, row, state, now=tick.now, bots=config.bots)
    silent = [seat_label(row, seat) for seat in waiting if seat in seen]
    of_whom = "" if seen == ruleset.awaiting(state) else ", of those this game lets you know about"
    lines = [
        f"Phase: {ruleset.phase(state).label}. Deadline: {when}.",
        "Your orders on file: " + ("; ".join(orders) if orders else "none yet."),
        f"Not written yet{of_whom}: " + (", ".join(silent) if silent else "nobody") + ".",
    ]
    form = ruleset.order_template(state, player.name)
    shown = "Your view of the game, as the order form shows it:"
    lines.append(shown if form else "Nothing is asked of you now.")
    return lines, form
