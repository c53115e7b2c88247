"""One public face per game: a game's private modules (``engine/<game>/_*.py``) are imported only
from inside that game (its own package, its tests in ``tests/engine/<game>/``, its helper
``tests/helpers/<game>.py``); everyone else, another game and the registry included, goes through
``engine/<game>/__init__.py`` and takes only what its ``__all__`` exports."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import RULESETS
from tests.helpers.paths import ROOT

GAMES = {path.parent.name for path in (ROOT / "engine").glob("*/__init__.py")}
SOURCES = sorted(
    path
    for folder in ("engine", "courier", "bench", "tests")
    for path in (ROOT / folder).rglob("*.py")
    if ".venv" not in path.parts
)


def _imports(path: Path) -> Iterator[tuple[str, list[str]]]:
    """Each module imported (``from engine.x import a, b`` gives ``engine.x`` and ``[a, b]``)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module, [alias.name for alias in node.names]


def _owner(path: Path) -> str | None:
    """The game a file belongs to, if any: its package, its tests or its test helper."""
    parts = path.relative_to(ROOT).parts
    if parts[0] == "engine" and parts[1] in GAMES:
        return parts[1]
    if parts[:2] == ("tests", "engine") and parts[2] in GAMES:
        return parts[2]
    if parts[:2] == ("tests", "helpers") and path.stem in GAMES:
        return path.stem
    return None


def _private_game_imports(path: Path) -> Iterator[tuple[str, str]]:
    """(game, what) for every private module of a game that ``path`` imports."""
    for module, names in _imports(path):
        parts = module.split(".")
        if parts[0] != "engine" or len(parts) < 2 or parts[1] not in GAMES:
            continue
        if len(parts) > 2 and parts[2].startswith("_"):
            yield parts[1], module
        elif len(parts) == 2:
            yield from ((parts[1], f"{module}.{name}") for name in names if name.startswith("_"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_imports_another_games_private_module(path: Path) -> None:
    owner = _owner(path)
    strays = [what for game, what in _private_game_imports(path) if game != owner]
    assert strays == [], f"{path.relative_to(ROOT)} imports {strays}: use the game's public face"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_what_others_import_from_a_game_is_in_its_all(game: str) -> None:
    face = importlib.import_module(f"engine.{game}")
    exported = set(face.__all__)
    taken = {
        (path.relative_to(ROOT), name)
        for path in SOURCES
        if _owner(path) != game
        for module, names in _imports(path)
        if module == f"engine.{game}"
        for name in names
    }
    assert {(where, name) for where, name in taken if name not in exported} == set()


def test_the_registry_imports_only_public_faces() -> None:
    registry = ROOT / "engine" / "__init__.py"
    assert list(_private_game_imports(registry)) == []
    for name, ruleset in RULESETS.items():
        face = importlib.import_module(type(ruleset).__module__.rsplit("._", 1)[0])
        assert any(getattr(face, n) is ruleset for n in face.__all__), f"{name}: not in its face's __all__"
