"""Every game kind lives through the organiser's and players' commands by mail: pause, resume,
extend, status, help, press, process now, a substitute, a rollback, a kick and the end; afterwards
`replay` reproduces the game from its journal exactly."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml

from courier.backends.workbook import write_config
from courier.journal.interface import GameRow
from courier.journal.replay import replay_game
from tests.conftest import Table, text_of
from tests.helpers.clock import at
from tests.helpers.confirm import code_for
from tests.helpers.paths import DATA

GAMES: dict[str, Any] = yaml.safe_load((DATA / "commands" / "games.yaml").read_text(encoding="utf-8"))
ORGANISER = "organiser@courier.test"


def make(root: Path, kind: str) -> tuple[Table, list[str]]:
    game = GAMES[kind]
    rows = [
        {"name": n, "email": f"{n.lower()}@players.test", "role": str(r)} for n, r in game["players"].items()
    ]
    return Table(root, {k: str(v) for k, v in game["config"].items()}, rows), list(game["players"])


class Game:
    def __init__(self, table: Table) -> None:
        self.t = table
        self.minutes = 0

    def step(self, body: str, sender: str = ORGANISER) -> None:
        """One mail, then a tick a minute later (the clock never goes back). A command that changes
        a seat or ends the game is confirmed with the code mailed to the organiser, as they would."""
        before = code_for(self.t, sender)
        self.mail(body, sender)
        code = code_for(self.t, sender)
        if code and code != before:
            self.mail(f"confirm {code}", sender)

    def mail(self, body: str, sender: str) -> None:
        self.t.mail(sender, body, subject="[truce-1] commands")
        self.minutes += 1
        self.t.tick(at(0, 8, 5) + timedelta(minutes=self.minutes))

    def row(self) -> GameRow:
        journal = self.t.journal()
        try:
            row = journal.game("truce-1")
        finally:
            journal.close()
        assert row is not None
        return row

    def rounds(self) -> int:
        journal = self.t.journal()
        try:
            return len(journal.rounds("truce-1"))
        finally:
            journal.close()

    def last(self, who: str, kind: str) -> str:
        mails = [m for m in self.t.sent(who) if m["X-Courier-Kind"] == kind]
        assert mails, f"{who} got no {kind}"
        return text_of(mails[-1])


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_game_lives_through_every_command(tmp_path: Path, kind: str) -> None:
    table, names = make(tmp_path, kind)
    first, second, third, last = names[0], names[1], names[2], names[-1]
    assert table.tick(at(0, 8, 5)) == []
    g = Game(table)
    g.step("pause")
    assert g.row().deadline is None and "pause: done" in g.last(ORGANISER, "answer")
    g.step("resume")
    deadline = g.row().deadline
    assert deadline is not None
    g.step("extend 2h")
    assert g.row().deadline == deadline + timedelta(hours=2)

    g.step("status", sender=f"{first.lower()}@players.test")
    assert "Not written yet:" in g.last(first, "answer")
    g.step("help", sender=f"{first.lower()}@players.test")
    assert f"press to {second}: …" in g.last(first, "answer")  # this table's own names (issue 29 QA)
    g.step(f"press to {second}: shall we?", sender=f"{first.lower()}@players.test")
    assert "shall we?" in g.last(second, "press")
    assert "press" not in [m["X-Courier-Kind"] for m in table.sent(third)]

    g.step("process now")
    assert g.rounds() == 1
    opened = g.row().phase_key
    g.step(f"replace {last} with sub@players.test as Sub")
    assert "welcome" in [m["X-Courier-Kind"] for m in table.sent("sub@players.test")]
    g.step("process now")
    assert g.rounds() == 2
    g.step("rollback to round 2")
    assert g.rounds() == 1 and g.row().phase_key == opened
    g.step(f"kick {second}")
    g.step("process now")
    assert g.rounds() == 2

    journal = table.journal()
    try:
        _, problems = replay_game(journal, "truce-1")
    finally:
        journal.close()
    assert problems == []
    g.step("end game")
    assert g.row().finished
    assert "game_over" in [m["X-Courier-Kind"] for m in table.sent("sub@players.test")]
    assert "game_over" not in [m["X-Courier-Kind"] for m in table.sent(last)]  # replaced: no more mail


def test_a_rollback_past_a_newcomers_join_lets_them_join_again(tmp_path: Path) -> None:
    table, _ = make(tmp_path, "talossa")
    table.tick(at(0, 8, 5))
    table.tick(at(0, 20, 5))  # step 1 resolved
    game = GAMES["talossa"]
    rows = [{"name": n, "email": f"{n.lower()}@players.test", "role": r} for n, r in game["players"].items()]
    rows.append({"name": "Ed", "email": "ed@players.test", "role": "Edonia; purple; Köprü"})
    write_config(table.root / "truce-1.xlsx", {k: str(v) for k, v in game["config"].items()}, rows)
    table.tick(at(1, 9))  # Ed joins in step 2
    table.mail(ORGANISER, "rollback to round 1", subject="[truce-1] commands")
    table.tick(at(1, 10))  # back in step 1
    table.tick(at(1, 11))  # Ed joins again, in step 1
    g = Game(table)
    assert g.rounds() == 0 and g.row().setup["joined"] == ["Ed"]
    journal = table.journal()
    try:
        _, problems = replay_game(journal, "truce-1")
    finally:
        journal.close()
    assert problems == []
