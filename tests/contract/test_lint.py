"""The code stays ruff-clean, ruff-formatted and mypy-strict: CI fails the moment it is not."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers.paths import ROOT


@pytest.mark.parametrize(
    "command",
    [["ruff", "check", "."], ["ruff", "format", "--check", "."], ["mypy"]],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_tool_is_clean(command: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
