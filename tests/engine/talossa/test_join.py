"""A conqueror joins Talossan RISK mid-game through the tick: a new Players row is let in at the next
tick, welcomed, announced to the others (as news riding in their next mail), plays at once, and
replay reproduces the join."""

from __future__ import annotations

from pathlib import Path

from courier.backends.workbook import write_config
from courier.journal.replay import replay_game
from courier.journal.sqlite import SqliteJournal
from tests.conftest import text_of, write
from tests.helpers.clock import at
from tests.helpers.talossa import CONFIG, ROLES, table


def test_a_conqueror_joins_mid_game(tmp_path: Path) -> None:
    t = table(tmp_path)
    assert t.tick(at(0, 8, 5)) == []
    assert t.tick(at(0, 20, 5)) == []  # step 1 resolved (everyone silent: random plans)
    rows = [{"name": n, "email": f"{n.lower()}@players.test", "role": r} for n, r in ROLES.items()]
    rows.append({"name": "Ed", "email": "ed@players.test", "role": "Edonia; purple; Köprü"})
    write_config(tmp_path / "truce-1.xlsx", CONFIG, rows)
    before = {n: len(t.sent(f"{n.lower()}@players.test")) for n in ROLES}
    assert t.tick(at(1, 9)) == []
    welcome = t.sent("ed@players.test")[0]
    assert "Welcome" in str(welcome["Subject"])
    assert all(len(t.sent(f"{n.lower()}@players.test")) == before[n] for n in ROLES)  # news waits
    write(t, "Ed", "R: Kopru, 1")
    t.tick(at(1, 10))
    journal = t.journal()
    (standing, _) = journal.standing("truce-1", "step-2")["Ed"]
    journal.close()
    assert standing["orders"] and standing["errors"] == []
    assert t.tick(at(1, 20, 5)) == []
    joined = "Ed joined as Edonia (purple), starting in Köprü"
    for n in ROLES:  # the news rode in the next mail each got (the step's report, or a digest)
        assert any(joined in text_of(m) for m in t.sent(f"{n.lower()}@players.test")[before[n] :]), n
    journal = SqliteJournal(t.deployment.journal_path)
    try:
        checked, problems = replay_game(journal, "truce-1")
    finally:
        journal.close()
    assert problems == [] and checked == 2
