"""A command's output piped into a reader that stopped reading (`courier tick --dry-run | head`):
the command stops writing quietly, as a CLI does, with no traceback and no "Exception ignored"
when Python flushes the closed pipe at exit."""

from __future__ import annotations

import os
import sys
from typing import TextIO


def reader_gone(stream: TextIO) -> None:
    """Point ``stream`` at /dev/null: what is still buffered or written later goes nowhere."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
    except (OSError, ValueError):  # no file behind it (a test's capture): replace it, if it is stdout
        if stream is sys.stdout:
            sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - stdout for good
