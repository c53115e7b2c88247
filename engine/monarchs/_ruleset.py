"""The Game of Monarchs as a Courier game: three nations on a 61-hex board under fog of war. In board
mode the monarchs mail their own orders; in court mode (option ``mode = court``) their courtiers
deliver them, some of them traitors, and the monarchs name the traitors at the end."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.core import (
    Count,
    Event,
    Game,
    LineError,
    Outcome,
    Phase,
    Picture,
    Played,
    Resolution,
    Simulated,
    Submission,
    rank_by,
)
from engine.monarchs import _bot, _headline
from engine.monarchs._board import CENTRE, NATIONS
from engine.monarchs._court import Court
from engine.monarchs._courtplay import (
    CHOICES,
    HAND,
    carried,
    carrier_reports,
    choices_of,
    deliveries,
    guesses_from,
    handed_of,
    handed_over,
    map_recipients,
    parse_choices,
    parse_delivery,
    parse_guesses,
)
from engine.monarchs._events import (
    CarrierReported,
    GameEnded,
    GuessesMade,
    LastOrdersTaken,
    LoyaltyDealt,
    LoyaltyRevealed,
    MapShown,
    MonarchScored,
    TurnScored,
)
from engine.monarchs._final import final_scores, rightly_named
from engine.monarchs._json import answer_json, other_request
from engine.monarchs._maps import pictures
from engine.monarchs._parse import boost_added, is_blank, orders_by_nation, orders_submission, read_orders
from engine.monarchs._position import Position
from engine.monarchs._seats import board_seats, court_seats
from engine.monarchs._state import JSON, MonarchsState, state_from_json, state_to_json
from engine.monarchs._turn import board_ranking, play_turn
from engine.monarchs._view import court_form, order_form
from engine.reading import Vocabulary, forgiving


class Monarchs(Game):
    name: ClassVar[str] = "monarchs"
    title: ClassVar[str] = "The Game of Monarchs"
    option_keys: ClassVar[frozenset[str]] = frozenset(
        {"turns", "mode", "publish_scores", "loyal_constant", "disloyal_constant"}
    )
    example_config: ClassVar[tuple[tuple[str, Any, str], ...]] = (
        ("turns", 8, "How many turns the game lasts (the last counts double)."),
        (
            "mode",
            "board",
            "board: three monarchs mail their orders; court: 18 players, courtiers carry them.",
        ),
    )

    def setup(self, players: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> MonarchsState:
        turns = int(options.get("turns", 8))
        if turns < 1:
            raise ValueError(f"turns must be at least 1, got {turns}")
        mode = str(options.get("mode", "board")).strip().lower()
        roles = options.get("roles", {})
        court: Court | None = None
        if mode == "board":
            monarchs = board_seats(players, roles, rng)
        elif mode == "court":
            monarchs, court = court_seats(players, roles, rng)
            court = court.with_nicknames(options.get("nicknames", {}), players)
        else:
            raise ValueError(f"mode must be board or court, got {mode!r}")
        return MonarchsState(
            position=Position.start(),
            turn=1,
            turns=turns,
            monarchs=monarchs,
            publish_scores=bool(options.get("publish_scores", False)),
            court=court,
            constants=(int(options.get("loyal_constant", 18)), int(options.get("disloyal_constant", 19))),
        )

    amendable_options: ClassVar[frozenset[str]] = frozenset({"turns", "nicknames"})

    def amend(self, state: MonarchsState, option: str, value: Any) -> MonarchsState:
        """The organiser changes ``turns`` mid-game: never below the turn under way. ``nicknames``
        (player → names) changes when a substitute takes a seat under a name of their own: in court
        mode a monarch names that courtier by it from then on (board mode names no player)."""
        if option == "nicknames":
            if state.court is None:
                return state
            players = [*state.monarchs, *(c.name for c in state.court.courtiers)]
            return dataclasses.replace(state, court=state.court.with_nicknames(value, players))
        turns = int(value)
        if state.finished or _guessing(state) or turns < state.turn:
            raise ValueError(f"turn {state.turn} is under way, so the game needs at least that many turns")
        return dataclasses.replace(state, turns=turns)

    def phase(self, state: MonarchsState) -> Phase:
        if state.finished:
            return Phase("finished", "finished", state.turns, "Finished")
        if _guessing(state):
            # Read mid-sentence too ("Next comes Monarchs' guesses."): no leading "The".
            return Phase("guesses", "guesses", state.turns, "Monarchs' guesses")
        n = state.turn
        return Phase(f"turn-{n}", "orders", n, f"Turn {n} of {state.turns}")

    def awaiting(self, state: MonarchsState) -> frozenset[str]:
        if state.finished:
            return frozenset()
        if state.court is None or _guessing(state):
            return frozenset(state.monarchs)
        return frozenset(state.monarchs) | frozenset(state.court.carrier.values())

    def awaiting_seen_by(self, state: MonarchsState, viewer: str) -> frozenset[str]:
        """Board mode: everyone awaited (the monarchs mail their own orders). Court mode: a monarch
        learns only of itself and its own carrier, a courtier only of itself: who carries, and
        whether a carrier or a monarch has written yet, stays within the nation's own side."""
        awaited = self.awaiting(state)
        if state.court is None:
            return awaited
        nation = state.nation_of(viewer)
        own = {viewer, state.court.carrier.get(nation, "")} if nation else {viewer}
        return awaited & own

    def opening_events(self, state: MonarchsState) -> tuple[Event, ...]:
        """In court mode each courtier learns its own loyalty, privately."""
        courtiers = state.court.courtiers if state.court is not None else ()
        return tuple(
            LoyaltyDealt(audience=frozenset({c.name}), courtier=c.name, serves=c.serves, loyal_to=c.loyal_to)
            for c in courtiers
        )

    # --- orders -------------------------------------------------------------------------------

    def vocabulary(self, state: MonarchsState) -> Vocabulary:
        """Orders name hexes (``c5``), nations, and in court mode the courtiers (``map to Dora``)."""
        court = state.court
        courtiers = (
            [*(c.name for c in court.courtiers), *(n for v in court.nicknames.values() for n in v)]
            if court
            else []
        )
        verbs = ["boost", "hold", "move", "moves", "map", "carrier", "hand", "serves", "serve"]
        names = [*NATIONS, *courtiers, *state.monarchs]
        return Vocabulary.of(verbs, names, name_shape=r"[a-z]\d{1,2}", signs=["-", "->", "→", "=>"])

    @forgiving
    def parse(self, state: MonarchsState, player: str, text: str) -> Submission:
        court = state.court
        if court is not None and _guessing(state):
            nation = state.nation_of(player)
            if nation is None:
                return _refused(
                    player, text, "the orders are in; only the monarchs write now (their guesses)"
                )
            return parse_guesses(court, nation, player, text)
        nation = state.nation_of(player)
        if court is not None:
            if nation is not None:
                return parse_choices(state, court, nation, player, text)
            return parse_delivery(state, court, player, text)
        if nation is None:
            return _refused(player, text, "you command no nation in this game")
        lines = [line for line in text.splitlines() if not is_blank(line)]
        return orders_submission(player, *read_orders(nation, state.position, lines))

    def immediate(
        self, state: MonarchsState, submission: Submission
    ) -> tuple[MonarchsState, tuple[Event, ...]]:
        """In court mode a monarch's choice of carrier and map recipient is recorded on receipt:
        from then on only that carrier's mail counts (see ``parse``). Orders it hands through
        Courier go to the carrier at once, privately (a new carrier is handed them too)."""
        court, nation = state.court, state.nation_of(submission.player)
        if court is None or nation is None or _guessing(state):
            return state, ()
        chosen = choices_of(submission)
        named = court.named(
            nation, carrier=chosen.get("carrier "), map_to=chosen.get("map to "), handed=handed_of(submission)
        )
        after = dataclasses.replace(state, court=named)
        return after, tuple(handed_over(after, named, nation, before=court))

    def silent_order(self, state: MonarchsState, players: frozenset[str]) -> list[str]:
        """Silent seats act monarchs first: a bot monarch's choices (its carrier, the orders it hands)
        take effect before the courtiers' bots decide, as a person's mail does on receipt."""
        return sorted(players, key=lambda p: (state.nation_of(p) is None, p))

    def combine(self, earlier: Submission | None, later: Submission) -> Submission:
        """A monarch's choices combine line by line (a mail naming only the map's recipient keeps
        the carrier and the orders handed); orders handed replace those handed before whole; a
        mail with only a boost adds it to the moves standing (issue 29: a player adding a forgotten
        boost means to add it); any other mail replaces the earlier whole, unless it has no orders."""
        added = boost_added(earlier, later)
        if added is not None:
            return added
        if earlier is None or not later.orders or not _choices_only(earlier, later):
            return super().combine(earlier, later)
        merged = {**choices_of(earlier), **choices_of(later)}
        handed = handed_of(later) or handed_of(earlier)
        lines = (*(f"{k}{merged[k]}" for k in CHOICES if k in merged), *(f"{HAND}{line}" for line in handed))
        return dataclasses.replace(later, orders=lines)

    def absent_default(self, state: MonarchsState, player: str) -> str:
        return "no regiment moves and no hex is boosted"

    def default(self, state: MonarchsState, player: str, rng: random.Random) -> Submission:
        return Submission(player, notes=("No orders came: no regiment moves and no hex is boosted.",))

    # --- resolution ---------------------------------------------------------------------------

    def resolve(
        self, state: MonarchsState, submissions: Mapping[str, Submission], rng: random.Random
    ) -> Resolution:
        if state.finished:
            raise ValueError("the game is over; there is no turn to resolve")
        if state.court is None:
            return self._board_turn(state, submissions, rng)
        if _guessing(state):
            return self._final_turn(state, state.court, submissions, rng)
        return self._court_turn(state, state.court, submissions, rng)

    def _board_turn(
        self, state: MonarchsState, submissions: Mapping[str, Submission], rng: random.Random
    ) -> Resolution:
        standing = {state.monarchs[p]: s.orders for p, s in submissions.items() if p in state.monarchs}
        viewers = {n: frozenset({state.monarch_of(n)}) for n in NATIONS}
        after, events = _turn(state, standing, viewers, rng)
        if after.turn > after.turns:
            order = board_ranking(after.scores, after.position, rng)
            after, end = _board_end(after, order)
            events += end
        return Resolution(after, tuple(events))

    def _court_turn(
        self, state: MonarchsState, court: Court, submissions: Mapping[str, Submission], rng: random.Random
    ) -> Resolution:
        standing = carried(court, submissions)
        events = carrier_reports(state, court, standing)
        noted = deliveries(state, court, standing)
        moved = court.after_turn({n: court.carrier[n] for n in standing}, map_recipients(court, rng), noted)
        if state.last_turn:  # the outcome waits for the monarchs' guesses
            pending = {n: standing.get(n, ()) for n in NATIONS}
            after = dataclasses.replace(state, court=dataclasses.replace(moved, pending=pending))
            return Resolution(after, (LastOrdersTaken(turn=state.turn, turns=state.turns), *events))
        viewers = {n: moved.map_viewers(n) for n in NATIONS}
        after, played = _turn(dataclasses.replace(state, court=moved), standing, viewers, rng)
        return Resolution(after, tuple(events + played))

    def _final_turn(
        self, state: MonarchsState, court: Court, submissions: Mapping[str, Submission], rng: random.Random
    ) -> Resolution:
        guesses = {n: guesses_from(submissions.get(state.monarch_of(n))) for n in NATIONS}
        court = dataclasses.replace(court, guesses=guesses, pending={})
        viewers = {n: court.map_viewers(n) for n in NATIONS}
        pending = state.court.pending if state.court else {}
        after, events = _turn(dataclasses.replace(state, court=court), pending, viewers, rng)
        final = final_scores(
            court, after.scores, after.position, turns=state.turns, constants=state.constants, rng=rng
        )
        events += [GuessesMade(nation=n, guesses=guesses[n]) for n in NATIONS]
        events += [
            MonarchScored(
                nation=n,
                nation_score=after.scores[n],
                right=tuple(rightly_named(court, n)),
                score=final.monarchs[n],
            )
            for n in NATIONS
        ]
        for c in court.courtiers:
            events.append(
                LoyaltyRevealed(
                    courtier=c.name,
                    serves=c.serves,
                    loyal_to=c.loyal_to,
                    score=final.courtiers[c.name],
                    halved=c.name in final.halved,
                )
            )
        winner = state.monarch_of(final.nations[0])
        winners = (winner, *final.courtier_winners)
        others = [c for c in sorted(final.courtiers, key=lambda c: -final.courtiers[c]) if c not in winners]
        ranking = (winners, *((state.monarch_of(n),) for n in final.nations[1:]), *((c,) for c in others))
        reason = (
            f"{final.nations[0].title()} ({winner}) has the best monarch score; "
            f"the courtiers {', '.join(final.courtier_winners)} win"
        )
        after = dataclasses.replace(after, ranking=ranking, winners=winners, reason=reason)
        # The winner and the scores first, then how they came about, the map last (issue 29 QA).
        ended = GameEnded(scores={**final.monarchs, **final.courtiers}, winners=winners, reason=reason)
        return Resolution(after, (ended, *events, *_reveal(after)))

    def outcome(self, state: MonarchsState) -> Outcome | None:
        return Outcome(state.ranking, state.winners, state.reason) if state.finished else None

    def standings(self, state: MonarchsState) -> Outcome:
        """The monarchs as the board ranks their nations (score, the centre, hexes held), ties
        sharing a place; a courtier's score needs the monarchs' guesses, so courtiers are not ranked."""
        position = state.position

        def board(player: str) -> tuple[int, bool, int]:
            nation = state.monarchs[player]
            return state.scores[nation], position.owners[CENTRE] == nation, len(position.hexes_of(nation))

        ranking = rank_by((state.monarch_of(n) for n in NATIONS), board)
        leaders = ranking[0] if ranking else ()
        named = ", ".join(f"{state.monarchs[p].title()} ({p})" for p in leaders)
        score = state.scores[state.monarchs[leaders[0]]] if leaders else 0
        courtiers = "; courtiers are not ranked before the monarchs' guesses" if state.court else ""
        return Outcome(ranking, leaders, f"{named}: the highest score, {score}{courtiers}")

    def ledger(self, state: MonarchsState) -> list[dict[str, Any]]:
        show = state.publish_scores or state.finished
        # In court mode whether a monarch has written (named its carrier) stays private: a courtier
        # refused with the neutral line must not learn from the sheet that someone else was named;
        # nor whether a carrier delivered: only its monarch is told (CarrierReported).
        court = state.court is not None
        secret = {"Orders in": "—"} if court else {}
        return [
            {
                "Nation": nation.title(),
                "Player": state.monarch_of(nation),
                "Turns played": min(state.turn, state.turns + 1) - 1,
                "Orders last turn": "—" if court else _delivered(state, nation),
                # court mode: the monarch's own score adds its guesses (MonarchScored, at the end)
                ("Nation score" if court else "Score"): state.scores[nation] if show else "",
                **secret,
            }
            for nation in NATIONS
        ]

    def headline(self, state: MonarchsState, events: Sequence[Event], viewer: str) -> str | None:
        return _headline.headline(state, events, viewer)

    def asked(self, state: MonarchsState, player: str) -> str | None:
        return _headline.asked(state, player)

    def order_template(self, state: MonarchsState, player: str) -> str:
        if state.court is not None:
            return court_form(state, state.court, player)
        nation = state.nation_of(player)
        if nation is None:
            return ""
        return order_form(state.position, nation, turn=state.turn, turns=state.turns, show_map=True)

    def organiser_events(self, events: Sequence[Event]) -> list[Event]:
        """A carrier's report speaks to its monarch ("Your carrier R1 delivered…"): the organiser
        reads it in the third person ("Red's carrier R1 delivered its orders…")."""
        return [dataclasses.replace(e, retold=True) if isinstance(e, CarrierReported) else e for e in events]

    def pictures(self, state: MonarchsState, viewer: str | None) -> list[Picture]:
        """The map after a turn, as ``viewer`` may see it (``None``: the organiser's whole map)."""
        return pictures(state, viewer)

    # --- JSON ---------------------------------------------------------------------------------

    def to_json(self, state: MonarchsState) -> JSON:
        return state_to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> MonarchsState:
        return state_from_json(data)

    def other_request(self, request: Mapping[str, Any]) -> JSON | None:
        return other_request(request)

    def answer_json(self, played: Played) -> JSON:
        return answer_json(self, played)

    simulated: ClassVar[Simulated] = Simulated(players=3, unit="turn")

    view_of = staticmethod(_bot.view_of)
    bot_orders = staticmethod(_bot.bot_orders)

    def your_part(self, state: MonarchsState, player: str) -> str:
        """A monarch plays its nation; a courtier's part, and its secret loyalty, is told to it
        alone by its opening line (LoyaltyDealt), so nothing more is said."""
        nation = state.monarchs.get(player)
        return f"You play {nation.title()}." if nation else ""

    def seat_labels(self, state: MonarchsState, seats: Sequence[str]) -> dict[str, str]:
        """A monarch is called by its nation; in court mode a courtier by its part."""
        labels = dict(state.monarchs)
        if state.court is not None:
            labels |= {c.name: "loyal courtier" if c.loyal else "spy" for c in state.court.courtiers}
        return labels

    def counts(self, events: Sequence[Event]) -> list[Count]:
        """Each courtier's score, by part; each nation's running total (the last one stands)."""
        counts = []
        for e in events:
            if isinstance(e, LoyaltyRevealed):
                part = "loyal courtier score" if e.serves == e.loyal_to else "spy score"
                counts.append(Count(part, e.score))
            elif isinstance(e, TurnScored):
                counts.append(Count("nation score", e.total, per=e.nation))
        return counts


def _guessing(state: MonarchsState) -> bool:
    return state.court is not None and bool(state.court.pending)


def _delivered(state: MonarchsState, nation: str) -> str:
    """The Ledger's "Orders last turn" in board mode (public: the monarchs mail their own)."""
    return "yes" if nation in state.delivered else ("no" if state.turn > 1 else "")


def _choices_only(*submissions: Submission) -> bool:
    return all(line.startswith((*CHOICES, HAND)) for s in submissions for line in s.orders)


def _refused(player: str, text: str, why: str) -> Submission:
    lines = [line.strip() for line in text.splitlines() if not is_blank(line)]
    return Submission(player, errors=(LineError(lines[0] if lines else "", why),))


def _turn(
    state: MonarchsState,
    standing: Mapping[str, tuple[str, ...]],
    viewers: Mapping[str, frozenset[str]],
    rng: random.Random,
) -> tuple[MonarchsState, list[Event]]:
    delivered = tuple(n for n in NATIONS if standing.get(n))
    return play_turn(state, orders_by_nation(standing, state.position), delivered, viewers, rng)


def _board_end(state: MonarchsState, order: list[str]) -> tuple[MonarchsState, list[Event]]:
    ranking = tuple((state.monarch_of(n),) for n in order)
    winner = ranking[0]
    reason = f"{order[0].title()} has the highest score, {state.scores[order[0]]}"
    after = dataclasses.replace(state, ranking=ranking, winners=winner, reason=reason)
    return after, [GameEnded(scores=dict(state.scores), winners=winner, reason=reason), *_reveal(after)]


def _reveal(state: MonarchsState) -> list[Event]:
    """The final report shows the whole map to everybody: one line per nation listing its hexes,
    then the hexes nobody holds, if any."""
    position = state.position
    hexes = [(h, position.owners[h], position.armies.get(h, (None, 0))[1]) for h in position.owners]
    held = [(n, tuple(h for h in hexes if h[1] == n)) for n in (*NATIONS, None)]
    return [MapShown(nation=n or "", turn=state.turns, hexes=mine, final=True) for n, mine in held if mine]


MONARCHS = Monarchs()
