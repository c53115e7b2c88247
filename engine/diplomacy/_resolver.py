"""One generic resolver for yes/no decisions that depend on one another (L. B. Kruijswijk, "The
Math of Adjudication", chapter 6: guess and backtrack; the scheme of godip's
``state/resolver.go``). Each decision is adjudicated assuming the ones it reads. A decision that
reads itself, through a cycle, is guessed to fail; once it is adjudicated under that guess it is
tried again under the other. If one guess is consistent its outcome stands. If both are, or
neither, the cycle is a circular movement or a convoy paradox, and the variant's backup rule
settles part of it, after which the rest is resolved again.

Every outcome is worked out together with the guesses it read, directly or through the decisions
it read. It is settled only when it read none that is still outstanding; otherwise it is worked
out afresh when asked again, since the guess may change. A guess's cycle is the decisions worked
out under that guess while it stood, and nothing else: a cycle whose guess turned out consistent
leaves nothing behind for the next one (an earlier resolver kept one list for all cycles, and a
circular movement met later settled the moves of a cycle already resolved). A cycle that is
undecidable only under an outer decision's guess is left to that guess: its backup rule sees the
inner cycle too, and a backup rule never settles anything under a guess."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

Resolve = Callable[[str], bool]
Adjudicate = Callable[[str, Resolve], bool]
BackupRule = Callable[[Sequence[str]], Mapping[str, bool]]
"""Given the decisions of an undecidable cycle, returns the ones it settles (at least one)."""


class Resolver:
    """A decision is settled (in ``_settled``), guessed for now (in ``_guesses``), being
    adjudicated (in ``_active``), or none of these."""

    def __init__(
        self, adjudicate: Adjudicate, backup_rule: BackupRule, known: dict[str, bool] | None = None
    ) -> None:
        """``known``: decisions that read no other, settled before the search (the resolver
        takes the dict over and adds the rest to it)."""
        self._adjudicate = adjudicate
        self._backup_rule = backup_rule
        self._settled: dict[str, bool] = {} if known is None else known
        self._guesses: dict[str, bool] = {}
        self._active: set[str] = set()
        self._read: list[set[str]] = []  # per adjudication under way: the guesses its outcome read
        self._cycles: dict[str, dict[str, None]] = {}  # per guess: the decisions worked out under it
        self._resolve = self.resolve  # bound once, handed to every adjudication

    def resolve(self, key: str) -> bool:
        value = self._settled.get(key)
        if value is None:
            value = self._guesses.get(key)
            if value is None:
                return self._work_out(key)
            self._read[-1].add(key)  # a guess is read only from inside an adjudication
        return value

    def settled(self) -> Mapping[str, bool]:
        """Every decision settled so far; once all are, reading this is cheaper than ``resolve``."""
        return self._settled

    def _work_out(self, key: str) -> bool:
        if key in self._active:  # the decision reads itself: guess, for now, that it fails
            self._guesses[key] = False
            self._cycles[key] = {key: None}
            self._read[-1].add(key)
            return False
        value, read = self._adjudicate_under_guesses(key)
        if key in self._guesses:  # it was guessed to fail: see what it does if it succeeds
            self._guesses[key] = True
            other, read_too = self._adjudicate_under_guesses(key)
            del self._guesses[key]
            cycle = self._cycles.pop(key)
            read |= read_too
            read.discard(key)
            if other != value:  # both guesses are consistent, or neither: no answer of its own
                if not read:  # the cycle is its own: the backup rule settles part of it
                    self._settled.update(self._backup_rule(list(cycle)) or {key: False})
                    return self.resolve(key)
                for guess in read:  # undecidable under an outer guess: left to that guess
                    self._cycles[guess].update(cycle)
        if not read:
            self._settled[key] = value
            return value
        for guess in read:
            self._cycles[guess][key] = None
        self._read[-1] |= read
        return value

    def _adjudicate_under_guesses(self, key: str) -> tuple[bool, set[str]]:
        """The decision's outcome under the guesses standing, and the guesses it read."""
        self._active.add(key)
        self._read.append(set())
        value = self._adjudicate(key, self._resolve)
        read = self._read.pop()
        self._active.discard(key)
        return value, read
