"""engine/ is pure: no I/O modules, no clock, no module-level randomness, no shell imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT

ENGINE = ROOT / "engine"
FORBIDDEN_MODULES = {
    "courier",
    "time",
    "os",
    "socket",
    "sys",
    "subprocess",
    "pathlib",
    "io",
    "shutil",
    "urllib",
    "http",
    "sqlite3",
    "secrets",
    "logging",
}
RANDOM_FUNCTIONS = {
    "random",
    "randint",
    "randrange",
    "choice",
    "choices",
    "shuffle",
    "sample",
    "seed",
    "uniform",
    "gauss",
    "getrandbits",
    "betavariate",
    "triangular",
}
SOURCES = sorted(ENGINE.rglob("*.py"))


def offences(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"import {a.name}" for a in node.names if a.name.split(".")[0] in FORBIDDEN_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            root = node.module.split(".")[0]
            if root in FORBIDDEN_MODULES:
                found.append(f"from {node.module} import …")
            if root == "random" and any(a.name in RANDOM_FUNCTIONS for a in node.names):
                found.append("from random import <function>")
            if node.module == "datetime":
                found.append("from datetime import … (the engine has no clock)")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "random" and node.attr in RANDOM_FUNCTIONS:
                found.append(f"random.{node.attr}")
            if node.attr in ("now", "utcnow", "today") and node.value.id in ("datetime", "date"):
                found.append(f"{node.value.id}.{node.attr}")
    return found


def test_engine_has_sources() -> None:
    assert any(p.name == "core.py" for p in SOURCES)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_module_is_pure(path: Path) -> None:
    assert offences(ast.parse(path.read_text(encoding="utf-8"))) == []


@pytest.mark.parametrize(
    "source",
    [
        "import os",
        "from courier import tick",
        "import time",
        "random.shuffle(x)",
        "datetime.now()",
        "from random import choice",
        "import socket",
    ],
)
def test_the_check_catches(source: str) -> None:
    assert offences(ast.parse(source)) != []
