"""Secrets for the real backends, never stored in the config file: each comes from an environment
variable (``<name>_env``), a file (``<name>_file``) or a command's output (``<name>_command``)."""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from courier.backends.base import BackendError


def secret(settings: Mapping[str, Any], name: str, *, where: str, required: bool = True) -> str | None:
    """The secret ``name`` as the ``[where]`` table of the config says to find it."""
    if name in settings:
        raise BackendError(
            f"[{where}] `{name}` must not be written in the config; use {name}_env or {name}_file"
        )
    if env := settings.get(f"{name}_env"):
        value = os.environ.get(env)
        if value is None:
            raise BackendError(f"[{where}] {name}_env: the environment variable {env} is not set")
        return value.strip()
    if file := settings.get(f"{name}_file"):
        try:
            return Path(file).read_text(encoding="utf-8").strip()
        except OSError as e:
            raise BackendError(f"[{where}] {name}_file: cannot read {file}: {e.strerror}") from e
    if command := settings.get(f"{name}_command"):
        done = subprocess.run(shlex.split(command), capture_output=True, text=True, timeout=60, check=False)
        if done.returncode != 0:
            raise BackendError(f"[{where}] {name}_command failed: {done.stderr.strip()[:200]}")
        return done.stdout.strip()
    if required:
        raise BackendError(f"[{where}] needs {name}_env, {name}_file or {name}_command")
    return None
