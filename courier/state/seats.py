"""Which seat a name means, in a command or a press line: read with the matcher the games read orders
with (``engine.core.match_name``: any case or accent, a unique beginning, a "did you mean" for a
near miss), so `replace Sophie …`, `press to Tom` and `kick sophie laurent` find the seat that
`attack Sophie` finds.

A seat answers to its player's name, their nicknames (the Players tab), a substitute's own name, and
the role the Ledger shows it by (``ROLE_COLUMNS``: a Diplomacy power, a Star Trek faction, a
Monarchs nation, a Talossan country). Only the Ledger's roles count, never ``seat_labels`` (a
courtier's part is secret): what the Ledger shows everybody, an address may say. A seat that left
the game still answers (a substitute may take it; press to it is refused as such by the command)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from courier.config.game import Player
from courier.journal.interface import GameRow
from courier.state.control import kicked, seat_label
from courier.state.newcomers import players_of
from engine.core import Ruleset, fold, match_name

# The Ledger's columns that name a seat's role; each game's ledger uses one of them.
ROLE_COLUMNS = ("Power", "Faction", "Nation", "Country")


class NoSuchSeat(ValueError):
    """A name that means no seat, or more than one; the message says which there are."""


@dataclass(frozen=True)
class Seats:
    """The seats of one game and every name each answers to."""

    names: tuple[str, ...]  # the seats, in the Players tab's order
    left: frozenset[str]
    spellings: dict[str, str]  # every accepted spelling → the seat

    def find(self, word: str) -> str:
        """The seat ``word`` means; ``NoSuchSeat`` says why none."""
        word = word.strip().strip(".,;:!?")
        seat, suggestion = match_name(word, self.spellings)
        if seat is not None:
            return seat
        key = fold(word)
        starting = sorted({s for k, s in self.spellings.items() if key and fold(k).startswith(key)})
        if len(starting) > 1:
            raise NoSuchSeat(f"“{word}” could be {' or '.join(starting)}; write more of the name")
        hint = f" (did you mean {suggestion}?)" if suggestion else ""
        raise NoSuchSeat(f"no player {word!r} in this game{hint}; the players are {self.listed()}")

    def listed(self) -> str:
        return ", ".join(f"{n} (left)" if n in self.left else n for n in self.names)


def seats_of(players: Sequence[Player], row: GameRow, ruleset: Ruleset, state: Any = None) -> Seats:
    """The seats of a running game (``state`` decoded from the row unless given)."""
    seated = players_of(row.setup)
    names = tuple(p.name for p in players if p.name in seated)
    spellings: dict[str, str] = {}
    for player in (p for p in players if p.name in seated):
        label = seat_label(row, player.name)
        own = row.setup.get("seats", {}).get(player.name, {}).get("name", "")
        for word in (player.name, *player.nicknames, own, label):
            if word:
                spellings.setdefault(word, player.name)
    roles = _roles(ruleset, ruleset.from_json(row.state) if state is None else state, names)
    taken = {fold(k) for k in spellings}
    spellings |= {role: seat for role, seat in roles if fold(role) not in taken}
    return Seats(names, frozenset(kicked(row)), spellings)


def _roles(ruleset: Ruleset, state: Any, names: Iterable[str]) -> list[tuple[str, str]]:
    """(role, seat) for each role the Ledger shows one seat by; a role two seats share names none."""
    seats = set(names)
    found: dict[str, set[str]] = {}
    for entry in ruleset.ledger(state):
        seat = entry.get("Player")
        for column in ROLE_COLUMNS:
            role = entry.get(column)
            if isinstance(role, str) and role.strip() and seat in seats:
                found.setdefault(role.strip(), set()).add(str(seat))
    return [(role, next(iter(held))) for role, held in found.items() if len(held) == 1]
