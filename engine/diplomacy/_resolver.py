"""One generic resolver for yes/no decisions that depend on one another (L. B. Kruijswijk, "The
Math of Adjudication"; the scheme of godip's ``state/resolver.go``). Each decision is adjudicated
assuming the ones it reads. A decision that reads itself, through a cycle, is guessed to fail; once
it is adjudicated under that guess it is tried again under the other. If one guess is consistent
its outcome stands. If both are, or neither, the cycle is a circular movement or a convoy paradox,
and the variant's backup rule settles part of it, after which the rest is resolved again.

An outcome is kept only when no guess is outstanding: one worked out under a guess may read it,
however indirectly, so it is worked out afresh when asked again."""

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
        self._cycle: list[str] = []  # the guessed decision, and those whose outcome made a guess
        self._resolve = self.resolve  # bound once, handed to every adjudication

    def resolve(self, key: str) -> bool:
        value = self._settled.get(key)
        if value is None:
            value = self._guesses.get(key)
            if value is None:
                value = self._work_out(key)
        return value

    def settled(self) -> Mapping[str, bool]:
        """Every decision settled so far; once all are, reading this is cheaper than ``resolve``."""
        return self._settled

    def _work_out(self, key: str) -> bool:
        if key in self._active:  # the decision reads itself: guess, for now, that it fails
            self._guesses[key] = False
            self._cycle.append(key)
            return False
        guesses = len(self._guesses)
        self._active.add(key)
        value = self._adjudicate(key, self._resolve)
        self._active.discard(key)
        if key in self._guesses:  # it was guessed to fail: see what it does if it succeeds
            self._guesses[key] = True
            other = self._adjudicate(key, self._resolve)
            del self._guesses[key]
            if other != value:  # both guesses are consistent, or neither: no answer of its own
                settled = dict(self._backup_rule(self._cycle)) or {key: False}
                self._cycle = []
                self._settled.update(settled)
                value = self.resolve(key)
        elif len(self._guesses) != guesses:
            self._cycle.append(key)
        if not self._guesses:
            self._settled[key] = value
        return value
