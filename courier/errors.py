"""The one error base of the shell: anything a user or operator can fix is a ``CourierError`` whose
message is one line naming the file or setting and what to do. ``courier`` prints it and exits
non-zero; anything else is a bug and keeps its traceback."""

from __future__ import annotations


class CourierError(Exception):
    """A problem the operator can act on, described in one line."""


class JournalError(CourierError):
    """The journal cannot be trusted: unreadable, damaged, or missing for a game already running."""


class ConfigError(CourierError):
    """An operator's mistake in a config file or sheet; the message says what to fix."""
