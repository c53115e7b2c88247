"""What the organiser's and players' commands leave behind for the other steps: a game paused, a
round to resolve now, players away, commands waiting for their confirmation code, and the number
of rollbacks (so the re-run round's mail gets outbox keys of its own). Kept in the journal's meta
table; seats (substitutes, kicked players) live in the game's setup, beside the newcomers who joined."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from courier.config.game import GameConfig, Player, holder_label
from courier.journal.interface import GameRow, Journal, Transaction
from courier.journal.meta import CONTROL


def control(journal: Journal, game: str) -> dict[str, Any]:
    return CONTROL.get(journal, game) or {}


def put_control(db: Transaction, game: str, data: dict[str, Any]) -> None:
    CONTROL.put(db, game, data)


def paused(journal: Journal, game: str) -> bool:
    return bool(control(journal, game).get("paused"))


def round_key(journal: Journal, row: GameRow) -> str:
    """``game/phase`` for a round's outbox keys; ``game/phase#N`` after the Nth rollback."""
    epoch = control(journal, row.id).get("epoch", 0)
    return f"{row.id}/{row.phase_key}" + (f"#{epoch}" if epoch else "")


def kicked(row: GameRow) -> set[str]:
    """Seats taken out of the game (kicked or resigned): they play the game's default."""
    return set(row.setup.get("kicked", []))


def away(journal: Journal, game: str, now: datetime) -> set[str]:
    """Players away at ``now`` (``away until …``)."""
    until = control(journal, game).get("away", {})
    return {name for name, when in until.items() if datetime.fromisoformat(when) > now}


def with_seats(config: GameConfig, row: GameRow | None) -> GameConfig:
    """The Players tab as the journal's substitutes amend it: a replaced seat keeps its name (the game
    knows it by that) and takes the newcomer's address; the old address no longer counts."""
    if not (row.setup.get("seats") if row else None):
        return config
    return replace(config, players=with_players(config.players, row))


def with_players(players: Sequence[Player], row: GameRow | None) -> tuple[Player, ...]:
    """The players of a Players tab with the journal's substitutes seated (``with_seats``)."""
    seats: dict[str, dict[str, str]] = row.setup.get("seats", {}) if row else {}
    return tuple(_seated(p, seats.get(p.name)) for p in players)


def _seated(player: Player, seat: dict[str, str] | None) -> Player:
    if seat is None:
        return player
    own = seat.get("name", "")
    nicknames = player.nicknames if not own or own in player.nicknames else (*player.nicknames, own)
    if seat.get("moved"):  # the same player at a new address (`change address`): they keep their secret
        return replace(player, email=seat["email"], nicknames=nicknames, own_name=own)
    return replace(player, email=seat["email"], nicknames=nicknames, secret="", own_name=own)


def seat_label(row: GameRow, seat: str) -> str:
    """``Emmett (for Darcy)`` once a substitute took a seat under a name of their own (``holder_label``,
    the rule every mail and the Ledger use), from the journal's seats."""
    return holder_label(seat, row.setup.get("seats", {}).get(seat, {}).get("name", ""))
