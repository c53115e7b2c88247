"""Truce state: frozen records, and their JSON form (stable across versions)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

JSON = dict[str, Any]

STARTING_SUPPLY = 3
MIN_PLAYERS = 3  # "3 to ∞ players"


@dataclass(frozen=True)
class Player:
    name: str
    supply: int = STARTING_SUPPLY
    spoils: int = 0


@dataclass(frozen=True)
class Result:
    """One player's action in the last resolved round, as the ledger and the tie-break need it."""

    player: str
    action: str  # what the player chose: attack, support, defend, loot or pass
    target: str | None = None
    valid: bool = True  # False: it counted as a Pass, ``reason`` says why
    reason: str | None = None
    supporters: int = 0
    succeeded: bool | None = None  # attacks only
    gained: int = 0  # coins the action put into the player's Spoils


@dataclass(frozen=True)
class TruceState:
    """A game between rounds. ``stash`` already holds the coin added for ``round``.

    The game is finished once ``round`` is past ``rounds``.
    """

    players: tuple[Player, ...]
    stash: int
    round: int
    rounds: int
    nicknames: tuple[tuple[str, tuple[str, ...]], ...] = ()
    last: tuple[Result, ...] = ()  # the previous round's results, in player order
    supplies: tuple[tuple[int, ...], ...] = ()  # each player's Supply after each round (public)

    @property
    def finished(self) -> bool:
        return self.round > self.rounds

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def spellings(self) -> dict[str, str]:
        """Every accepted spelling (name or nickname) → canonical name, for ``match_name``."""
        spellings = {name: name for name in self.names}
        for name, nicks in self.nicknames:
            spellings.update({nick: name for nick in nicks})
        return spellings

    def with_players(self, players: Mapping[str, Player]) -> TruceState:
        return dataclasses.replace(self, players=tuple(players[name] for name in self.names))


def state_to_json(state: TruceState) -> JSON:
    return {
        "round": state.round,
        "rounds": state.rounds,
        "stash": state.stash,
        "players": [dataclasses.asdict(p) for p in state.players],
        "nicknames": {name: list(nicks) for name, nicks in state.nicknames},
        "last": [dataclasses.asdict(r) for r in state.last],
        "supplies": [list(row) for row in state.supplies],
    }


def state_from_json(data: Mapping[str, Any]) -> TruceState:
    return TruceState(
        players=tuple(Player(p["name"], p["supply"], p.get("spoils", 0)) for p in data["players"]),
        stash=data["stash"],
        round=data["round"],
        rounds=data["rounds"],
        nicknames=tuple((name, tuple(nicks)) for name, nicks in data.get("nicknames", {}).items()),
        last=tuple(Result(**r) for r in data.get("last", ())),
        supplies=tuple(tuple(row) for row in data.get("supplies", ())),
    )
