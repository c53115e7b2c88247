"""The Ruleset contract every game implements, and the value types it shares.

The engine is sans-I/O in the way h11 is: a pure function of its inputs. The shell (``courier``)
feeds it player text and a seeded ``random.Random``, and gets back new states and events. Nothing
here reads a clock, a file, the environment or the module-level ``random`` functions.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import itertools
import random
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, runtime_checkable

__all__ = [
    "OPTIONAL_HOOKS",
    "AbsentDefault",
    "Asked",
    "ConfigDefaults",
    "Count",
    "Event",
    "Exemplified",
    "Game",
    "Headline",
    "Illustrated",
    "Joinable",
    "LineError",
    "MailsOnlyAwaited",
    "Opening",
    "OptionChecked",
    "Outcome",
    "Phase",
    "Picture",
    "Played",
    "PrivateAwaiting",
    "QuietRounds",
    "Ranked",
    "Resolution",
    "Ruleset",
    "SilentInTurn",
    "Simulated",
    "Standing",
    "Submission",
    "Windowed",
    "awaiting_seen",
    "event_to_json",
    "fold",
    "match_name",
    "play_phase",
    "rank_by",
    "rng_for",
    "settle_silent",
    "visible_to",
]

JSON = dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class Event:
    """Something that happened. Subclasses are past-tense (``AttackSucceeded``).

    ``audience`` is ``None`` for a public event, else the players who may see it. Templates are
    named after the event class.
    """

    audience: frozenset[str] | None = None
    # A rule needs the audience told at once (a carrier must act before the deadline): the shell never
    # lets such news wait for the next mail. Most news can wait (a gift, a newcomer).
    urgent: ClassVar[bool] = False

    @property
    def public(self) -> bool:
        return self.audience is None

    @property
    def name(self) -> str:
        return type(self).__name__


def visible_to(events: Iterable[Event], player: str | None) -> list[Event]:
    """Events one player may see; ``player=None`` means the public (the sheet)."""
    return [e for e in events if e.audience is None or (player is not None and player in e.audience)]


def event_to_json(event: Event) -> JSON:
    data = {f.name: _plain(getattr(event, f.name)) for f in dataclasses.fields(event)}
    return {"event": event.name, **data}


def _plain(value: Any) -> Any:
    if isinstance(value, (frozenset, set)):
        return sorted(_plain(v) for v in value)
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


@dataclass(frozen=True)
class LineError:
    """A player's mistake on one line: quotes the line, says why, offers the likely reading."""

    line: str
    reason: str
    suggestion: str | None = None

    def __str__(self) -> str:
        hint = f" Did you mean “{self.suggestion}”?" if self.suggestion else ""
        return f"“{self.line}”: {self.reason}.{hint}"

    def to_json(self) -> JSON:
        return {"line": self.line, "reason": self.reason, "suggestion": self.suggestion}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LineError:
        return cls(data["line"], data["reason"], data.get("suggestion"))


@dataclass(frozen=True)
class Submission:
    """What one player's message said, as understood.

    ``orders`` are canonical order lines (each parses back to itself). ``errors`` are the lines
    that were not understood or not legal; ``notes`` are remarks for the receipt (“the last action
    line wins”). A submission with no orders and only errors still counts as having written.
    """

    player: str
    orders: tuple[str, ...] = ()
    errors: tuple[LineError, ...] = ()
    notes: tuple[str, ...] = ()

    def to_json(self) -> JSON:
        return {
            "player": self.player,
            "orders": list(self.orders),
            "errors": [e.to_json() for e in self.errors],
            "notes": list(self.notes),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Submission:
        return cls(
            player=data["player"],
            orders=tuple(data.get("orders", ())),
            errors=tuple(LineError.from_json(e) for e in data.get("errors", ())),
            notes=tuple(data.get("notes", ())),
        )


@dataclass(frozen=True)
class Phase:
    """Where a game stands. ``key`` is unique within a game and names the round in the journal."""

    key: str
    kind: str
    number: int
    label: str


@dataclass(frozen=True)
class Resolution:
    state: Any
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Outcome:
    ranking: tuple[tuple[str, ...], ...]  # best first; players sharing a place share a tuple
    winners: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class Count:
    """One number ``courier simulate`` counts from a phase's events (coins removed in a Truce round).
    With ``per``, a running total: only the last value for each ``per`` in a game counts (Monarchs'
    score of each nation after its last turn)."""

    name: str
    value: float
    per: str | None = None


@dataclass(frozen=True)
class Simulated:
    """What ``courier simulate`` reports of a game beside its win rates: what its length is counted
    in (round, step, turn: a word whose plural takes an s), whether solo victories and draws are
    spelt out (Diplomacy), and which of its counts are also shown value by value. ``players`` is a
    usual table, the one the benchmarks and the bot tests play."""

    players: int
    unit: str = "phase"
    draws: bool = False
    histograms: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Picture:
    """A picture of the game as one viewer may see it, as SVG text (the shell makes the PNG)."""

    name: str  # a file name without extension: "map-turn-3"
    title: str
    svg: str


@runtime_checkable
class Illustrated(Protocol):
    """Optional: a ruleset whose reports carry pictures (maps, charts). ``viewer=None`` is the
    organiser's unfogged view (none: the organiser's report of the round has no picture, as for
    Truce's and Veneer's charts, which show only what the Ledger shows); a player's view shows only
    what that player may see."""

    def pictures(self, state: Any, viewer: str | None) -> list[Picture]: ...


@runtime_checkable
class Opening(Protocol):
    """Optional: what a game tells at its start (secret roles, dealt cards), in the welcome mail."""

    def opening_events(self, state: Any) -> Iterable[Event]: ...


@runtime_checkable
class Joinable(Protocol):
    """Optional: players added to the Players tab mid-game join (Talossan RISK); ``ValueError`` when
    they cannot (no free land), which the organiser is told."""

    def join(self, state: Any, player: str, role: str, rng: random.Random) -> tuple[Any, Sequence[Event]]: ...


@runtime_checkable
class OptionChecked(Protocol):
    """Optional: the game judges a data file the organiser names (``deck_file``, ``map_file``) at
    config load; each problem is one line of the organiser's mail."""

    def check_option(self, option: str, value: Any) -> list[str]: ...


@runtime_checkable
class KnownOptions(Protocol):
    """Optional: the game's own Config keys, so a misspelt one is pointed out, not silently ignored
    (a ``KEY_file`` names a data file for option ``KEY``; ``KIND_duration`` is a phase's clock)."""

    option_keys: ClassVar[frozenset[str]]


@runtime_checkable
class ConfigDefaults(Protocol):
    """Optional: defaults for the game's own Config keys (a phase's clock)."""

    default_config: ClassVar[Mapping[str, str]]


@runtime_checkable
class MailsOnlyAwaited(Protocol):
    """Optional: a game of many short phases (Veneer) mails a phase's report only to those who must
    act next or have news of their own (everyone at the end)."""

    mail_only_awaited: ClassVar[bool]


@runtime_checkable
class Exemplified(Protocol):
    """Optional: the game's own Config keys as ``courier init --game`` writes them, each as
    (key, example value, note): Truce's ``rounds``, Monarchs' ``turns`` and ``mode``."""

    example_config: ClassVar[tuple[tuple[str, Any, str], ...]]


@runtime_checkable
class OpenResults(Protocol):
    """Optional, with ``mail_only_awaited``: who hears of a resolved phase though they need not act
    next, and which of its results are listed on History (Veneer: votes, attacks and flipped cards
    go to every living player and onto History)."""

    def told(self, state: Any, events: Sequence[Event]) -> frozenset[str]: ...

    def open_results(self, events: Sequence[Event]) -> list[Event]:
        """The events of a resolved phase that the History tab lists, one line each."""
        ...


@runtime_checkable
class AnyTimeOrders(Protocol):
    """Optional: who may write in the current phase though it does not wait for them (Veneer: an
    action card may be played at any time). Their orders are resolved with the awaited players';
    nobody gets a default for not writing."""

    def writers(self, state: Any) -> frozenset[str]: ...


def writers_of(ruleset: Any, state: Any) -> frozenset[str]:
    """Every player whose orders the current phase takes: those awaited, and any-time writers."""
    extra = ruleset.writers(state) if isinstance(ruleset, AnyTimeOrders) else frozenset()
    return frozenset(ruleset.awaiting(state)) | extra


def awaiting_seen(ruleset: Any, state: Any, viewer: str) -> frozenset[str]:
    """The awaited players ``viewer`` may know are awaited (all of them, unless the game keeps it
    private: ``PrivateAwaiting``)."""
    awaited = frozenset(ruleset.awaiting(state))
    if isinstance(ruleset, PrivateAwaiting):
        return awaited & ruleset.awaiting_seen_by(state, viewer)
    return awaited


@runtime_checkable
class QuietRounds(Protocol):
    """Optional: who hears of a round, from the state after it: ``None``, everyone; else the players
    named and anyone with news of their own (Star Trek's intelligence window opens for the informed
    alone). Everyone hears the end."""

    def reported_to(self, state: Any) -> frozenset[str] | None: ...


@runtime_checkable
class PrivateAwaiting(Protocol):
    """Optional: whose silence ``viewer`` may learn of (``status``'s "Not written yet"); without it
    the whole of ``awaiting`` is public. Monarchs' court: a carrier is named privately and whether
    it delivered is its monarch's business, so each player hears only of its own side."""

    def awaiting_seen_by(self, state: Any, viewer: str) -> frozenset[str]: ...


@runtime_checkable
class Standing(Protocol):
    """Optional: orders that stand for a player before any mail of the phase (Star Trek's
    intelligence window: those given at the main deadline). A mail amends them through ``combine``;
    nobody with standing orders is reminded."""

    def standing(self, state: Any, player: str) -> Submission | None: ...


@runtime_checkable
class Ranked(Protocol):
    """Optional: the standings as the game stands, for a game the organiser ends before its end:
    the players best first by the game's own measure (Truce's Supply, Diplomacy's centres), those
    sharing a place in one tuple, the first place as ``winners`` and a ``reason`` saying the measure.
    Without it the shell ranks by the order of ``ledger`` rows, which is no standing."""

    def standings(self, state: Any) -> Outcome: ...


@runtime_checkable
class Amendable(Protocol):
    """Optional: options the organiser may change mid-game by editing Config (Truce's ``rounds``,
    Monarchs' ``turns``); ``ValueError`` says why a value cannot apply (fewer rounds than played)."""

    amendable_options: ClassVar[frozenset[str]]

    def amend(self, state: Any, option: str, value: Any) -> Any: ...


@runtime_checkable
class SilentInTurn(Protocol):
    """Optional: seats that sent nothing act in turn, as a person's mail does on receipt. The shell
    settles them one at a time, the first of ``silent_order`` each time: that seat's default or bot
    orders are applied through ``immediate`` before the next seat decides, and ``awaiting`` is asked
    again (Monarchs' court: a bot monarch names its carrier and hands it its orders, then the
    carrier's bot delivers them). Without the hook every silent seat decides from the state the
    mail left, and nothing it says takes effect before resolution (Talossa's drawn plans keep their
    place after the written ones)."""

    def silent_order(self, state: Any, players: frozenset[str]) -> Sequence[str]: ...


@runtime_checkable
class OwnRequests(Protocol):
    """Optional: the game reads a ``courier resolve`` request itself: its own state format and
    checks, each with a clear ``ValueError`` (Truce's state, Diplomacy's position, the players a
    request may give orders for). Returns the state and each player's text, in the order given.
    Without it, ``engine.request.read_request`` reads ``state`` or ``players`` and ``options``."""

    def read_request(self, request: Mapping[str, Any], seed: str) -> tuple[Any, dict[str, str]]: ...


@runtime_checkable
class OtherRequests(Protocol):
    """Optional: requests that are not a phase of a game, answered by the game alone (Monarchs' one
    turn of the board from a map and scores); ``None`` for a phase request."""

    def other_request(self, request: Mapping[str, Any]) -> JSON | None: ...


@runtime_checkable
class Headline(Protocol):
    """Optional: the viewer's own result of a resolved phase in one line, at the top of their report
    ("Your attack on Agatha succeeded: supply 6 (+1)"); ``None`` when there is nothing of their own
    to say. ``events`` are only those the viewer may see (the shell filters them), and the line may
    use of ``state`` (after the phase) only what the viewer may know."""

    def headline(self, state: Any, events: Sequence[Event], viewer: str) -> str | None: ...


@runtime_checkable
class Asked(Protocol):
    """Optional: the action asked of ``player`` now, short, for subjects and the top of a mail
    ("Vote now: Disarmament", "Retreats due: A par", "Builds: 2", "Orders for Spring 1901");
    ``None`` when the phase asks nothing of them. Without it the shell says "your orders"."""

    def asked(self, state: Any, player: str) -> str | None: ...


@runtime_checkable
class OrganiserLines(Protocol):
    """Optional: the events the organiser's report lists, where some of a phase's events retell
    others to players who may see less (Star Trek's fog of war tells a reason in full to those who
    see its systems and vaguely to the rest): the organiser reads each once, in full."""

    def organiser_events(self, events: Sequence[Event]) -> list[Event]: ...


@runtime_checkable
class AbsentDefault(Protocol):
    """Optional: what the default does for ``player`` if nothing comes by the deadline, as receipts
    and reminders finish "the default for absent players applies: …" ("you pass", "your units
    hold…"); without it they say only that the default applies."""

    def absent_default(self, state: Any, player: str) -> str: ...


@runtime_checkable
class YourPart(Protocol):
    """Optional: the welcome's sentence saying what ``player``'s seat plays, told to it alone ("You
    play Red."); "" when the opening lines already say it. Without it the shell says "You play
    <seat label>." (``seat_labels`` names parts for statistics, not for a sentence)."""

    def your_part(self, state: Any, player: str) -> str: ...


@runtime_checkable
class Windowed(Protocol):
    """Optional: a phase that opens a window for amendments (Star Trek's intelligence window)
    resolves nothing yet. ``window_opened`` (of the state after a phase) is that report's title and
    first sentence in the game's words, ``None`` when the phase gave results; ``results_label`` (of
    the state before) names the round whose results a phase gives, for the report and History (the
    window's close gives the season's results: "Spring 2370", not "Spring 2370 intelligence window")."""

    def window_opened(self, state: Any) -> tuple[str, str] | None: ...

    def results_label(self, state: Any) -> str: ...


OPTIONAL_HOOKS: tuple[type, ...] = (
    AbsentDefault,
    Amendable,
    Illustrated,
    Opening,
    Joinable,
    OptionChecked,
    ConfigDefaults,
    KnownOptions,
    MailsOnlyAwaited,
    Exemplified,
    OpenResults,
    AnyTimeOrders,
    QuietRounds,
    PrivateAwaiting,
    Standing,
    SilentInTurn,
    OwnRequests,
    OtherRequests,
    Ranked,
    OrganiserLines,
    Headline,
    Asked,
    YourPart,
    Windowed,
)


@runtime_checkable
class Ruleset(Protocol):
    """The contract between a game and the shell. See design.md, "The engine contract"."""

    name: ClassVar[str]
    title: ClassVar[str]
    simulated: ClassVar[Simulated]

    def setup(self, players: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> Any: ...

    def phase(self, state: Any) -> Phase: ...

    def awaiting(self, state: Any) -> frozenset[str]: ...

    def parse(self, state: Any, player: str, text: str) -> Submission:
        """Lenient; decorated with ``engine.reading.forgiving`` so that greetings, labels, sentences
        around one order are read as a human arbiter would, in every game alike."""
        ...

    def vocabulary(self, state: Any) -> Any:
        """The game's order words and names (an ``engine.reading.Vocabulary``) for that reading."""
        ...

    def immediate(self, state: Any, submission: Submission) -> tuple[Any, tuple[Event, ...]]: ...

    def combine(self, earlier: Submission | None, later: Submission) -> Submission: ...

    def default(self, state: Any, player: str, rng: random.Random) -> Submission: ...

    def resolve(
        self, state: Any, submissions: Mapping[str, Submission], rng: random.Random
    ) -> Resolution: ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def ledger(self, state: Any) -> list[dict[str, Any]]: ...

    def order_template(self, state: Any, player: str) -> str: ...

    def to_json(self, state: Any) -> JSON: ...

    def from_json(self, data: Mapping[str, Any]) -> Any: ...

    def answer_json(self, played: Played) -> JSON:
        """``courier resolve``'s answer for a phase played from a request (``engine.request``): the
        state after it (which feeds the next request), its events or results, each player's errors."""
        ...

    # The bot for an empty seat (``engine.bots``): two pure functions, so it decides from what its
    # player may see and nothing more.
    def view_of(self, state: Any, player: str) -> Any:
        """What ``player`` may see of the game, for the bot."""
        ...

    def bot_orders(self, view: Any, rng: random.Random) -> str:
        """The bot's order text, in the game's own form, from a ``view_of``; "" has nothing to say."""
        ...

    # What ``courier simulate`` needs beside ``simulated``.
    def seat_labels(self, state: Any, seats: Sequence[str]) -> dict[str, str]:
        """What a seat is called in the win rates: its power, faction or nation, else itself."""
        ...

    def counts(self, events: Sequence[Event]) -> list[Count]:
        """The game's own numbers from one phase's events, for the statistics."""
        ...


class Game:
    """The parts of the contract most games share, as defaults a ruleset class may inherit."""

    def seat_labels(self, state: Any, seats: Sequence[str]) -> dict[str, str]:
        """A seat is called by its player's name."""
        return {seat: seat for seat in seats}

    def counts(self, events: Sequence[Event]) -> list[Count]:
        """No numbers of the game's own."""
        return []

    def immediate(self, state: Any, submission: Submission) -> tuple[Any, tuple[Event, ...]]:
        """Most games do nothing on receipt: everything waits for the deadline."""
        return state, ()

    def combine(self, earlier: Submission | None, later: Submission) -> Submission:
        """A new mail replaces the earlier orders whole, unless it has none that stand."""
        if later.orders or earlier is None or not earlier.orders:
            return later
        note = "Nothing in this mail could be used; your earlier orders stand."
        return dataclasses.replace(later, orders=earlier.orders, notes=(*later.notes, note))


# --- a phase as the shell plays it -------------------------------------------------------------


def rng_for(seed: str, *parts: str) -> random.Random:
    """The game's randomness for one purpose: a pure function of the secret seed and the phase
    (``rng_for(seed, "setup")``, ``rng_for(seed, phase_key, "default", player)``...)."""
    return random.Random("/".join((seed, *parts)))


@dataclass(frozen=True)
class Played:
    """One phase played as the shell plays it (``play_phase``): what a game needs to answer
    ``courier resolve`` (``Ruleset.answer_json``)."""

    before: Any  # the state the phase started from
    submissions: Mapping[str, Submission]  # every seat's orders the phase resolved: written or default
    received: tuple[Event, ...]  # what the mails did on receipt (Truce's gifts)
    refused: Mapping[str, Submission]  # mails from players the phase took no orders from, as read
    resolution: Resolution


def play_phase(ruleset: Ruleset, state: Any, texts: Mapping[str, str], seed: str) -> Played:
    """One phase as the tick plays it, for ``courier resolve``: each mail read in the order given
    against the state it finds and applied on receipt (a later mail combined with an earlier one;
    one from a player the phase takes no orders from refused), the silent seats settled with their
    defaults (``settle_silent``), then the phase resolved; every roll seeded by ``rng_for`` as the
    tick seeds it, so the same seed and texts give the tick's result."""
    key = ruleset.phase(state).key
    before = state
    taken: dict[str, Submission] = {}
    refused: dict[str, Submission] = {}
    received: list[Event] = []
    for player, text in texts.items():
        submission = ruleset.parse(state, player, text)
        if player not in writers_of(ruleset, state):
            refused[player] = submission
            continue
        state, events = ruleset.immediate(state, submission)
        received += events
        taken[player] = ruleset.combine(taken.get(player), submission)

    def default(state: Any, player: str) -> Submission:
        return ruleset.default(state, player, rng_for(seed, key, "default", player))

    state, submissions = settle_silent(ruleset, state, taken, default)
    resolution = ruleset.resolve(state, submissions, rng_for(seed, key, "resolve"))
    return Played(before, submissions, tuple(received), refused, resolution)


def settle_silent(
    ruleset: Ruleset,
    state: Any,
    written: Mapping[str, Submission],
    silent: Callable[[Any, str], Submission],
) -> tuple[Any, dict[str, Submission]]:
    """Every awaited seat without orders in ``written`` gets ``silent(state, player)`` (the default,
    or the bot's orders). A ``SilentInTurn`` game has them act one at a time in its order, each
    applied on ``immediate`` as a mail would be, asking again who is awaited; any other game has
    them all decide from the same state. Returns the state resolution starts from, and every
    submission."""
    submissions = dict(written)
    if not isinstance(ruleset, SilentInTurn):
        for player in sorted(ruleset.awaiting(state) - submissions.keys()):
            submissions[player] = silent(state, player)
        return state, submissions
    while left := frozenset(ruleset.awaiting(state) - submissions.keys()):
        player = ruleset.silent_order(state, left)[0]
        submissions[player] = silent(state, player)
        state, _ = ruleset.immediate(state, submissions[player])
    return state, submissions


def rank_by(players: Iterable[str], score: Callable[[str], Any]) -> tuple[tuple[str, ...], ...]:
    """Players best first by ``score`` (higher is better); equal scores share a place, in the order
    given. For ``Ranked.standings``."""
    ordered = sorted(players, key=score, reverse=True)  # stable: ties keep the order given
    return tuple(tuple(group) for _, group in itertools.groupby(ordered, key=score))


# --- names as players type them -------------------------------------------------------------


@functools.lru_cache(maxsize=1 << 16)  # the same names are folded for every line of every mail
def fold(text: str) -> str:
    """Case- and accent-insensitive form of a name: ``Émile`` and ``emile`` fold alike."""
    decomposed = unicodedata.normalize("NFKD", text.strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


_ROLE_PARTS = re.compile(r"\s*(?:[,;/&+]|\band\b|\bor\b)\s*", re.IGNORECASE)


def one_role(role: str, named: Callable[[str], str | None]) -> str | None:
    """What a Role cell names (a power, a faction), through ``named``; a cell naming two ("France,
    Germany") is refused, not read as its first, whose player would never know."""
    parts = [part for part in _ROLE_PARTS.split(role) if part.strip()]
    found = list(dict.fromkeys(name for part in parts if (name := named(part)) is not None))
    if len(found) > 1:
        raise ValueError(f"the role {role.strip()!r} names {' and '.join(found)}: a player plays one")
    return found[0] if found else named(role)


def match_name(word: str, names: Mapping[str, str]) -> tuple[str | None, str | None]:
    """Find the one name meant by ``word``.

    ``names`` maps every accepted spelling (names and nicknames) to the canonical name. Returns
    ``(name, None)`` on an exact or unique-prefix match, else ``(None, suggestion)`` where the
    suggestion is the closest canonical name, if any is close.
    """
    folded = {fold(k): v for k, v in names.items()}
    key = fold(word)
    if key in folded:
        return folded[key], None
    by_prefix = {v for k, v in folded.items() if key and k.startswith(key)}
    if len(by_prefix) == 1:
        return by_prefix.pop(), None
    close = difflib.get_close_matches(key, list(folded), n=1, cutoff=0.6)
    if close:
        return None, folded[close[0]]
    if by_prefix:
        return None, sorted(by_prefix)[0]
    return None, None
