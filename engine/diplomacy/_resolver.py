"""One generic resolver for yes/no decisions that depend on one another (L. B. Kruijswijk, "The
Math of Adjudication"; godip's ``state/resolver.go``). Each decision is adjudicated assuming the
ones it reads; when it reads itself through a cycle we guess, try both guesses, and keep the one
that is consistent. When both or neither are, the cycle is a circular movement or a convoy paradox
and the variant's backup rule settles part of it, after which the rest is resolved again."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

Resolve = Callable[[str], bool]
Adjudicate = Callable[[str, Resolve], bool]
BackupRule = Callable[[Sequence[str]], Mapping[str, bool]]
"""Given the decisions of an undecidable cycle, returns the ones it settles (at least one)."""


class Resolver:
    """A decision is resolved (in ``_resolved``), guessed for now (in ``_guesses``), or neither."""

    def __init__(self, adjudicate: Adjudicate, backup_rule: BackupRule) -> None:
        self._adjudicate = adjudicate
        self._backup_rule = backup_rule
        self._resolved: dict[str, bool] = {}
        self._guesses: dict[str, bool] = {}
        self._dependencies: list[str] = []  # guesses the current computation has relied on
        self._active: list[str] = []  # decisions being adjudicated, outermost first

    def resolve(self, key: str) -> bool:
        value = self._resolved.get(key)
        if value is not None:
            return value
        guess = self._guesses.get(key)
        if guess is not None:
            if key not in self._dependencies:
                self._dependencies.append(key)
            return guess
        return self._resolve_unresolved(key)

    def _resolve_unresolved(self, key: str) -> bool:
        mark = len(self._dependencies)
        first = self._try(key, guess=False)
        if len(self._dependencies) == mark:
            # Nothing guessed was read: the answer stands on its own.
            self._settle(key, first)
            return first
        if self._dependencies[mark] != key:
            # We read another decision's guess: part of a larger cycle, owned by that decision.
            self._dependencies.append(key)
            self._guesses[key] = first
            return first
        self._forget(mark)
        second = self._try(key, guess=True)
        outer = [d for d in self._dependencies[mark:] if d in self._active]
        if outer:
            # Both answers rest on the guess of a decision still being worked out further up:
            # that decision owns the cycle; ours is provisional until it settles.
            self._forget(mark)
            self._dependencies += [*outer, key]
            self._guesses[key] = first
            return first
        if first == second:
            # Only one guess is consistent with its own outcome: it is the answer.
            self._forget(mark)
            self._settle(key, first)
            return first
        cycle = list(self._dependencies[mark:])
        self._forget(mark)
        settled = dict(self._backup_rule(cycle)) or {key: False}
        for decided, value in settled.items():
            self._settle(decided, value)
        return self.resolve(key)

    def _try(self, key: str, *, guess: bool) -> bool:
        self._guesses[key] = guess
        self._active.append(key)
        try:
            return self._adjudicate(key, self.resolve)
        finally:
            self._active.pop()

    def _settle(self, key: str, value: bool) -> None:
        self._guesses.pop(key, None)
        self._resolved[key] = value

    def _forget(self, mark: int) -> None:
        """Drop the guesses made since ``mark``; their decisions are worked out afresh (except
        those still being adjudicated further up, which keep their guess)."""
        for key in self._dependencies[mark:]:
            if key not in self._active:
                self._guesses.pop(key, None)
                self._resolved.pop(key, None)
        del self._dependencies[mark:]
