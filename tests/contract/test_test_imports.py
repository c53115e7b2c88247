"""Tests share code through tests/conftest.py and tests/helpers/, never by importing a test module:
a test module imported by another ties two rooms' tests together, and pytest may collect its tests
again under the importer's name."""

from __future__ import annotations

import ast

import pytest

from tests.helpers.paths import TESTS

SOURCES = sorted(TESTS.rglob("*.py"))


def imported_test_modules(tree: ast.AST) -> list[str]:
    """The test_* modules a module imports, named as written (relative imports with their dots)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            found.append(module)
            found += [f"{module.rstrip('.')}.{a.name}" for a in node.names]
    return [name for name in found if name.rpartition(".")[2].startswith("test_")]


def test_no_test_module_imports_another() -> None:
    found = [
        f"{path.relative_to(TESTS)} imports {name}"
        for path in SOURCES
        for name in imported_test_modules(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not found, "move what they share to tests/helpers/:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "source",
    [
        "from tests.engine.monarchs.test_court import CONFIG",
        "from tests.engine.diplomacy import test_game",
        "import tests.courier.tick.test_crash",
        "def f():\n    from tests.courier.mail.test_reading_by_mail import at",
        "from .test_game import table",
    ],
)
def test_the_check_catches(source: str) -> None:
    assert imported_test_modules(ast.parse(source)) != []


def test_the_check_lets_helpers_pass() -> None:
    assert imported_test_modules(ast.parse("from tests.helpers.games import GAMES\nimport pytest")) == []
