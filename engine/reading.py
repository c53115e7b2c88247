"""Orders written the way people write them: one forgiving layer over every game's own reader.

A game reads its orders strictly (its ``parse``); this layer looks only at the lines the game could
not read, and tries each the way a careful human arbiter would, with the game's ``Vocabulary``:

- a line that does not look like an order attempt (no order word or near misspelling of one, no
  name of a player/province/hex, no number first or right after an order word or a name), or a
  greeting or sign-off ("Hi all,", "Cheers, Darcy"), is skipped silently;
- a label is dropped: ``Orders: attack Barney``, ``My order - defend``, ``Orders:`` alone;
- a short sentence around one order ("I'll support Charles this round") is cut to the order.

A rewritten line counts only when the game reads it alone without error; the receipt then says how
it was read. Otherwise the original line stays an error, quoting the player's text, with the best
"did you mean" either reading found. Lines the game reads are never touched, so nothing it accepts
is read differently."""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.core import LineError, Submission, fold

__all__ = ["GREETINGS", "Vocabulary", "forgiving", "read_forgivingly"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# First words of lines that greet or take leave; such a line is skipped unless it holds an order word
# or a number. Data, so a language is one more word.
GREETINGS = _words(
    """hi hello hey hiya dear greetings morning evening hallo hola salut bonjour ciao hej hei moin
    servus thanks thank thx ta cheers regards best kind warm yours sincerely love bye goodbye good
    see cu have enjoy merci danke gracias grazie tack kiitos gruss gruß grüße liebe lieber mfg vg lg
    br kr"""
)
# Words a sentence may end with that are not part of its order: "... this round, please."
_TAIL = _words(
    """this that the round turn time phase now please pls thanks thank you then again too also ok
    okay i think guess suppose hope for me anyway sorry cheers thx"""
)
_BEFORE_NEXT = _TAIL | {"and", "or", "but", "maybe", "perhaps"}  # "attack Barney or support ..."
_PUNCT = ".,;:!?\"'()[]«»“”‘’…"
_LABEL = re.compile(r"^(?P<label>[^\W\d_][^:–—]*?)\s*(?::|\s[-–—]+\s|[–—])\s*(?P<rest>.*)$")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+\s*[.)])\s*")
_LABEL_WORDS = 5
_CLOSE = 0.8  # how near a word must be to an order word to count as a misspelling of it
_MOST_TRIED = 50  # lines rewritten and tried in one mail; the rest stay as the game read them


@dataclass(frozen=True)
class Vocabulary:
    """The words of one game's orders. All folded (``engine.core.fold``).

    ``verbs``: full order words ("attack", "support"); ``names``: players, provinces, hexes, cards
    (a name may be several words); ``name_shape``: a regular expression for names with a shape
    (Monarchs' hexes ``c5``); ``words``: other words an order may start with ("army", "fleet");
    ``signs``: short marks of an order that are no words of a sentence (``-``, ``S``, ``Q``)."""

    verbs: frozenset[str]
    names: frozenset[str] = frozenset()
    name_shape: str | None = None
    words: frozenset[str] = frozenset()
    signs: frozenset[str] = frozenset()

    @classmethod
    def of(
        cls,
        verbs: Iterable[str],
        names: Iterable[str] = (),
        *,
        name_shape: str | None = None,
        words: Iterable[str] = (),
        signs: Iterable[str] = (),
    ) -> Vocabulary:
        return cls(
            frozenset(fold(v) for v in verbs),
            frozenset(_key(n) for n in names if _key(n)),
            name_shape,
            frozenset(fold(w) for w in words),
            frozenset(fold(s) for s in signs),
        )

    def is_verb(self, key: str) -> bool:
        return key in self.verbs

    def near_verb(self, key: str) -> bool:
        long = [v for v in self.verbs if len(v) > 2]
        return key in self.verbs or bool(len(key) > 2 and difflib.get_close_matches(key, long, 1, _CLOSE))

    def names_at(self, keys: list[str], at: int) -> int:
        """How many words from ``at`` on make a name (0: none)."""
        for size in range(min(4, len(keys) - at), 0, -1):
            if " ".join(keys[at : at + size]) in self.names:
                return size
        return 1 if self.name_shape and re.fullmatch(self.name_shape, keys[at]) else 0


def _key(word: str) -> str:
    return " ".join(w.strip(_PUNCT) for w in fold(word).split()).strip()


@dataclass(frozen=True)
class _Words:
    """One line cut into whitespace-separated words, each with its folded key."""

    line: str
    spans: list[tuple[int, int]]
    keys: list[str]

    @classmethod
    def of(cls, line: str) -> _Words:
        found = list(re.finditer(r"\S+", line))
        return cls(line, [m.span() for m in found], [_key(m.group()) for m in found])

    def text(self, start: int, end: int) -> str:
        return self.line[self.spans[start][0] : self.spans[end - 1][1]].strip().rstrip(".!?,;…")

    def shaped(self, at: int, vocabulary: Vocabulary) -> int:
        """1 when the word as written has the shape of a name (Talossa's ``[Wellington]``)."""
        start, end = self.spans[at]
        shape = vocabulary.name_shape
        return 1 if shape and re.fullmatch(shape, fold(self.line[start:end])) else 0

    def only_names(self, vocabulary: Vocabulary) -> bool:
        """Whether the line is names and nothing else, as a signature is ("Agatha", "Ann Smith")."""
        at = 0
        while at < len(self.keys):
            named = vocabulary.names_at(self.keys, at)
            if not named or vocabulary.near_verb(self.keys[at]):
                return False
            at += named
        return at > 0

    def meaningful(self, vocabulary: Vocabulary) -> list[int]:
        """The positions of the words that belong to an order: order words (or near misspellings),
        names, the game's other order words, numbers first or after one of those."""
        marks: list[int] = []
        at = 0
        while at < len(self.keys):
            key, named = self.keys[at], vocabulary.names_at(self.keys, at) or self.shaped(at, vocabulary)
            after_word = bool(marks) and marks[-1] == at - 1
            before_name = at + 1 < len(self.keys) and vocabulary.names_at(self.keys, at + 1) > 0
            number = key.isdigit() and (at == 0 or after_word or before_name)
            starts = key in vocabulary.words and before_name
            if named or number or starts or key in vocabulary.signs or vocabulary.near_verb(key):
                marks.extend(range(at, at + max(named, 1)))
            at += max(named, 1)
        return marks


@dataclass(frozen=True)
class _Reading:
    """What the forgiving layer makes of one line the game could not read."""

    skip: bool = False
    text: str | None = None  # the order it holds, when that differs from the line
    problem: LineError | None = None  # why it cannot be taken as it stands
    labelled: bool = False  # only a label was taken off: the rest is surely meant as the order


def _reading(line: str, vocabulary: Vocabulary, *, signed: bool = False) -> _Reading:
    """``signed``: the line ends the mail or follows a greeting, where a name alone is a signature."""
    words = _Words.of(line)
    marks = words.meaningful(vocabulary)
    verbs = [words.keys[i] for i in marks if vocabulary.is_verb(words.keys[i])]
    has_number = any(k.isdigit() for k in words.keys)
    if not marks or (words.keys and words.keys[0] in GREETINGS and not verbs and not has_number):
        return _Reading(skip=True)
    if signed and words.only_names(vocabulary):
        return _Reading(skip=True)
    label = _LABEL.match(line)
    if label and _is_label(label["label"], vocabulary, dashed=":" not in line[: label.start("rest")]):
        return _unlabelled(label["rest"].strip(), vocabulary)
    return _sentence(line, words, marks, verbs, vocabulary)


def _unlabelled(rest: str, vocabulary: Vocabulary) -> _Reading:
    """What follows a label: nothing (``Orders:`` alone), a sentence, or the order itself."""
    if not rest:
        return _Reading(skip=True)
    inner = _reading(rest, vocabulary)
    if inner.skip:  # "Orders: hmm" is no order, but the line as a whole looked like one
        return _Reading()
    if inner.text or inner.problem:
        return inner
    return _Reading(text=rest.rstrip(".!?,;…"), labelled=True)


def _sentence(
    line: str, words: _Words, marks: list[int], verbs: list[str], vocabulary: Vocabulary
) -> _Reading:
    """The order in a line, from its first sure word on, less the words that end a sentence."""
    first, last = marks[0], len(words.keys)
    while last - 1 > marks[-1] and words.keys[last - 1] in _TAIL:
        last -= 1
    if _part_of_order(words.keys[:first], words.keys[first], vocabulary):
        return _Reading()
    if first == 0 and last == len(words.keys):  # "support barney…": only the trailing marks to drop
        bare = words.text(0, last)
        return _Reading(text=bare) if bare != line.strip() else _Reading()
    if len(set(verbs)) > 1:
        second = next(i for i in marks if vocabulary.is_verb(words.keys[i]) and words.keys[i] != verbs[0])
        while second > first + 1 and words.keys[second - 1] in _BEFORE_NEXT:
            second -= 1
        why = f"this line holds more than one order ({', '.join(dict.fromkeys(verbs))}): write one per line"
        return _Reading(
            problem=LineError(line.strip(), why, words.text(first, second) if second > first else None)
        )
    return _Reading(text=words.text(first, last))


def _part_of_order(dropped: list[str], first: str, vocabulary: Vocabulary) -> bool:
    """Whether the words before the first sure word of an order may belong to it (misspelt): when it
    starts with a sign (``- tellar``) or they hold a unit word (``ship vulcn - tellar``)."""
    return bool(dropped) and (first in vocabulary.signs or any(w in vocabulary.words for w in dropped))


def _is_label(label: str, vocabulary: Vocabulary, *, dashed: bool) -> bool:
    keys = [_key(w) for w in label.split()]
    if not keys or len(keys) > _LABEL_WORDS or len(label.strip()) < 2:  # "S: +Abbavilla" is an order
        return False
    if any(
        vocabulary.names_at(keys, i) or keys[i] in vocabulary.words | vocabulary.signs
        for i in range(len(keys))
    ):
        return False  # "A par - bur", "ship vulcn - tellar": an order, not a label
    return not (dashed and any(vocabulary.near_verb(k) for k in keys))


def read_forgivingly(text: str, vocabulary: Vocabulary, parse: Callable[[str], Submission]) -> Submission:
    """``parse(text)``, with the lines it could not read tried again as the module says."""
    first = parse(text)
    if not first.errors:
        return first
    again = _Rereading(vocabulary, parse, failed={e.line for e in first.errors if e.line})
    lines = text.splitlines()
    last = max((i for i, raw in enumerate(lines) if raw.strip()), default=-1)
    for at, raw in enumerate(lines):
        again.read(raw, last=at == last)
    # Skipped lines were refused and gave no orders: reading again is needed only for lines taken.
    final = parse("\n".join(again.kept)) if again.taken else first
    errors = tuple(again.better(e) for e in final.errors if again.taken or e.line not in again.skipped)
    return dataclasses.replace(final, errors=errors, notes=(*final.notes, *again.notes))


@dataclass
class _Rereading:
    """One mail read again line by line: what is kept, taken, skipped, and the better errors."""

    vocabulary: Vocabulary
    parse: Callable[[str], Submission]
    failed: set[str]  # the lines the game refused, as its errors quote them
    kept: list[str] = dataclasses.field(default_factory=list)  # the mail as read again
    taken: dict[str, str] = dataclasses.field(default_factory=dict)  # a rewritten line → the player's
    skipped: set[str] = dataclasses.field(default_factory=set)
    problems: dict[str, LineError] = dataclasses.field(default_factory=dict)  # the rewriting's error
    ambiguous: dict[str, LineError] = dataclasses.field(default_factory=dict)  # several orders in a line
    notes: list[str] = dataclasses.field(default_factory=list)
    tried: int = 0
    greeted: bool = False  # the line before was a greeting or sign-off

    def read(self, raw: str, *, last: bool) -> None:
        line = raw.strip()
        if line and self._refused(line) and self.tried < _MOST_TRIED:
            reading = _reading(line, self.vocabulary, signed=self.greeted or last)
            self.greeted = reading.skip
            if reading.skip:
                self.skipped |= {line, _BULLET.sub("", line, count=1)}
                return
            self.kept.append(raw)
            self._try(line, reading)
            return
        self.greeted = self.greeted and not line
        self.kept.append(raw)

    def _refused(self, line: str) -> bool:
        """Whether the game refused ``line``, perhaps quoting it without its bullet or number."""
        return line in self.failed or _BULLET.sub("", line, count=1) in self.failed

    def _try(self, line: str, reading: _Reading) -> None:
        """Take the line's rewriting when the game reads it alone; else keep the better error."""
        if reading.problem is not None:
            self.ambiguous[line] = reading.problem
        if reading.text is None:
            return
        self.tried += 1
        alone = self.parse(reading.text)
        if not alone.errors:  # ("pass" may be no order at all, and yet read)
            self.kept[-1] = reading.text
            self.taken[reading.text] = line
            self.notes.append(f"Read “{line}” as “{'; '.join(alone.orders) or reading.text}”.")
        elif line not in self.ambiguous and (reading.labelled or alone.errors[0].suggestion):
            self.problems[line] = LineError(line, alone.errors[0].reason, alone.errors[0].suggestion)

    def better(self, error: LineError) -> LineError:
        """The error to quote: the game's, unless the forgiving reading explains the line better."""
        if error.line in self.taken:  # fine alone, not in context: quote the player's line
            return dataclasses.replace(error, line=self.taken[error.line])
        if error.line in self.ambiguous:
            return self.ambiguous[error.line]
        better = self.problems.get(error.line)
        return better if better is not None and error.suggestion is None else error


_Game = TypeVar("_Game")
_State = TypeVar("_State")


def forgiving(
    parse: Callable[[_Game, _State, str, str], Submission],
) -> Callable[[_Game, _State, str, str], Submission]:
    """Decorates a ruleset's ``parse(state, player, text)`` with the forgiving layer, using the
    ruleset's ``vocabulary(state)``: every game gets it from this one place."""

    @functools.wraps(parse)
    def parse_forgivingly(self: _Game, state: _State, player: str, text: str) -> Submission:
        vocabulary: Vocabulary = _vocabulary_of(self, state)
        return read_forgivingly(text, vocabulary, lambda t: parse(self, state, player, t))

    return parse_forgivingly


def _vocabulary_of(game: Any, state: Any) -> Vocabulary:
    vocabulary = game.vocabulary(state)
    assert isinstance(vocabulary, Vocabulary)
    return vocabulary
