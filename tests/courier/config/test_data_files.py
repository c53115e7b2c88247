"""Data files named in the Config tab (`deck_file`, …) are read by the shell and handed to the
game: an organiser's own Veneer deck, with clear answers when it is wrong."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from courier.backends.base import SheetSnapshot
from courier.config.deployment import GameSource
from courier.config.game import game_config
from courier.data import shipped_dir
from courier.errors import ConfigError
from engine.veneer import VENEER

PLAYERS = [{"name": n, "email": f"{n.lower()}@x.test"} for n in ("Agatha", "Barney", "Celeste")]


def config_with(tmp_path: Path, deck_text: str | None, name: str = "my-deck.toml") -> SheetSnapshot:
    if deck_text is not None:
        (tmp_path / name).write_text(deck_text, encoding="utf-8")
    return SheetSnapshot(
        config={"game": "veneer", "deck_file": name}, players=PLAYERS, config_cells={"deck_file": "Config!B3"}
    )


def source(tmp_path: Path) -> GameSource:
    return GameSource(id="v1", organiser="o@x.test", base_dir=tmp_path)


def test_an_organisers_deck_is_played(tmp_path: Path) -> None:
    shipped = (shipped_dir("config") / "veneer" / "deck.toml").read_text(encoding="utf-8")
    ours = shipped.replace('name = "Merchants"', 'name = "Smugglers"', 1)
    assert ours != shipped
    config = game_config(source(tmp_path), config_with(tmp_path, ours))
    state = VENEER.setup([p["name"] for p in PLAYERS], config.options, random.Random(1))
    assert "Smugglers" in str(VENEER.to_json(state)["deck"])


def test_the_shipped_deck_is_found_by_its_name(tmp_path: Path) -> None:
    config = game_config(source(tmp_path), config_with(tmp_path, None, name="veneer/deck.toml"))
    assert config.options["deck"]["faction"]


def test_a_missing_or_broken_deck_names_the_cell(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"Config!B3 `deck_file`: no file 'nope.toml'"):
        game_config(source(tmp_path), config_with(tmp_path, None, name="nope.toml"))
    with pytest.raises(ConfigError, match="cannot be read"):
        game_config(source(tmp_path), config_with(tmp_path, "[[faction]\nname = "))


def test_a_deck_the_game_refuses_names_the_line_and_the_fix(tmp_path: Path) -> None:
    shipped = (shipped_dir("config") / "veneer" / "deck.toml").read_text(encoding="utf-8")
    broken = shipped.replace('effect = "income"', 'effect = "incom"', 1)
    line = next(n for n, text in enumerate(broken.splitlines(), 1) if 'effect = "incom"' in text)
    with pytest.raises(ConfigError) as refused:
        game_config(source(tmp_path), config_with(tmp_path, broken))
    message = str(refused.value)
    assert "unknown effect “incom” (did you mean “income”?)" in message
    card_line = int(message.split("line ")[1].split(":")[0])
    assert 0 < line - card_line < 6  # the card's `name =` line, just above its effect
