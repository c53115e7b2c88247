"""What can be known of an organiser's command before the tick applies it: the game runs, the name
means a seat, the seat's state allows it, the game is (not) paused. The CLI checks a command with
these at once (``courier kick GAME Zed`` exits non-zero with one line and journals nothing), and the
apply functions use the same checks at the tick, when the game may have moved on meanwhile.

A ``Probe`` is a game as the journal holds it: its row, its seats (``courier.state.seats``) and the
last good Players tab, with substitutes seated."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from courier.commands.step import Refused, Step
from courier.commands.syntax import Command
from courier.config.game import Player
from courier.journal.interface import GameRow, Journal
from courier.journal.meta import CONFIG
from courier.state.control import control, kicked, with_players
from courier.state.seats import NoSuchSeat, Seats, seats_of
from engine import find_ruleset


@dataclass(frozen=True)
class Probe:
    row: GameRow
    seats: Seats
    players: Sequence[Player]  # the Players tab as the journal last read it, substitutes seated
    paused: bool
    resolved: int  # rounds resolved so far

    def seat(self, name: str) -> str:
        try:
            return self.seats.find(name)
        except NoSuchSeat as e:
            raise Refused(str(e)) from None

    def holder(self, seat: str) -> Player:
        return next(p for p in self.players if p.name == seat)


def probe_of_step(step: Step) -> Probe:
    journal = step.tick.journal
    return Probe(
        step.row,
        step.seats(),
        step.loaded.config.players,
        bool(control(journal, step.row.id).get("paused")),
        journal.round_count(step.row.id),
    )


def probe_of_journal(journal: Journal, game: str) -> Probe:
    """The game as the journal holds it, for the CLI; Refused when it has not started."""
    row = journal.game(game)
    if row is None:
        raise Refused(f"game {game} has not started yet; commands apply once its first tick starts it")
    good = CONFIG.get(journal, game)
    rows = good["players"] if good else []
    players = with_players(
        [
            Player(
                str(r.get("name", "")),
                str(r.get("email", "")).lower(),
                tuple(n.strip() for n in str(r.get("nickname", "")).split(",") if n.strip()),
            )
            for r in rows
        ],
        row,
    )
    seats = seats_of(players, row, find_ruleset(row.ruleset))
    return Probe(row, seats, players, bool(control(journal, game).get("paused")), journal.round_count(game))


Check = Callable[[Probe, Command], None]


def running(probe: Probe, command: Command) -> None:
    if probe.row.finished:
        raise Refused("the game is over")


def not_paused(probe: Probe, command: Command) -> None:
    running(probe, command)
    if probe.paused:
        why = (
            "the game is paused already"
            if command.verb == "pause"
            else "the game is paused; `resume` it first"
        )
        raise Refused(why)


def paused(probe: Probe, command: Command) -> None:
    running(probe, command)
    if not probe.paused:
        raise Refused("the game is not paused")


def rollback(probe: Probe, command: Command) -> None:
    wanted = command.round
    if wanted.isdigit() and not 1 <= int(wanted) <= probe.resolved:
        done = f"rounds 1 to {probe.resolved}" if probe.resolved else "none yet"
        raise Refused(f"round {wanted} has not been resolved; resolved so far: {done}")


def kick(probe: Probe, command: Command) -> None:
    running(probe, command)
    seat = probe.seat(command.name)
    if seat in kicked(probe.row):
        raise Refused(f"{seat} has left the game already")


def bot(probe: Probe, command: Command) -> None:
    running(probe, command)
    seat = probe.seat(command.name)
    if probe.holder(seat).bot:
        raise Refused(f"the bot plays {seat} already")


def replace(probe: Probe, command: Command) -> None:
    running(probe, command)
    probe.seat(command.name)
    _address_free(probe, command.email)


def change(probe: Probe, command: Command) -> None:
    running(probe, command)
    if not command.name:
        raise Refused("say whose, e.g. change address of Darcy to darcy@example.org")
    seat = probe.seat(command.name)
    holder = probe.holder(seat)
    if holder.bot or seat in kicked(probe.row):
        raise Refused(f"{seat} is not played by a player now; `replace` gives the seat to one")
    _address_free(probe, command.email)


def _address_free(probe: Probe, address: str) -> None:
    taken = next((p for p in probe.players if p.email == address.lower()), None)
    if taken is not None:
        raise Refused(f"{address} already plays {taken.name}")
