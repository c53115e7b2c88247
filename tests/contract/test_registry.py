"""The games registry (``engine.RULESETS``) is the only list of games: everything a game needs
outside its package is derived from it or checked here, so a seventh game is its package, one
registry line, its templates and its data, and this test says what is missing. See
docs/development/adding-a-game.md."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine import RULESETS, Ruleset
from engine.core import Simulated
from tests.helpers.games import GAMES as TABLES
from tests.helpers.paths import DATA, ROOT

GAMES = sorted(RULESETS)
JOBS = ("_parse", "_resolve", "_events", "_json", "_bot")  # "_view" where the game has views of its own
HOOKS = [name for name, _ in inspect.getmembers(Ruleset) if not name.startswith("_")]


def _yaml(path: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((DATA / path).read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("game", GAMES)
def test_every_game_keeps_the_whole_contract(game: str) -> None:
    """Its hooks: the bot (``view_of``, ``bot_orders``), what the simulator needs (``simulated``,
    ``seat_labels``, ``counts``), the JSON forms (``to_json``, ``from_json``, and ``answer_json``
    for ``courier resolve``)."""
    ruleset = RULESETS[game]
    assert isinstance(ruleset, Ruleset) and ruleset.name == game
    missing = [hook for hook in (*HOOKS, "simulated", "name", "title") if not hasattr(ruleset, hook)]
    assert missing == [], f"{game} lacks {missing}"
    assert isinstance(ruleset.simulated, Simulated) and ruleset.simulated.players >= 1


@pytest.mark.parametrize("game", GAMES)
def test_every_game_is_a_package_with_one_public_face_and_the_same_file_names(game: str) -> None:
    package = ROOT / "engine" / game
    assert "__all__" in (package / "__init__.py").read_text(encoding="utf-8")
    assert [job for job in JOBS if not (package / f"{job}.py").exists()] == []


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_its_templates_and_its_data(game: str) -> None:
    assert list((ROOT / "templates" / game / "events").glob("*.txt.j2")), "no event templates"
    assert list((DATA / game).iterdir()), "no known-answer data in tests/data/GAME/"
    assert list((ROOT / "tests" / "engine" / game).glob("test_*.py")), "no tests in tests/engine/GAME/"
    assert game in _yaml("forgiving.yaml"), "no entry in tests/data/forgiving.yaml"
    assert game in _yaml("commands/games.yaml"), "no game in tests/data/commands/games.yaml"
    assert game in TABLES, "no table in tests/helpers/games.py (the rooms' tests seat every game)"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_its_rules_beside_its_code(game: str) -> None:
    if not (ROOT / "engine" / game / "README.md").exists():
        pytest.xfail(f"engine/{game}/README.md (the game's rules as Courier plays them) is not written yet")
    assert (ROOT / "engine" / game / "README.md").read_text(encoding="utf-8").strip()


def test_the_benchmarks_play_every_game() -> None:
    from bench.games_per_second import KINDS as PER_SECOND
    from bench.tick_scale import KINDS as AT_SCALE

    assert [game for game, _, _ in PER_SECOND] == list(RULESETS)
    assert list(AT_SCALE) == list(RULESETS)


def _game_names_deciding(tree: ast.AST) -> list[str]:
    """Game names that decide something: compared with (``game == "truce"``, ``in ("a", "b")``),
    or keys of a table (``{"truce": …}``, ``UNITS["truce"]``)."""
    deciding: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            deciding += [node.left, *node.comparators]
        elif isinstance(node, ast.Dict):
            deciding += [key for key in node.keys if key is not None]
        elif isinstance(node, ast.Subscript):
            deciding.append(node.slice)
    return [
        const.value
        for place in deciding
        for const in ast.walk(place)
        if isinstance(const, ast.Constant) and const.value in RULESETS
    ]


@pytest.mark.parametrize("path", sorted((ROOT / "courier").rglob("*.py")), ids=lambda p: p.name)
def test_the_shell_never_tests_a_games_name(path: Path) -> None:
    """What differs between games is a hook of the contract, never ``if game == "diplomacy"``."""
    assert _game_names_deciding(ast.parse(path.read_text(encoding="utf-8"))) == []
