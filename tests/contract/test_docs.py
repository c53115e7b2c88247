"""The docs cannot drift: their commands run, their JSON parses and answers, their pasted output is current.

Each document (README.md, docs/**/*.md, engine/*/README.md) is played by ``docs/generate.py`` in a
scratch deployment made by ``courier init``; the slow generated regions (simulations of hundreds of
games) are left to ``python docs/generate.py``.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from docs.generate import (
    INSTALL_BLOCKS,
    README,
    ROOT,
    Block,
    CommandFailed,
    Sandbox,
    documents,
    excerpt_in,
    matches,
    parse,
    stale,
)

DOCUMENTS = documents()
# Played by its own test, in process and step by step (tests/contract/test_first_game.py).
PLAYED_APART = [ROOT / "docs" / "first-game.md"]


def _name(document: Path) -> str:
    return str(document.relative_to(ROOT))


def _blocks(document: Path) -> list[Block]:
    return [part for part in parse(document.read_text(encoding="utf-8")) if isinstance(part, Block)]


def test_the_readme_opens_with_the_demo_and_the_test_command() -> None:
    demo, tests = (block.text.strip() for block in _blocks(README)[:INSTALL_BLOCKS])
    assert demo == "python3 -m venv .venv && . .venv/bin/activate && pip install -q -e . && courier demo"
    assert tests.endswith("pip install -q -e '.[test]' && python -m pytest")


def test_ci_runs_exactly_the_readmes_test_command() -> None:
    tests = _blocks(README)[1].text.strip()
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert tests in ci_lines


def test_the_readme_stays_short() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 300


@pytest.mark.parametrize("document", [d for d in DOCUMENTS if d not in PLAYED_APART], ids=_name)
def test_commands_run_and_pasted_output_is_current(document: Path, tmp_path: Path) -> None:
    try:
        assert stale(document, Sandbox(tmp_path), slow=False) == [], "run: python docs/generate.py --quick"
    except CommandFailed as failed:
        pytest.fail(str(failed))


@pytest.mark.parametrize("document", DOCUMENTS, ids=_name)
def test_json_and_toml_blocks_parse(document: Path) -> None:
    for block in _blocks(document):
        where = f"{_name(document)}:{block.line}"
        if block.language == "json":
            json.loads(block.text)  # a request or answer is also checked against courier resolve
        elif block.language == "toml":
            assert tomllib.loads(block.text), where


@pytest.mark.parametrize("document", DOCUMENTS, ids=_name)
def test_python_blocks_marked_run_run(document: Path) -> None:
    """A ```python run block is a whole program (most Python in the docs is a snippet of a module)."""
    for block in _blocks(document):
        if block.language == "python" and "run" in block.marks.split():
            exec(compile(block.text, f"{_name(document)}:{block.line}", "exec"), {})


@pytest.mark.parametrize("document", DOCUMENTS, ids=_name)
def test_links_between_docs_lead_to_files(document: Path) -> None:
    """A relative link names a file that exists (docs/development's pages are written beside this one)."""
    text = document.read_text(encoding="utf-8")
    for target in _relative_links(text):
        assert (document.parent / target).resolve().exists(), f"{_name(document)} links to {target}"


def _relative_links(text: str) -> list[str]:
    targets = (match.split("#")[0] for match in re.findall(r"\]\(([^)\s]+)\)", text))
    return [t for t in targets if t and "://" not in t]


@pytest.mark.parametrize(
    ("shown", "actual", "agree"),
    [
        ({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 2]}, True),
        ({"a": 1}, {"a": 1, "b": 2}, False),
        ({"a": "…"}, {"a": {"any": "thing"}}, True),
        (["…", 3], [1, 2, 3], True),
        ([1, "…", 4], [1, 2, 3, 4], True),
        ([1, "…"], [2, 3], False),
        ([1, 2], [1, 2, 3], False),
    ],
)
def test_an_answer_shown_with_ellipses_matches(shown: object, actual: object, agree: bool) -> None:
    assert matches(shown, actual) is agree


@pytest.mark.parametrize(
    ("excerpt", "agree"),
    [
        (["b", "c"], True),
        (["a", "…", "d"], True),
        (["…", "c", "…"], True),
        (["a", "c"], False),  # not one after the other
        (["c", "…", "b"], False),  # out of order
        (["e"], False),
    ],
)
def test_a_mail_excerpt_matches(excerpt: list[str], agree: bool) -> None:
    assert excerpt_in(excerpt, ["a", "b", "c", "d"]) is agree
