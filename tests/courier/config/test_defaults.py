"""A game may bring defaults for its own Config keys; the organiser's values win."""

from __future__ import annotations

from datetime import timedelta

from courier.backends.base import SheetSnapshot
from courier.config.deployment import GameSource
from courier.config.game import game_config

PLAYERS = [{"name": n, "email": f"{n}@x.test"} for n in ("kirk", "worf", "garak")]


def test_star_trek_brings_a_two_hour_intelligence_window() -> None:
    source = GameSource(id="st", organiser="o@x.test")
    config = game_config(source, SheetSnapshot(config={"game": "startrek"}, players=PLAYERS))
    assert config.schedule.phase_durations["intelligence"] == timedelta(hours=2)
    mine = game_config(
        source, SheetSnapshot(config={"game": "startrek", "intelligence_duration": "30m"}, players=PLAYERS)
    )
    assert mine.schedule.phase_durations["intelligence"] == timedelta(minutes=30)
    assert "intelligence_duration" not in mine.options


def test_veneer_votes_and_responses_run_on_a_short_clock() -> None:
    source = GameSource(id="v", organiser="o@x.test")
    config = game_config(source, SheetSnapshot(config={"game": "veneer"}, players=PLAYERS))
    assert config.schedule.phase_durations == {"vote": timedelta(hours=12), "response": timedelta(hours=12)}
