"""Every game's event lines count in good English (issue 29: "1 units", "1 enemy regiments"): each
event is rendered with every count at 1, and again at 2, and no line says "1 things"."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import random
import re
import typing
from typing import Any

import pytest

from courier.mail.render import RenderError, make_environment, render_event
from engine import RULESETS
from engine.core import Event

NOUNS = """units regiments hexes coins troops attackers defenders cards actions lands borderlands
strongholds ships armies fleets centres votes players turns rounds steps phases mails"""
ONE_OF_MANY = re.compile(rf"\b1 (?:[a-z]+ )?(?:{'|'.join(NOUNS.split())})\b")


def events_of(game: str) -> list[type[Event]]:
    package = type(RULESETS[game]).__module__.rsplit(".", 1)[0]
    modules = pkgutil.iter_modules(importlib.import_module(package).__path__, f"{package}.")
    return sorted(
        {
            cls
            for info in modules
            for _, cls in inspect.getmembers(importlib.import_module(info.name), inspect.isclass)
            if issubclass(cls, Event) and cls is not Event and cls.__module__.startswith(package)
        },
        key=lambda c: c.__name__,
    )


def sample(cls: type[Event], count: int) -> Event | None:
    """The event with every whole number ``count`` and plain words elsewhere (None if it needs more)."""
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for field in dataclasses.fields(cls):
        if not field.init or field.name == "audience":
            continue
        hint = hints[field.name]
        if hint is int:
            values[field.name] = count
        elif hint is str or hint == str | None:
            values[field.name] = "Alpha"
        elif hint is bool:
            values[field.name] = False
        elif field.default is not dataclasses.MISSING or field.default_factory is not dataclasses.MISSING:
            continue
        else:
            return None
    try:
        return cls(**values)
    except (TypeError, ValueError):
        return None


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_no_event_line_says_one_of_a_plural(game: str) -> None:
    env = make_environment()
    wrong = {}
    for cls in events_of(game):
        for count in (1, 2):
            event = sample(cls, count)
            if event is None:
                continue
            try:
                line = render_event(env, game, event)
            except RenderError:  # a template that needs richer fields than a sample has
                continue
            if count == 1 and ONE_OF_MANY.search(line):
                wrong[cls.__name__] = line
    assert wrong == {}


@pytest.mark.parametrize("game", sorted(RULESETS))
def test_no_order_form_says_one_of_a_plural(game: str) -> None:
    """Every seat's form at the start of a usual table (Talossa's lands hold 1 unit each)."""
    ruleset = RULESETS[game]
    players = [f"P{i}" for i in range(ruleset.simulated.players)]
    state = ruleset.setup(players, {}, random.Random(0))
    forms = {p: ruleset.order_template(state, p) for p in players}
    assert {p: ONE_OF_MANY.findall(f) for p, f in forms.items() if ONE_OF_MANY.search(f)} == {}
