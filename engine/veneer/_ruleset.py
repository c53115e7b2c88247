"""The Veneer ruleset: the engine contract (``engine.core.Ruleset``) over the private modules."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.chart import standings_chart
from engine.core import (
    Event,
    Game,
    Outcome,
    Phase,
    Picture,
    Played,
    Resolution,
    Simulated,
    Submission,
    rank_by,
)
from engine.reading import Vocabulary, forgiving
from engine.request import read_request
from engine.veneer import _bot, _headline
from engine.veneer._cards import DeckError, load_deck
from engine.veneer._events import OPEN_RESULTS, PlayerEliminated
from engine.veneer._json import answer_json, check_players
from engine.veneer._on_file import file_orders, filed, replaced_notes
from engine.veneer._orders import ORDER_WORDS
from engine.veneer._parse import names_of, parse_orders
from engine.veneer._phases import awaiting, card_holders, phase_of
from engine.veneer._resolve import default_orders, resolve_stage
from engine.veneer._setup import new_game
from engine.veneer._state import JSON, VeneerState, nicknames_of, state_from_json, state_to_json
from engine.veneer._table import draw_table
from engine.veneer._view import decide, ledger_rows, order_form


class Veneer(Game):
    name: ClassVar[str] = "veneer"
    title: ClassVar[str] = "Veneer"
    option_keys: ClassVar[frozenset[str]] = frozenset({"deck"})
    # Each short phase mails only the players who must act in the next one (and anyone with news
    # of their own); everyone else follows the public ledger.
    mail_only_awaited: ClassVar[bool] = True
    # Votes and responses are quick decisions: they run on a short clock unless the organiser says.
    default_config: ClassVar[dict[str, str]] = {"vote_duration": "12h", "response_duration": "12h"}

    def setup(self, players: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> VeneerState:
        return new_game(players, options, rng)

    amendable_options: ClassVar[frozenset[str]] = frozenset({"nicknames"})

    def amend(self, state: VeneerState, option: str, value: Any) -> VeneerState:
        """``nicknames`` (player → names) changes when a substitute takes a seat under a name of their
        own: orders name the seat by it from then on (`attack Emmett`)."""
        if option != "nicknames":
            raise ValueError(f"`{option}` is fixed when the game begins")
        return dataclasses.replace(state, nicknames=nicknames_of(value, state.names))

    def check_option(self, option: str, value: Any) -> list[str]:
        """Problems with an option's data, for the organiser (today: an own deck)."""
        if option != "deck":
            return []
        try:
            load_deck(value)
        except DeckError as e:
            return list(e.problems)
        return []

    def phase(self, state: VeneerState) -> Phase:
        return phase_of(state)

    def awaiting(self, state: VeneerState) -> frozenset[str]:
        return awaiting(state)

    def writers(self, state: VeneerState) -> frozenset[str]:
        """Holders of an action card: they may play it in any phase, asked or not."""
        return card_holders(state)

    def told(self, state: VeneerState, events: Sequence[Event]) -> frozenset[str]:
        """Every living player hears of open results; the eliminated hear they are out."""
        out = {e.player for e in events if isinstance(e, PlayerEliminated)}
        everyone = set(state.living) if any(isinstance(e, OPEN_RESULTS) for e in events) else set()
        return frozenset(everyone | out)

    def open_results(self, events: Sequence[Event]) -> list[Event]:
        return [e for e in events if isinstance(e, OPEN_RESULTS)]

    def vocabulary(self, state: VeneerState) -> Vocabulary:
        """Every order word of Veneer's forms, and the players', factions' and cards' names."""
        names = names_of(state)
        votes = ["yes", "no", "aye", "nay", "against"]  # a vote is an order attempt, though no verb
        return Vocabulary.of(ORDER_WORDS, [*names.players, *names.factions, *names.cards], signs=votes)

    @forgiving
    def parse(self, state: VeneerState, player: str, text: str) -> Submission:
        read = parse_orders(state, player, text)
        notes = replaced_notes(filed(state, player), read.orders)
        return dataclasses.replace(read, notes=(*notes, *read.notes)) if notes else read

    def immediate(self, state: VeneerState, submission: Submission) -> tuple[VeneerState, tuple[Event, ...]]:
        """A mail's orders go on file at once, so every form shows the orders that stand."""
        return file_orders(state, submission.player, submission.orders), ()

    def absent_default(self, state: VeneerState, player: str) -> str:
        if state.stage == "setup":
            return f"you play the first faction dealt, the {state.seat(player).dealt[0]}"
        return "you vote no" if state.stage == "vote" else DEFAULT_TEXT.get(state.stage, "nothing happens")

    def default(self, state: VeneerState, player: str, rng: random.Random) -> Submission:
        orders = tuple(str(o) for o in default_orders(state, player))
        note = "No orders came, so the defaults apply: " + ("; ".join(orders) or DEFAULT_TEXT[state.stage])
        return Submission(player, orders, notes=(note + ".",))

    def resolve(
        self, state: VeneerState, submissions: Mapping[str, Submission], rng: random.Random
    ) -> Resolution:
        after, events = resolve_stage(dataclasses.replace(state, on_file=()), submissions, rng)
        if after.turn != state.turn or (after.finished and not state.finished):  # coins for the chart
            after = dataclasses.replace(after, coins=(*state.coins, tuple(s.coins for s in after.seats)))
        return Resolution(after, tuple(events))

    def pictures(self, state: VeneerState, viewer: str | None) -> list[Picture]:
        """The standings chart: every player's coins as each turn began and, last, as they are now
        (the Ledger's coins in the same mail; public, never a hand, a target or a faction), then
        the table (``_table``: seats, factions, alliances, laws in force, coins: the Ledger's). The
        same for every player; none for the organiser (``viewer=None``), who has the Ledger."""
        if viewer is None or state.stage == "setup":
            return []
        now = tuple(s.coins for s in state.seats)
        rows, ticks = list(state.coins), [str(turn) for turn in range(1, len(state.coins) + 1)]
        if state.finished:
            ticks[-1:] = ["end"]
        elif not rows or rows[-1] != now:
            rows, ticks = [*rows, now], [*ticks, "now"]
        table_title = (
            "Veneer: the table at the end" if state.finished else f"Veneer: the table, turn {state.turn}"
        )
        table = Picture(f"table-turn-{state.turn}", table_title, draw_table(state, title=table_title))
        if len(rows) < 2:
            return [table]
        series = {name: [row[i] for row in rows] for i, name in enumerate(state.names)}
        title = "Veneer: coins at the end" if state.finished else f"Veneer: coins in turn {state.turn}"
        chart = standings_chart(title, series, x_label="turn (coins as it began)", ticks=ticks)
        return [Picture(f"standings-turn-{state.turn}", title, chart), table]

    def outcome(self, state: VeneerState) -> Outcome | None:
        return decide(state)

    def standings(self, state: VeneerState) -> Outcome:
        """The living by coins, most first (targets are secret, coins are on the Ledger); the
        eliminated last."""

        def coins(player: str) -> tuple[bool, int]:
            seat = state.seat(player)
            return seat.alive, seat.coins

        ranking = rank_by(state.names, coins)
        leaders = ranking[0] if ranking else ()
        count = state.seat(leaders[0]).coins if leaders else 0
        return Outcome(ranking, leaders, f"{', '.join(leaders)}: the most coins, {count}")

    def ledger(self, state: VeneerState) -> list[dict[str, Any]]:
        return ledger_rows(state)

    def headline(self, state: VeneerState, events: Sequence[Event], viewer: str) -> str | None:
        return _headline.headline(state, events, viewer)

    def asked(self, state: VeneerState, player: str) -> str | None:
        return _headline.asked(state, player)

    def order_template(self, state: VeneerState, player: str) -> str:
        return order_form(state, player)

    def to_json(self, state: VeneerState) -> JSON:
        return state_to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> VeneerState:
        return state_from_json(data)

    def read_request(self, request: Mapping[str, Any], seed: str) -> tuple[VeneerState, dict[str, str]]:
        state, texts = read_request(self, request, seed)
        check_players(state, texts)
        return state, texts

    def answer_json(self, played: Played) -> JSON:
        return answer_json(played)

    simulated: ClassVar[Simulated] = Simulated(players=5)

    view_of = staticmethod(_bot.view_of)
    bot_orders = staticmethod(_bot.bot_orders)


DEFAULT_TEXT = {
    "muster": "nothing bought, no attack",
    "response": "no veto, no loan, all your defenders intercept",
    "combat": "lent troops go back in seating order",
    "end": "nothing bought, no alliance change",
}
