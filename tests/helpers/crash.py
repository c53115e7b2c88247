"""A tick in a subprocess, as cron runs it, that SIGKILLs itself at a checkpoint (COURIER_CRASH_AT)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import Table


def tick_process(table: Table, when: str, crash_at: str | None) -> int:
    """`courier tick --now when`; its exit code (-SIGKILL when it reached `crash_at`)."""
    env = {**os.environ, "COURIER_CRASH_AT": crash_at or ""}
    command = [sys.executable, "-m", "courier", "tick", "--config", str(table.deployment.path), "--now", when]
    return subprocess.run(command, env=env, capture_output=True, timeout=60).returncode
