"""Where the shipped data lives: templates/ and config/ install as ``courier._templates`` and
``courier._config``; a checkout that was never installed finds them beside ``courier/``."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

_REPO = Path(__file__).resolve().parent.parent


def shipped_dir(folder: str) -> Path:
    """``templates`` or ``config``: the installed package data, else the repository's folder."""
    try:
        root = resources.files(f"courier._{folder}")
    except ModuleNotFoundError:
        return _REPO / folder
    path = Path(str(root))  # wheels install unzipped, so this is a real directory
    return path if path.is_dir() else _REPO / folder
