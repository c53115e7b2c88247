"""The command table (courier/commands/table.py) is complete: every verb reads, applies and is
explained; the CLI offers exactly the organiser's commands and journals the line the organiser could
have mailed (tests/data/commands/cli.yaml); `help` lists every command of its kind."""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
import yaml

from courier.commands.syntax import Command
from courier.commands.table import (
    COMMANDS,
    ORGANISER,
    ORGANISER_VERBS,
    PLAYER,
    PLAYER_VERBS,
    CommandSpec,
    parse_commands,
)
from courier.tools.cli import build_parser, command_line
from tests.conftest import Table, text_of
from tests.helpers.clock import at
from tests.helpers.paths import DATA

CLI_CASES: list[dict[str, Any]] = yaml.safe_load((DATA / "commands" / "cli.yaml").read_text(encoding="utf-8"))
ORGANISER_ADDRESS = "organiser@courier.test"


def _example(spec: CommandSpec) -> str:
    """The first line `help` shows for a command, without its explanation: "extend 24h"."""
    return spec.syntax.split("  ")[0]


def _unwritten(command: Command) -> Command:
    return dataclasses.replace(command, line="")


def test_every_verb_is_in_the_table_once_and_in_its_kinds_list() -> None:
    verbs = [spec.verb for spec in COMMANDS]
    assert len(verbs) == len(set(verbs))
    assert sorted(ORGANISER_VERBS + PLAYER_VERBS) == sorted(verbs)


@pytest.mark.parametrize("spec", COMMANDS, ids=[spec.verb for spec in COMMANDS])
def test_every_command_reads_applies_and_is_explained(spec: CommandSpec) -> None:
    assert spec.syntax and spec.help
    if spec.who == ORGANISER:
        assert spec.organiser is not None and spec.cli is not None
    else:
        assert spec.player is not None and spec.cli is None  # a player has no CLI
    [command] = parse_commands(_example(spec) + (" the text" if spec.rest_of_mail else ""))
    assert command.verb == spec.verb  # its own reader reads the line `help` shows
    if spec.player_syntax:  # an organiser's command a player gives too, and the line their help shows
        assert spec.player is not None
        [command] = parse_commands(spec.player_syntax.split("  (")[0])
        assert command.verb == spec.verb


def test_the_cli_offers_exactly_the_organisers_commands() -> None:
    [subcommands] = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    organisers = subcommands.choices["pause"].get_default("run")  # what journals a command line
    offered = {name for name, sub in subcommands.choices.items() if sub.get_default("run") is organisers}
    theirs = {spec.verb for spec in COMMANDS if spec.who == ORGANISER}  # `change` a player gives too
    assert set(ORGANISER_VERBS) <= theirs and offered == theirs
    assert {argv[0] for argv in (case["argv"] for case in CLI_CASES)} == theirs


@pytest.mark.parametrize("case", CLI_CASES, ids=[" ".join(case["argv"]) for case in CLI_CASES])
def test_a_cli_command_journals_a_line_that_reads_as_the_organisers_mail(case: dict[str, Any]) -> None:
    line = command_line(build_parser().parse_args(case["argv"]))
    journalled = [_unwritten(c) for c in parse_commands(line)]
    assert journalled == [_unwritten(c) for c in parse_commands(case["mail"])]


@pytest.mark.parametrize(
    ("sender", "who"), [(ORGANISER_ADDRESS, ORGANISER), ("Barney", PLAYER)], ids=["organiser", "player"]
)
def test_help_lists_every_command_of_its_kind(
    make_table: Callable[..., Table], sender: str, who: str
) -> None:
    table = make_table()
    table.tick(at(0, 8, 5))
    if who == PLAYER:
        table.order(sender, "help")
    else:
        table.mail(sender, "help", subject="[truce-1] help")
    table.tick(at(0, 9))
    answers = [m for m in table.sent(sender) if m["X-Courier-Kind"] == "answer"]
    text = " ".join(text_of(answers[-1]).split())
    for spec in COMMANDS:
        if spec.who == who:  # a player's examples name the other players at the table
            shown = spec.syntax.replace("NAME, NAME", "Agatha, Celeste").replace("NAME", "Agatha")
            assert " ".join(shown.split()) in text, spec.verb
