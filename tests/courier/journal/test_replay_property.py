"""Hypothesis: whatever players write, `courier replay` reproduces every round from the journal."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from courier.journal.replay import replay_game
from tests.conftest import BASE_CONFIG, PLAYERS, Table, address
from tests.helpers.clock import at

targets = st.sampled_from(PLAYERS)
order_line = st.one_of(
    st.builds(lambda t: f"attack {t}", targets),
    st.builds(lambda t: f"support {t.lower()}", targets),
    st.sampled_from(["defend", "loot", "pass", "atack", "gift 1 to nobody"]),
    st.builds(lambda n, t: f"gift {n} to {t}", st.integers(1, 3), targets),
)
mail_body = st.lists(order_line, min_size=1, max_size=3).map("\n".join)
round_mail = st.dictionaries(targets, st.lists(mail_body, min_size=1, max_size=2), max_size=len(PLAYERS))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(round_mail, min_size=3, max_size=3))
def test_any_game_replays_exactly(rounds: list[dict[str, list[str]]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        table = Table(Path(folder), BASE_CONFIG, [{"name": n, "email": address(n)} for n in PLAYERS])
        table.tick(at(0, 8, 5))
        for day, mail in enumerate(rounds):
            for name, bodies in mail.items():
                for body in bodies:
                    table.order(name, body)
            table.tick(at(day, 12))
            table.tick(at(day, 20, 5))
        journal = table.journal()
        try:
            checked, problems = replay_game(journal, "truce-1")
        finally:
            journal.close()
        assert problems == []
        assert checked == 3
