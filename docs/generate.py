"""Run the docs: the commands they show, and the output they paste.

A Markdown file here (README.md, docs/**/*.md, engine/*/README.md) is read as a script, top to
bottom, in a scratch folder where ``courier init`` has made a deployment:

- a ```` ```sh ```` block's lines are ``courier …`` commands, run in turn (``python …`` ones in the
  repository, but for the suite and this script); ``sh no-run`` marks a block that needs accounts,
  a mail server or an editor (cron, systemd, Gmail); the README's first two blocks, which make a
  venv, are checked by the test apart;
- ``<!-- generated: CMD -->`` … ``<!-- end -->`` holds CMD's output as a ```` ```text ```` block,
  rewritten by this script (``<!-- generated slow: CMD -->`` for the ones too slow for the tests;
  ``<!-- generated: module.function() -->`` for Markdown a Python function writes);
- a ```` ```json resolve GAME ```` block is a request to ``courier resolve GAME``, and the
  ```` ```json answer ```` block after it its answer, where a ``"…"`` stands for whatever the answer
  holds there (in a list, any number of items);
- a ```` ```python run ```` block is run whole by the test (other Python blocks are snippets);
- a block marked ``save-as PATH`` (```` ```email save-as mail/inbox/new/alice-1.eml ````) is a file
  the reader saves: it is written there, e.g. a player's mail dropped into the Maildir inbox;
- a block marked ``excerpt-of GLOB`` (```` ```email excerpt-of mail/sent/bob@example.org/*.eml ````)
  is an excerpt of the last mail (by name) the glob matches, as a player reads it (its To and
  Subject, then the text part): its lines appear there in order, a ``…`` line standing for any
  number of lines.

A document whose first command is ``courier init`` (no ``--dir``) makes the scratch deployment itself.

``python docs/generate.py`` rewrites every generated block; ``--check`` lists the stale ones
instead (exit 1), as ``tests/contract/test_docs.py`` does for the quick ones.
"""

from __future__ import annotations

import argparse
import contextlib
import email
import importlib
import io
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from email.policy import default as email_policy
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
INSTALL_BLOCKS = 2  # the README opens with the demo's and the tests' install-and-run commands
ELLIPSIS = "…"
FENCE = re.compile(r"^```(\S*)[ \t]*(.*)$")
GENERATED = re.compile(r"^<!-- generated( slow)?: (.+) -->$")
END = "<!-- end -->"
FUNCTION = re.compile(r"^[\w.]+\(\)$")  # a region a Python function writes: <!-- generated: mod.fn() -->
# Not run from the docs: the suite itself, and this script (it would rewrite what is being read).
SKIPPED = ("python -m pytest", "python docs/generate.py")
# Paths that change from run to run: the demo's own temporary folder, and the scratch folder.
DEMO_FOLDER = re.compile(r"/tmp/courier-demo-[A-Za-z0-9_]+")
SHELL_SYNTAX = re.compile(r"[|&;<>$`*?(){}\\]")  # a line with any of these is left to bash


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
            pasted = "".join(line_ + "\n" for line_ in lines[index + 1 : end])
            yield Generated(generated[2], bool(generated[1]), pasted, index + 1)
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


def fenced(command: str, output: str) -> str:
    """A command's output as it is pasted between the markers, under the command."""
    return f"```text\n$ {command}\n" + output.rstrip("\n") + "\n```"


def commands(block: Block) -> list[str]:
    """The command lines of a ```sh block (comments and blank lines left out)."""
    return [line for line in block.text.split("\n") if line.strip() and not line.lstrip().startswith("#")]


def runnable(block: Block) -> bool:
    return block.language == "sh" and "no-run" not in block.marks.split()


class Sandbox:
    """A scratch folder with a deployment made by ``courier init``, where a document's commands run.

    ``in_process`` runs a plain ``courier …`` line by calling the CLI's ``main`` here instead of in
    a new process (the same code, without a second of imports per command: a long walkthrough's
    test stays fast); a line with shell syntax, or input, still goes to bash."""

    def __init__(self, folder: Path, *, in_process: bool = False) -> None:
        self.folder = folder
        self.in_process = in_process
        self.made = False  # made at the first command: most documents run none

    def run(self, command: str, stdin: str | None = None, *, inside: Path | None = None) -> str:
        """Run one shell line here (or inside another folder) with this Python's ``courier``; its
        output, or CommandFailed."""
        self._make(unless=command)
        words = shlex.split(command) if not SHELL_SYNTAX.search(command) else []
        if self.in_process and stdin is None and words[:1] == ["courier"]:
            code, out, err = _courier_here(words[1:], inside or self.folder)
        else:
            code, out, err = self._bash(command, stdin, inside or self.folder)
        if code != 0:
            raise CommandFailed(f"{command!r} exited {code}: {err.strip()}")
        return DEMO_FOLDER.sub("/tmp/courier-demo-XXXXXXXX", out.replace(str(self.folder), "."))

    def save(self, name: str, text: str) -> None:
        """Write a file the document shows (a ``save-as`` block) into the scratch folder."""
        self._make()
        path = (self.folder / name).resolve()
        if Path(name).is_absolute() or not path.is_relative_to(self.folder.resolve()):
            raise CommandFailed(f"save-as {name}: name a file inside the deployment's folder")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    def _make(self, unless: str = "") -> None:
        """The deployment, at the first command, unless that command is the document's own init."""
        if self.made:
            return
        self.made = True
        words = unless.split()
        if words[:2] != ["courier", "init"] or "--dir" in words:
            self.run("courier init")

    def _bash(self, command: str, stdin: str | None, cwd: Path) -> tuple[int, str, str]:
        path = f"{Path(sys.executable).parent}:/usr/bin:/bin"
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=cwd,
            input=stdin,
            capture_output=True,
            text=True,
            env={"PATH": path, "HOME": str(self.folder), "LANG": "C.UTF-8", "COLUMNS": "100"},
            timeout=600,
        )
        return done.returncode, done.stdout, done.stderr


def _courier_here(arguments: list[str], cwd: Path) -> tuple[int, str, str]:
    """``courier ARGUMENTS`` run by the CLI's own ``main`` in this process, inside ``cwd``."""
    from courier.tools.cli import main  # only here: otherwise the docs run courier as its users do

    out, err = io.StringIO(), io.StringIO()
    before, config = Path.cwd(), os.environ.pop("COURIER_CONFIG", None)
    try:
        os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(arguments)
    finally:
        os.chdir(before)
        if config is not None:
            os.environ["COURIER_CONFIG"] = config
    return code, out.getvalue(), err.getvalue()


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
                yield part, _output(sandbox, part.command)
        elif runnable(part):
            for line in commands(part):
                _run_line(sandbox, line, where)
        elif part.marks.split()[:1] == ["save-as"] and len(part.marks.split()) == 2:
            sandbox.save(part.marks.split()[1], part.text)
        elif part.marks.split()[:1] == ["excerpt-of"] and len(part.marks.split()) == 2:
            _check_excerpt(sandbox, part.marks.split()[1], part.text, where)
        elif part.language == "json":
            request = _check_json(sandbox, part, request, where)


def _output(sandbox: Sandbox, command: str) -> str:
    """What a generated region holds: a Python function's Markdown, or a command's output fenced."""
    if FUNCTION.match(command):
        module, function = command.removesuffix("()").rsplit(".", 1)
        return str(getattr(importlib.import_module(module), function)())
    return fenced(command, sandbox.run(command)) + "\n"


def _run_line(sandbox: Sandbox, line: str, where: str) -> None:
    """A ``courier`` command runs in the scratch deployment, a ``python`` one in the repository."""
    if line.startswith(SKIPPED):
        return
    if not line.startswith(("courier ", "python ")):
        raise CommandFailed(f"{where}: {line!r} is no courier or python command (mark the block `sh no-run`)")
    try:
        sandbox.run(line, inside=ROOT if line.startswith("python ") else None)
    except CommandFailed as failed:
        raise CommandFailed(f"{where}: {failed}") from failed


def _check_excerpt(sandbox: Sandbox, pattern: str, excerpt: str, where: str) -> None:
    """The last mail (by name) the glob matches holds the excerpt's lines in order."""
    found = sorted(sandbox.folder.glob(pattern))
    if not found:
        raise CommandFailed(f"{where}: no mail matches {pattern}")
    mail, read = found[-1].relative_to(sandbox.folder), mail_lines(found[-1].read_bytes())
    if not excerpt_in(excerpt.rstrip("\n").split("\n"), read):
        shown = "\n".join(read)
        raise CommandFailed(f"{where}: {mail} holds no such excerpt; it reads\n{shown}")


def mail_lines(raw: bytes) -> list[str]:
    """A mail as its reader sees it: To, Subject, a blank line, then its text part."""
    message = email.message_from_bytes(raw, policy=email_policy)
    body = message.get_body(("plain",))
    text = body.get_content() if isinstance(body, email.message.EmailMessage) else ""
    return [f"To: {message['To']}", f"Subject: {message['Subject']}", "", *text.splitlines()]


def excerpt_in(excerpt: list[str], lines: list[str]) -> bool:
    """Whether the excerpt's runs of lines (split at ``…`` lines) appear in ``lines``, in order."""
    runs: list[list[str]] = [[]]
    for line in excerpt:
        if line.strip() == ELLIPSIS:
            runs.append([])
        else:
            runs[-1].append(line.rstrip())
    text, start = [line.rstrip() for line in lines], 0
    for run in (r for r in runs if r):
        at = next((i for i in range(start, len(text) - len(run) + 1) if text[i : i + len(run)] == run), None)
        if at is None:
            return False
        start = at + len(run)
    return True


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
        lines[region.line : end] = output.removesuffix("\n").split("\n") if output else []
    return "\n".join(lines)


def stale(document: Path, sandbox: Sandbox, *, slow: bool) -> list[str]:
    """The generated regions whose pasted output is not what their command prints now."""
    return [
        f"{document.relative_to(ROOT)}:{region.line}: {region.command}"
        for region, output in play(document, sandbox, slow=slow)
        if region.pasted != output
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
