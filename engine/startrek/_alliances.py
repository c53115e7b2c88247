"""Alliances, registered with the arbiter in any phase: secret by default (each side hears of its
own declaration, both once it is mutual); ``ally openly with X`` on both sides makes one public.
``break with X`` withdraws a declaration; the other side hears of it when the alliance was mutual."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from engine.core import Event
from engine.startrek._events import AllianceNoted
from engine.startrek._parse import Ability, Reading
from engine.startrek._state import StarTrekState


def register_alliances(
    state: StarTrekState, readings: Mapping[str, Reading], events: list[Event]
) -> StarTrekState:
    for player, reading in sorted(readings.items()):
        faction = state.factions[player]
        for line in reading.abilities:
            if line.kind == "ally":
                state = _ally(state, faction, line, events)
            elif line.kind == "break":
                state = _break(state, faction, line.faction, events)
    return state


def _ally(state: StarTrekState, faction: str, line: Ability, events: list[Event]) -> StarTrekState:
    pair, other = (faction, line.faction), line.faction
    if pair in state.alliances and (not line.openly or pair in state.openly):
        return state  # nothing new
    openly = state.openly | {pair} if line.openly else state.openly
    state = replace(state, alliances=state.alliances | {pair}, openly=openly)
    mutual = (other, faction) in state.alliances
    public = mutual and {pair, (other, faction)} <= state.openly
    if mutual:  # both declared in this phase: the other's "registered" is superseded, not told too
        events[:] = [e for e in events if not _registered(e, other, faction)]
    if public:
        seen = None
    elif mutual:
        seen = _player(state, faction) | _player(state, other)
    else:
        seen = _player(state, faction)
    status = "confirmed" if mutual else "registered"
    events.append(
        AllianceNoted(faction=faction, other=other, status=status, openly=line.openly, audience=seen)
    )
    return state


def _break(state: StarTrekState, faction: str, other: str, events: list[Event]) -> StarTrekState:
    pair, back = (faction, other), (other, faction)
    if pair not in state.alliances:
        return state
    public = {pair, back} <= state.openly and back in state.alliances
    mutual = back in state.alliances
    seen = None if public else _player(state, faction) | (_player(state, other) if mutual else frozenset())
    events.append(AllianceNoted(faction=faction, other=other, status="withdrawn", audience=seen))
    return replace(state, alliances=state.alliances - {pair}, openly=state.openly - {pair})


def _registered(event: Event, faction: str, other: str) -> bool:
    return (
        isinstance(event, AllianceNoted)
        and (event.faction, event.other) == (faction, other)
        and event.status == "registered"
    )


def _player(state: StarTrekState, faction: str) -> frozenset[str]:
    player = state.player_of(faction)
    return frozenset({player} if player else ())
