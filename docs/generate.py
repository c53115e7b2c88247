"""Run the docs: the commands they show, and the output they paste.

A Markdown file here (README.md, docs/**/*.md, engine/*/README.md) is read as a script, top to
bottom, in a scratch folder where ``courier init`` has made a deployment:

- a ```` ```sh ```` block's lines are ``courier …`` commands, run in turn (``sh no-run`` marks a
  block that needs accounts, a mail server or an editor: cron, systemd, Gmail); the README's first
  two blocks, which make a venv, are checked by the test apart;
- ``<!-- generated: CMD -->`` … ``<!-- end -->`` holds CMD's output as a ```` ```text ```` block,
  rewritten by this script (``<!-- generated slow: CMD -->`` for the ones too slow for the tests);
- a ```` ```json resolve GAME ```` block is a request to ``courier resolve GAME``, and the
  ```` ```json answer ```` block after it its answer, where a ``"…"`` stands for whatever the answer
  holds there (in a list, any number of items).

``python docs/generate.py`` rewrites every generated block; ``--check`` lists the stale ones
instead (exit 1), as ``tests/contract/test_docs.py`` does for the quick ones.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
INSTALL_BLOCKS = 2  # the README opens with the demo's and the tests' install-and-run commands
ELLIPSIS = "…"
FENCE = re.compile(r"^```(\S*)[ \t]*(.*)$")
GENERATED = re.compile(r"^<!-- generated( slow)?: (.+) -->$")
END = "<!-- end -->"
# Paths that change from run to run: the demo's own temporary folder, and the scratch folder.
DEMO_FOLDER = re.compile(r"/tmp/courier-demo-[A-Za-z0-9_]+")


def documents() -> list[Path]:
    """Every Markdown file whose examples are run."""
    found = [README, *sorted((ROOT / "docs").rglob("*.md"))]
    return found + sorted((ROOT / "engine").glob("*/README.md"))


@dataclass(frozen=True)
class Block:
    """A fenced code block: its language, the words after it, its text and first line (1-based)."""

    language: str
    marks: str
    text: str
    line: int


@dataclass(frozen=True)
class Generated:
    """A generated region: the command, whether it is slow, and the output pasted there now."""

    command: str
    slow: bool
    pasted: str
    line: int


def parse(text: str) -> Iterator[Block | Generated]:
    """The code blocks and generated regions of a Markdown text, in order."""
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        generated = GENERATED.match(lines[index].strip())
        fence = FENCE.match(lines[index].strip())
        if generated:
            end = lines.index(END, index)
            body = "\n".join(lines[index + 1 : end])
            yield Generated(generated[2], bool(generated[1]), _unfence(body), index + 1)
            index = end + 1
        elif fence:
            end = next(i for i in range(index + 1, len(lines)) if lines[i].strip() == "```")
            body = "\n".join(line_[_indent(lines[index]) :] for line_ in lines[index + 1 : end])
            yield Block(fence[1], fence[2], body + "\n", index + 1)
            index = end + 1
        else:
            index += 1


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _unfence(body: str) -> str:
    inner = body.strip("\n").split("\n")
    return "\n".join(inner[1:-1]) + "\n" if len(inner) >= 2 else ""


def fenced(command: str, output: str) -> str:
    """A command's output as it is pasted between the markers, under the command."""
    return f"```text\n$ {command}\n" + output.rstrip("\n") + "\n```"


def commands(block: Block) -> list[str]:
    """The command lines of a ```sh block (comments and blank lines left out)."""
    return [line for line in block.text.split("\n") if line.strip() and not line.lstrip().startswith("#")]


def runnable(block: Block) -> bool:
    return block.language == "sh" and "no-run" not in block.marks.split()


class Sandbox:
    """A scratch folder with a deployment made by ``courier init``, where a document's commands run."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.made = False  # made at the first command: most documents run none

    def run(self, command: str, stdin: str | None = None) -> str:
        """Run one shell line here with this Python's ``courier``; its output, or CommandFailed."""
        if not self.made:
            self.made = True
            self.run("courier init")
        path = f"{Path(sys.executable).parent}:/usr/bin:/bin"
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=self.folder,
            input=stdin,
            capture_output=True,
            text=True,
            env={"PATH": path, "HOME": str(self.folder), "LANG": "C.UTF-8", "COLUMNS": "100"},
            timeout=600,
        )
        if done.returncode != 0:
            raise CommandFailed(f"{command!r} exited {done.returncode}: {done.stderr.strip()}")
        return DEMO_FOLDER.sub("/tmp/courier-demo-XXXXXXXX", done.stdout.replace(str(self.folder), "."))


class CommandFailed(Exception):
    """A documented command did not succeed."""


def matches(expected: object, actual: object) -> bool:
    """Whether an answer shown in the docs agrees with the real one ("…" stands for anything)."""
    if expected == ELLIPSIS:
        return True
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(matches(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list) and isinstance(actual, list):
        return _list_matches(expected, actual)
    return expected == actual


def _list_matches(expected: list[object], actual: list[object]) -> bool:
    if not expected:
        return not actual
    if expected[0] == ELLIPSIS:
        return any(_list_matches(expected[1:], actual[skip:]) for skip in range(len(actual) + 1))
    return bool(actual) and matches(expected[0], actual[0]) and _list_matches(expected[1:], actual[1:])


def play(document: Path, sandbox: Sandbox, *, slow: bool) -> Iterator[tuple[Generated, str]]:
    """Run a document's commands and resolve requests; yield each generated region with its output.

    Raises CommandFailed naming the line when a command fails or an answer does not match."""
    request: tuple[str, str] | None = None
    parts = list(parse(document.read_text(encoding="utf-8")))
    if document == README:
        parts = parts[INSTALL_BLOCKS:]  # they make venvs: test_docs checks them apart
    for part in parts:
        where = f"{document.relative_to(ROOT)}:{part.line}"
        if isinstance(part, Generated):
            if slow or not part.slow:
                yield part, fenced(part.command, sandbox.run(part.command)) + "\n"
        elif runnable(part):
            for line in commands(part):
                _run_line(sandbox, line, where)
        elif part.language == "json":
            request = _check_json(sandbox, part, request, where)


def _run_line(sandbox: Sandbox, line: str, where: str) -> None:
    if not line.startswith("courier "):
        raise CommandFailed(f"{where}: {line!r} is no courier command (mark the block `sh no-run`)")
    try:
        sandbox.run(line)
    except CommandFailed as failed:
        raise CommandFailed(f"{where}: {failed}") from failed


def _check_json(
    sandbox: Sandbox, block: Block, request: tuple[str, str] | None, where: str
) -> tuple[str, str] | None:
    """Parse a JSON block; send a request, compare an answer with the request's; the pending request."""
    try:
        shown = json.loads(block.text)
    except json.JSONDecodeError as error:
        raise CommandFailed(f"{where}: not JSON: {error}") from error
    marks = block.marks.split()
    if marks[:1] == ["resolve"]:
        return marks[1], block.text
    if marks[:1] == ["answer"]:
        if request is None:
            raise CommandFailed(f"{where}: an answer with no `json resolve GAME` request before it")
        answer = json.loads(sandbox.run(f"courier resolve {request[0]}", stdin=request[1]))
        if not matches(shown, answer):
            raise CommandFailed(f"{where}: courier resolve {request[0]} answers\n{json.dumps(answer)}")
    return None


def refreshed(document: Path, sandbox: Sandbox, *, slow: bool = True) -> str:
    """The document's text with every generated region (the slow ones too, unless told) rewritten."""
    lines = document.read_text(encoding="utf-8").split("\n")
    for region, output in reversed(list(play(document, sandbox, slow=slow))):
        end = lines.index(END, region.line)
        lines[region.line : end] = output.rstrip("\n").split("\n")
    return "\n".join(lines)


def stale(document: Path, sandbox: Sandbox, *, slow: bool) -> list[str]:
    """The generated regions whose pasted output is not what their command prints now."""
    return [
        f"{document.relative_to(ROOT)}:{region.line}: {region.command}"
        for region, output in play(document, sandbox, slow=slow)
        if f"```text\n{region.pasted}```\n" != output
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="list the stale regions; change nothing")
    parser.add_argument("--quick", action="store_true", help="leave out the slow regions")
    parser.add_argument("files", nargs="*", type=Path, help="documents (default: all)")
    arguments = parser.parse_args(argv)
    problems: list[str] = []
    for document in [path.resolve() for path in arguments.files] or documents():
        with tempfile.TemporaryDirectory(prefix="courier-docs-") as folder:
            if arguments.check:
                problems += stale(document, Sandbox(Path(folder)), slow=not arguments.quick)
            else:
                document.write_text(refreshed(document, Sandbox(Path(folder)), slow=not arguments.quick))
    print("\n".join(problems) or "the docs are up to date", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
