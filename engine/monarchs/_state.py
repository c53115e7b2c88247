"""The game between turns, and its JSON form (stable across versions)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.monarchs._board import NATIONS
from engine.monarchs._court import Court
from engine.monarchs._position import Position

JSON = dict[str, Any]


@dataclass(frozen=True)
class Recap:
    """One nation's last turn, for its map: where it won and lost battles (a hex, or a border
    ``E3–F2``), the points it scored, and its orders (moves as ``(origin, target, regiments)``,
    the boosted hex), drawn on its own map only."""

    won: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()
    points: int = 0
    moves: tuple[tuple[str, str, int], ...] = ()
    boost: str | None = None

    def to_json(self) -> JSON:
        return {
            "won": list(self.won),
            "lost": list(self.lost),
            "points": self.points,
            "moves": [list(m) for m in self.moves],
            "boost": self.boost,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Recap:
        moves = tuple((str(o), str(t), int(n)) for o, t, n in data.get("moves", ()))
        boost = data.get("boost")
        return cls(
            tuple(data.get("won", ())),
            tuple(data.get("lost", ())),
            int(data.get("points", 0)),
            moves,
            None if boost is None else str(boost),
        )


@dataclass(frozen=True)
class MonarchsState:
    """``turn`` is the turn now taking orders; the game is over once ``ranking`` is set."""

    position: Position
    turn: int
    turns: int
    monarchs: Mapping[str, str]  # player → nation
    scores: Mapping[str, int] = field(default_factory=lambda: dict.fromkeys(NATIONS, 0))
    delivered: tuple[str, ...] = ()  # nations whose orders came for the previous turn
    publish_scores: bool = False
    court: Court | None = None
    constants: tuple[int, int] = (18, 19)  # loyal and disloyal courtiers' constants, per turn + 1
    ranking: tuple[tuple[str, ...], ...] = ()  # players, best first, once the game is over
    winners: tuple[str, ...] = ()
    reason: str = ""
    recap: Mapping[str, Recap] = field(default_factory=dict)  # nation → its last turn, once one was played

    @property
    def finished(self) -> bool:
        return bool(self.ranking)

    @property
    def last_turn(self) -> bool:
        return self.turn == self.turns

    def nation_of(self, player: str) -> str | None:
        return self.monarchs.get(player)

    def monarch_of(self, nation: str) -> str:
        return next(p for p, n in self.monarchs.items() if n == nation)

    def viewers(self, nation: str) -> frozenset[str]:
        """Who sees a nation's map this turn: its monarch, or in court mode the map's courtier."""
        if self.court is not None:
            return self.court.map_viewers(nation)
        return frozenset({self.monarch_of(nation)})


def state_to_json(state: MonarchsState) -> JSON:
    return {
        "turn": state.turn,
        "turns": state.turns,
        "map": state.position.to_json(),
        "monarchs": dict(state.monarchs),
        "scores": dict(state.scores),
        "delivered": list(state.delivered),
        "publish_scores": state.publish_scores,
        "court": None if state.court is None else state.court.to_json(),
        "constants": list(state.constants),
        "ranking": [list(g) for g in state.ranking],
        "winners": list(state.winners),
        "reason": state.reason,
        "recap": {n: r.to_json() for n, r in state.recap.items()},
    }


def state_from_json(data: Mapping[str, Any]) -> MonarchsState:
    try:
        turn, turns = int(data["turn"]), int(data["turns"])
        monarchs = {str(p): str(n) for p, n in data["monarchs"].items()}
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise ValueError(f"state: needs “turn”, “turns” and “monarchs” ({e})") from None
    if not 1 <= turn <= turns + 1 or sorted(monarchs.values()) != sorted(NATIONS):
        raise ValueError("state: turn must lie in 1..turns and monarchs must name red, green and blue once")
    court = data.get("court")
    return MonarchsState(
        position=Position.from_json(data["map"]) if "map" in data else Position.start(),
        turn=turn,
        turns=turns,
        monarchs=monarchs,
        scores={n: int(data.get("scores", {}).get(n, 0)) for n in NATIONS},
        delivered=tuple(data.get("delivered", ())),
        publish_scores=bool(data.get("publish_scores", False)),
        court=None if court is None else Court.from_json(court),
        constants=(int(data.get("constants", (18, 19))[0]), int(data.get("constants", (18, 19))[1])),
        ranking=tuple(tuple(g) for g in data.get("ranking", ())),
        winners=tuple(data.get("winners", ())),
        reason=str(data.get("reason", "")),
        recap={n: Recap.from_json(r) for n, r in data.get("recap", {}).items()},
    )
