"""Talossan RISK state as JSON (stable across versions), and ``courier resolve talossa``.

State::

    {"map": "talossa", "step": 3, "starting_units": 1, "finished": false, "winner": null,
     "submitted": ["Bea", "Al"],
     "countries": [{"player": "Al", "name": "Alvania", "colour": "red", "stack": 12,
                    "capital": null, "conquer_ban": 0, "declaration_due": 0, "fallen": false,
                    "arrival": {"land": "vuo-abbavilla", "asked_land": null, "holder": null,
                                "asked_colour": null, "colour_reason": null, "colour_holder": null}},
                   ...],
     "lands": {"vuo-abbavilla": {"owner": "Al", "units": 4, "stronghold": false, "name": null}, ...}}

``lands`` lists only lands that are held or were given a name; land keys are the map's. ``arrival``
(optional) is where the conqueror started, and the land and colour it asked for when it did not get
them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from engine.core import Event, Played, event_to_json
from engine.talossa._map import map_for
from engine.talossa._state import Arrival, Country, Holding, Mark, TalossaState

JSON = dict[str, Any]


def state_to_json(state: TalossaState) -> JSON:
    return {
        "map": state.map,
        **({"custom_map": state.custom_map} if state.custom_map is not None else {}),
        "step": state.step,
        "starting_units": state.starting_units,
        "finished": state.finished,
        "winner": state.winner,
        "submitted": list(state.submitted),
        "countries": [
            {
                "player": c.player,
                "name": c.name,
                "colour": c.colour,
                "stack": c.stack,
                "capital": c.capital,
                "conquer_ban": c.conquer_ban,
                "declaration_due": c.declaration_due,
                "fallen": c.fallen,
                **({"arrival": dataclasses.asdict(c.arrival)} if c.arrival else {}),
                **({"leader": c.leader} if c.leader else {}),
            }
            for c in state.countries
        ],
        "lands": {
            key: {"owner": h.owner, "units": h.units, "stronghold": h.stronghold, "name": h.given_name}
            for key, h in sorted(state.lands.items())
        },
        **({"marks": [dataclasses.asdict(m) for m in state.marks]} if state.marks else {}),
    }


def state_from_json(data: Mapping[str, Any]) -> TalossaState:
    """The state a JSON object describes; ``ValueError`` says what is wrong with it."""
    if not isinstance(data, Mapping):
        raise ValueError("“state” must be an object with map, step, countries and lands")
    try:
        custom = data.get("custom_map")
        game_map = map_for(str(data.get("map", "talossa")), custom)
        countries = tuple(_country(c) for c in data["countries"])
        lands = {str(k): _holding(v) for k, v in data.get("lands", {}).items()}
        marks = tuple(
            Mark(str(m["land"]), str(m["origin"]), str(m["player"]), str(m["kind"]))
            for m in data.get("marks", ())
        )
    except (KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"state: {e}") from e
    unknown = sorted(set(lands) - set(game_map.lands))
    players = {c.player for c in countries}
    strangers = sorted({h.owner for h in lands.values() if h.owner is not None} - players)
    if unknown or strangers:
        raise ValueError(f"state: unknown lands {unknown} or owners {strangers}")
    return TalossaState(
        custom_map=custom,
        map=game_map.name,
        step=int(data.get("step", 1)),
        countries=countries,
        lands=lands,
        submitted=tuple(data.get("submitted", ())),
        winner=data.get("winner"),
        finished=bool(data.get("finished", False)),
        starting_units=int(data.get("starting_units", 1)),
        marks=marks,
    )


def _country(data: Mapping[str, Any]) -> Country:
    return Country(
        player=str(data["player"]),
        name=str(data.get("name", data["player"])),
        colour=str(data.get("colour", "grey")),
        stack=int(data.get("stack", 0)),
        capital=data.get("capital"),
        conquer_ban=int(data.get("conquer_ban", 0)),
        declaration_due=int(data.get("declaration_due", 0)),
        fallen=bool(data.get("fallen", False)),
        arrival=_arrival(data["arrival"]) if data.get("arrival") else None,
        leader=str(data.get("leader", "")),
    )


def _arrival(data: Mapping[str, Any]) -> Arrival:
    fields = ("asked_land", "holder", "asked_colour", "colour_reason", "colour_holder")
    return Arrival(land=str(data["land"]), **{f: data.get(f) for f in fields})


def _holding(data: Mapping[str, Any]) -> Holding:
    return Holding(
        owner=data.get("owner"),
        units=int(data.get("units", 0)),
        stronghold=bool(data.get("stronghold", False)),
        given_name=data.get("name"),
    )


def check_players(state: TalossaState, texts: Mapping[str, str]) -> None:
    """Orders come only from conquerors still in the game."""
    strangers = sorted(set(texts) - set(state.alive))
    if strangers:
        raise ValueError(f"orders for {strangers}, who lead no living country; they are {list(state.alive)}")


def answer_json(ruleset: Any, played: Played) -> JSON:
    """The step resolved: the plans as read (living conquerors with none got 6 random actions,
    drawn from the seed as the tick draws them), the events, each plan's errors, the outcome.
    ``orders`` are taken in the order listed, which is the order of submission."""
    after = played.resolution.state
    outcome = ruleset.outcome(after)
    submissions = played.submissions
    return {
        "state": state_to_json(after),
        "plans": {p: list(s.orders) for p, s in submissions.items()},
        "events": [event_to_json(e) for e in played.resolution.events if isinstance(e, Event)],
        "errors": {p: [e.to_json() for e in s.errors] for p, s in submissions.items() if s.errors},
        "outcome": None if outcome is None else {"winners": list(outcome.winners), "reason": outcome.reason},
    }
