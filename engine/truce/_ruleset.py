"""The Truce ruleset: the engine contract (``engine.core.Ruleset``) over the private modules."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.chart import standings_chart
from engine.core import Count, Event, Game, Outcome, Phase, Picture, Played, Resolution, Simulated, Submission
from engine.reading import Vocabulary, forgiving
from engine.truce import _bot, _headline
from engine.truce._events import CoinsRemoved
from engine.truce._gifts import apply_gifts
from engine.truce._json import answer_json, read_request
from engine.truce._parse import VERBS, parse_orders
from engine.truce._resolve import resolve_round
from engine.truce._state import (
    JSON,
    MIN_PLAYERS,
    STARTING_SUPPLY,
    Player,
    TruceState,
    state_from_json,
    state_to_json,
)
from engine.truce._view import decide, ledger_rows, order_form

REMOVED = "coins removed per round"


class Truce(Game):
    name: ClassVar[str] = "truce"
    title: ClassVar[str] = "Truce"
    option_keys: ClassVar[frozenset[str]] = frozenset({"rounds", "initial_stash"})
    example_config: ClassVar[tuple[tuple[str, Any, str], ...]] = (
        ("rounds", 10, "How many rounds the game lasts."),
    )

    def setup(self, players: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> TruceState:
        if len(set(players)) != len(players) or len(players) < MIN_PLAYERS:
            raise ValueError(
                f"Truce needs at least {MIN_PLAYERS} players with distinct names, got {list(players)}"
            )
        rounds = int(options.get("rounds", 10))
        stash = int(options.get("initial_stash", 1))
        if rounds < 1 or stash < 0:
            raise ValueError(f"Truce needs rounds ≥ 1 and initial_stash ≥ 0, got {rounds} and {stash}")
        return TruceState(
            players=tuple(Player(name) for name in players),
            stash=stash,
            round=1,
            rounds=rounds,
            nicknames=_nicknames(tuple(players), options.get("nicknames", {})),
        )

    amendable_options: ClassVar[frozenset[str]] = frozenset({"rounds", "nicknames"})

    def amend(self, state: TruceState, option: str, value: Any) -> TruceState:
        """The organiser changes ``rounds`` mid-game: never below the round under way. ``nicknames``
        (player → names) changes when a substitute takes a seat under a name of their own: orders
        name the seat by it from then on."""
        if option == "nicknames":
            return dataclasses.replace(state, nicknames=_nicknames(state.names, value))
        rounds = int(value)
        if state.finished or rounds < state.round:
            raise ValueError(f"round {state.round} is under way, so the game needs at least that many rounds")
        return dataclasses.replace(state, rounds=rounds)

    def phase(self, state: TruceState) -> Phase:
        if state.finished:
            return Phase(key="finished", kind="finished", number=state.rounds, label="Finished")
        n = state.round
        return Phase(key=f"round-{n}", kind="action", number=n, label=f"Round {n} of {state.rounds}")

    def awaiting(self, state: TruceState) -> frozenset[str]:
        return frozenset() if state.finished else frozenset(state.names)

    @forgiving
    def parse(self, state: TruceState, player: str, text: str) -> Submission:
        return parse_orders(state, player, text)

    def vocabulary(self, state: TruceState) -> Vocabulary:
        return Vocabulary.of(VERBS, state.spellings())

    def immediate(self, state: TruceState, submission: Submission) -> tuple[TruceState, tuple[Event, ...]]:
        """Gifts take effect on receipt: from the giver's Supply into the receiver's Spoils."""
        return apply_gifts(state, submission)

    def combine(self, earlier: Submission | None, later: Submission) -> Submission:
        """The action that stands: ``later``'s if it has one, else ``earlier``'s. Gifts were
        applied on receipt, so no gift line stands."""
        actions = [line for line in later.orders if not _is_gift(line)]
        notes = later.notes
        if not actions and earlier is not None:
            actions = [line for line in earlier.orders if not _is_gift(line)]
            if actions:
                notes = (*notes, f"Your earlier action still stands: “{actions[-1]}”.")
        return dataclasses.replace(later, orders=tuple(actions[-1:]), notes=notes)

    def absent_default(self, state: TruceState, player: str) -> str:
        return "you pass"

    def default(self, state: TruceState, player: str, rng: random.Random) -> Submission:
        return Submission(player, ("pass",), notes=("No orders came this round, so you pass.",))

    def resolve(
        self, state: TruceState, submissions: Mapping[str, Submission], rng: random.Random
    ) -> Resolution:
        if state.finished:
            raise ValueError("the game is over; there is no round to resolve")
        after, events = resolve_round(state, submissions)
        after = dataclasses.replace(after, supplies=(*state.supplies, tuple(p.supply for p in after.players)))
        return Resolution(after, tuple(events))

    def pictures(self, state: TruceState, viewer: str | None) -> list[Picture]:
        """The standings chart: each player's Supply after every round, as the Ledger showed it
        (never the Spoils a gift has put aside this round). The same for every player; none for the
        organiser (``viewer=None``), who has the Ledger and needs no report of its own."""
        if not state.supplies or viewer is None:
            return []
        series = {
            name: [STARTING_SUPPLY, *(row[i] for row in state.supplies)] for i, name in enumerate(state.names)
        }
        played = len(state.supplies)
        title = f"Truce: Supply after round {played} of {state.rounds}"
        return [Picture(f"standings-round-{played}", title, standings_chart(title, series, x_label="round"))]

    def outcome(self, state: TruceState) -> Outcome | None:
        return decide(state) if state.finished else None

    def standings(self, state: TruceState) -> Outcome:
        """As the game would end now: most Supply, then most supporters in the last round."""
        return decide(state)

    def ledger(self, state: TruceState) -> list[dict[str, Any]]:
        return ledger_rows(state)

    def order_template(self, state: TruceState, player: str) -> str:
        return order_form(state, player)

    def headline(self, state: TruceState, events: Sequence[Event], viewer: str) -> str | None:
        return _headline.headline(state, events, viewer)

    def asked(self, state: TruceState, player: str) -> str | None:
        return _headline.asked(state, player)

    def to_json(self, state: TruceState) -> JSON:
        return state_to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> TruceState:
        return state_from_json(data)

    def read_request(self, request: Mapping[str, Any], seed: str) -> tuple[TruceState, dict[str, str]]:
        return read_request(request)

    def answer_json(self, played: Played) -> JSON:
        return answer_json(played)

    simulated: ClassVar[Simulated] = Simulated(players=5, unit="round", histograms=frozenset({REMOVED}))

    view_of = staticmethod(_bot.view_of)
    bot_orders = staticmethod(_bot.bot_orders)

    def counts(self, events: Sequence[Event]) -> list[Count]:
        """The coins a round removed (none is a count too)."""
        return [Count(REMOVED, sum(e.coins for e in events if isinstance(e, CoinsRemoved)))]


def _nicknames(
    players: Sequence[str], nicknames: Mapping[str, Any]
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    unknown = sorted(set(nicknames) - set(players))
    if unknown:
        raise ValueError(f"nicknames given for players not in the game: {', '.join(unknown)}")
    return tuple((name, _listed(nicknames[name])) for name in players if name in nicknames)


def _listed(nicknames: str | Sequence[str]) -> tuple[str, ...]:
    return (nicknames,) if isinstance(nicknames, str) else tuple(nicknames)


def _is_gift(line: str) -> bool:
    return line.split(maxsplit=1)[:1] == ["gift"]
