"""The one error base of the shell: anything a user or operator can fix is a ``CourierError`` whose
message is one line naming the file or setting and what to do. ``courier`` prints it and exits 2;
anything else is a bug: ``courier`` says "unexpected", exits 3, and ``-vv`` shows its traceback."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.core import Ruleset


class CourierError(Exception):
    """A problem the operator can act on, described in one line."""


class JournalError(CourierError):
    """The journal cannot be trusted: unreadable, damaged, or missing for a game already running."""


class ConfigError(CourierError):
    """An operator's mistake in a config file or sheet; the message says what to fix."""


class UnknownGame(CourierError):
    """A game id or game kind that is not there; the message names what is."""


class UsageError(CourierError):
    """A command line the operator must fix: an argument, an option, an organiser's command."""


class FileProblem(CourierError):
    """A file or folder the operator must see to: missing, not writable, on a full disk."""

    @classmethod
    def of(cls, error: OSError) -> FileProblem:
        """``path: reason`` when the error names its file, else the error's own words."""
        return cls(f"{error.filename}: {error.strerror or error}" if error.filename else str(error))


@contextmanager
def files_are_the_operators() -> Iterator[None]:
    """Around a whole command: an ``OSError`` leaving it (a full disk, a folder it may not write)
    is the machine's state, not a bug, so it becomes a ``FileProblem`` naming the path."""
    try:
        yield
    except OSError as e:
        raise FileProblem.of(e) from e


def find_game_kind(name: str) -> Ruleset:
    """The ruleset of a game kind the operator named (``courier resolve truce``); an unknown name is
    an ``UnknownGame`` listing the known ones."""
    from engine import find_ruleset  # the registry loads every game: only when a command needs it

    try:
        return find_ruleset(name)
    except KeyError as e:
        raise UnknownGame(str(e.args[0])) from None
