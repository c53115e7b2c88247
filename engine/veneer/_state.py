"""Veneer state: frozen records and their JSON form (stable across versions)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.veneer._cards import Card, Deck, load_deck

JSON = dict[str, Any]

MIN_PLAYERS = 3  # each player targets two others
STARTING_COINS = 3
STARTING_TROOPS = 1  # recruited as a defender; reassign it in your muster
TROOP_PRICE = 3
VETO_PRICE = 3
INTERCEPTION = 2  # attackers one defender destroys before it is destroyed


@dataclass(frozen=True)
class Seat:
    """One player. ``dealt`` are the faction cards offered at setup; ``hand`` their action cards."""

    name: str
    faction: str = ""
    dealt: tuple[str, ...] = ()
    coins: int = STARTING_COINS
    attackers: int = 0
    defenders: int = STARTING_TROOPS
    targets: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    alive: bool = True

    @property
    def troops(self) -> int:
        return self.attackers + self.defenders


@dataclass(frozen=True)
class Attack:
    attacker: str
    target: str
    attackers: int


@dataclass(frozen=True)
class Debt:
    """Defenders an attacked player owes back to lenders, when it cannot repay them all."""

    debtor: str
    loans: tuple[tuple[str, int], ...]  # (lender, lent), in seating order
    available: int  # troops the debtor has to give back


@dataclass(frozen=True)
class Offer:
    """An alliance offered by ``sender`` to ``receiver`` during turn ``turn``'s END."""

    sender: str
    receiver: str
    turn: int


@dataclass(frozen=True)
class VeneerState:
    seats: tuple[Seat, ...]
    deck: Deck
    pile: tuple[str, ...]  # draw pile, top first
    discard: tuple[str, ...] = ()
    laws: tuple[str, ...] = ()  # in force; the seed keeps only the newest
    alliances: tuple[tuple[str, str], ...] = ()  # sorted pairs
    offers: tuple[Offer, ...] = ()
    stage: str = "setup"  # setup start vote muster response combat end finished
    turn: int = 0
    active: str = ""
    flipped: str = ""  # the law or motion under vote
    forced: bool = False  # a motion forces this turn's attack
    attacks: tuple[Attack, ...] = ()
    debts: tuple[Debt, ...] = ()
    winners: tuple[str, ...] = ()
    reason: str = ""
    coins: tuple[tuple[int, ...], ...] = ()  # every seat's coins as each turn began, and at the end
    nicknames: tuple[tuple[str, tuple[str, ...]], ...] = ()  # the Players tab's, for orders naming them
    # player -> their lines standing in this phase, as their mails left them (``_on_file``): private
    on_file: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    @property
    def living(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats if s.alive)

    @property
    def finished(self) -> bool:
        return self.stage == "finished"

    def seat(self, name: str) -> Seat:
        for s in self.seats:
            if s.name == name:
                return s
        raise KeyError(name)

    def allies(self, name: str) -> tuple[str, ...]:
        paired = {b for a, b in self.alliances if a == name} | {a for a, b in self.alliances if b == name}
        return tuple(n for n in self.names if n in paired)

    def allied(self, a: str, b: str) -> bool:
        return tuple(sorted((a, b))) in self.alliances

    def faction_card(self, name: str) -> Card | None:
        faction = self.seat(name).faction
        return self.deck.card(faction) if faction else None

    def law_cards(self) -> tuple[Card, ...]:
        return tuple(self.deck.card(law) for law in self.laws)

    def spellings(self) -> dict[str, str]:
        """Every accepted spelling (name or nickname) → canonical name, for ``match_name``."""
        spellings = {name: name for name in self.names}
        for name, nicks in self.nicknames:
            spellings.update({nick: name for nick in nicks if nick not in spellings})
        return spellings

    def with_seat(self, name: str, **changes: Any) -> VeneerState:
        seats = tuple(dataclasses.replace(s, **changes) if s.name == name else s for s in self.seats)
        return dataclasses.replace(self, seats=seats)

    def with_alliances(self, pairs: Iterable[tuple[str, str]]) -> VeneerState:
        ordered = sorted({tuple(sorted(p)) for p in pairs})
        return dataclasses.replace(self, alliances=tuple((a, b) for a, b in ordered))


def counted(n: int, thing: str) -> str:
    """``1 coin``, ``2 coins``: a number with its noun."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def alphabetical(names: Iterable[str]) -> tuple[str, ...]:
    """Names in alphabetical order, as a player's own targets are always listed."""
    return tuple(sorted(names, key=lambda n: (n.casefold(), n)))


def state_to_json(state: VeneerState) -> JSON:
    return {
        "seats": [dataclasses.asdict(s) for s in state.seats],
        "deck": state.deck.to_json(),
        "pile": list(state.pile),
        "discard": list(state.discard),
        "laws": list(state.laws),
        "alliances": [list(p) for p in state.alliances],
        "offers": [dataclasses.asdict(o) for o in state.offers],
        "stage": state.stage,
        "turn": state.turn,
        "active": state.active,
        "flipped": state.flipped,
        "forced": state.forced,
        "attacks": [dataclasses.asdict(a) for a in state.attacks],
        "debts": [
            {"debtor": d.debtor, "loans": [list(x) for x in d.loans], "available": d.available}
            for d in state.debts
        ],
        "winners": list(state.winners),
        "reason": state.reason,
        "coins": [list(row) for row in state.coins],
        **({"nicknames": {name: list(nicks) for name, nicks in state.nicknames}} if state.nicknames else {}),
        **({"orders_on_file": {p: list(lines) for p, lines in state.on_file}} if state.on_file else {}),
    }


def state_from_json(data: Mapping[str, Any]) -> VeneerState:
    seats = tuple(
        Seat(**{**s, "dealt": tuple(s["dealt"]), "targets": tuple(s["targets"]), "hand": tuple(s["hand"])})
        for s in data["seats"]
    )
    return VeneerState(
        seats=seats,
        deck=load_deck(data["deck"]),
        pile=tuple(data["pile"]),
        discard=tuple(data.get("discard", ())),
        laws=tuple(data.get("laws", ())),
        alliances=tuple((a, b) for a, b in data.get("alliances", ())),
        offers=tuple(Offer(**o) for o in data.get("offers", ())),
        stage=data["stage"],
        turn=data.get("turn", 0),
        active=data.get("active", ""),
        flipped=data.get("flipped", ""),
        forced=data.get("forced", False),
        attacks=tuple(Attack(**a) for a in data.get("attacks", ())),
        debts=tuple(
            Debt(d["debtor"], tuple((lender, n) for lender, n in d["loans"]), d["available"])
            for d in data.get("debts", ())
        ),
        winners=tuple(data.get("winners", ())),
        reason=data.get("reason", ""),
        coins=tuple(tuple(row) for row in data.get("coins", ())),
        nicknames=nicknames_of(data.get("nicknames", {}), tuple(s.name for s in seats)),
        on_file=tuple((str(p), tuple(map(str, o))) for p, o in data.get("orders_on_file", {}).items()),
    )


def nicknames_of(given: Any, names: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The Players tab's nicknames (one or a list per player), in seating order; checked."""
    if not isinstance(given, Mapping) or not set(given) <= set(names):
        raise ValueError("“nicknames” must map players of the game to their nicknames")
    listed = {n: (v,) if isinstance(v, str) else tuple(str(x) for x in v) for n, v in given.items()}
    return tuple((n, listed[n]) for n in names if listed.get(n))
