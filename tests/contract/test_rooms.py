"""courier/ is built in rooms (courier.ROOMS, bottom to top): a module imports only its own room and
the rooms below it, and no two packages import each other, however indirectly. Every import counts:
at the top of a module, inside a function, under TYPE_CHECKING, relative or absolute."""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from courier import ROOMS
from tests.helpers.paths import ROOT

COURIER = ROOT / "courier"
SOURCES = sorted(COURIER.rglob("*.py"))
DOOR = "courier.__main__"  # `python -m courier`: stands in the top room and only calls the CLI


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_of(p): p for p in SOURCES}
PACKAGES = {module_of(p) for p in SOURCES if p.name == "__init__.py"}


@dataclass(frozen=True)
class Import:
    """One import of a courier module: who imports what, and where it is written."""

    source: str
    target: str
    line: int

    def __str__(self) -> str:
        return f"{self.source} imports {self.target} (line {self.line})"


def package_of(module: str) -> str:
    """The package a module belongs to; the door belongs to the top room."""
    if module == DOOR:
        return ROOMS[-1]
    return module if module in PACKAGES else module.rpartition(".")[0]


def room_of(module: str) -> str:
    """The room a module stands in: its package below courier/, or the floor ("courier")."""
    return ".".join(package_of(module).split(".")[:2])


def absolute(node: ast.ImportFrom, source: str) -> str:
    """The module an `from … import` names, relative imports resolved against the source's package."""
    if not node.level:
        return node.module or ""
    base = package_of(source).split(".")
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(tree: ast.AST, source: str, known: Iterable[str] = MODULES) -> list[Import]:
    """Every courier module the tree imports; `from package import module` names the module."""
    modules = set(known)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [Import(source, a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            named = absolute(node, source)
            for alias in node.names:
                target = f"{named}.{alias.name}"
                found.append(Import(source, target if target in modules else named, node.lineno))
    return [i for i in found if i.target == "courier" or i.target.startswith("courier.")]


def upward(imports: Iterable[Import]) -> list[str]:
    """The imports of a room above the importing module's own."""
    rank = {room: n for n, room in enumerate(ROOMS)}
    return [
        f"{i}: {room_of(i.source)} may not import from {room_of(i.target)}, a room above it"
        for i in imports
        if rank[room_of(i.target)] > rank[room_of(i.source)]
    ]


def cycles(imports: Iterable[Import]) -> list[str]:
    """Packages that import each other, directly or round a loop, with one import per step."""
    edges: dict[str, dict[str, Import]] = {}
    for i in imports:
        if package_of(i.source) != package_of(i.target):
            edges.setdefault(package_of(i.source), {}).setdefault(package_of(i.target), i)
    loops: dict[frozenset[str], list[Import]] = {}
    for start in sorted(edges):
        loop = _way_back(start, edges)
        if loop:
            loops.setdefault(frozenset(package_of(i.source) for i in loop), loop)
    return [" → ".join(str(i) for i in loop) for loop in loops.values()]


def _way_back(start: str, edges: Mapping[str, Mapping[str, Import]]) -> list[Import]:
    """A shortest way from a package back to itself, one import per step; [] if there is none."""
    ways: dict[str, list[Import]] = {start: []}
    queue = deque([start])
    while queue:
        package = queue.popleft()
        for target, step in sorted(edges.get(package, {}).items()):
            if target == start:
                return [*ways[package], step]
            if target not in ways:
                ways[target] = [*ways[package], step]
                queue.append(target)
    return []


def all_imports() -> list[Import]:
    return [
        i
        for module, path in MODULES.items()
        for i in imports_of(ast.parse(path.read_text(encoding="utf-8")), module)
    ]


def test_every_package_of_courier_is_a_room() -> None:
    assert sorted(PACKAGES) == sorted(ROOMS), "a new package of courier/ needs its place in courier.ROOMS"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_only_its_room_and_the_rooms_below(module: str) -> None:
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found = upward(imports_of(tree, module))
    assert not found, "\n".join(found)


def test_no_two_packages_import_each_other() -> None:
    found = cycles(all_imports())
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("courier.config.game", "from courier.tick import runbook"),
        ("courier.config.game", "import courier.tools.cli"),
        ("courier.config.game", "def f():\n    from courier.tools.cli import main"),
        ("courier.config.game", "if TYPE_CHECKING:\n    from courier.mail.incoming import Letter"),
        ("courier.errors", "from .journal import sqlite"),
        ("courier.mail.render", "from ..state.context import Tick"),
        ("courier.mail.render", "from .. import state"),
    ],
)
def test_the_check_catches(module: str, source: str) -> None:
    found = upward(imports_of(ast.parse(source), module))
    assert len(found) == 1 and module in found[0] and "a room above it" in found[0]


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("courier.tick.runbook", "from courier import faults"),
        ("courier.tick.runbook", "from courier import ROOMS"),
        ("courier.tick.runbook", "from . import send"),
        ("courier.mail.render", "from ..config import schedule"),
        ("courier.errors", "import email.message"),
    ],
)
def test_the_check_lets_pass(module: str, source: str) -> None:
    assert upward(imports_of(ast.parse(source), module)) == []


def test_the_check_finds_a_loop_of_packages() -> None:
    loop = [
        Import("courier.mail.render", "courier.state.context", 3),
        Import("courier.state.context", "courier.tick.send", 5),
        Import("courier.tick.send", "courier.mail.compose", 7),
        Import("courier.tick.send", "courier.tick.rounds", 8),  # within one package: no loop
    ]
    assert (
        cycles(loop) != [] and "courier.mail.render imports courier.state.context (line 3)" in cycles(loop)[0]
    )
    assert cycles(loop[:2]) == []
