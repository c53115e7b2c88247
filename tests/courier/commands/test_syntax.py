"""Command lines read as the known answers in tests/data/commands/lines.yaml say."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from courier.commands.syntax import CommandError
from courier.commands.table import first_verb, parse_commands
from tests.helpers.paths import DATA

CASES: list[dict[str, Any]] = yaml.safe_load((DATA / "commands" / "lines.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["line"] for c in CASES])
def test_a_command_line_reads_as_known(case: dict[str, Any]) -> None:
    if "error" in case:
        with pytest.raises(CommandError, match=None) as caught:
            parse_commands(case["line"])
        assert case["error"] in str(caught.value)
        return
    [command] = parse_commands(case["line"])
    for field, wanted in case["reads"].items():
        if field == "duration_hours":
            assert command.duration is not None and command.duration.total_seconds() == wanted * 3600
        elif field == "names":
            assert list(command.names) == wanted
        else:
            assert getattr(command, field) == wanted, field


def test_only_a_mail_that_starts_with_a_command_word_is_a_command_mail() -> None:
    assert first_verb("\n\nPause\n") == "pause"
    assert first_verb("attack Barney\nstatus") is None
    assert first_verb("Paused for thought: attack Barney") is None
