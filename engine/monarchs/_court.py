"""Court mode: five courtiers per nation (three loyal, one spy for each other nation), who carry
the orders and receive the maps. Each turn the monarch names its carrier and its map's recipient;
neither may be the one who delivered the nation's previous orders, nor the one who received its
previous map (the seed's rule against trusting only one or two courtiers). A monarch may hand its
orders to the carrier through Courier (``handed``: seen by that carrier alone), and keeps a record
of its carriers (``record``: seen by that monarch alone)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.monarchs._board import NATIONS

COURTIERS_PER_NATION = 5


@dataclass(frozen=True)
class Courtier:
    name: str
    serves: str  # the court the courtier belongs to (feigned, when a spy)
    loyal_to: str

    @property
    def loyal(self) -> bool:
        return self.serves == self.loyal_to


@dataclass(frozen=True)
class Delivery:
    """One turn as the monarch knows it: whom it named, whether the carrier delivered (it is told,
    CarrierReported), and whether what moved is what it handed (it reads that off its map, so
    never for the last turn, whose outcome comes after the guesses; nor when nothing was handed).
    Simplified: "faithful" means the delivered lines equal the handed ones."""

    turn: int
    carrier: str
    delivered: bool
    faithful: bool | None

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "carrier": self.carrier,
            "delivered": self.delivered,
            "faithful": self.faithful,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Delivery:
        return cls(int(data["turn"]), str(data["carrier"]), bool(data["delivered"]), data.get("faithful"))


@dataclass(frozen=True)
class Court:
    courtiers: tuple[Courtier, ...]
    deliverer: Mapping[str, str] = field(default_factory=dict)  # nation → who delivered its last orders
    map_holder: Mapping[str, str] = field(default_factory=dict)  # nation → who received its last map
    pending: Mapping[str, tuple[str, ...]] = field(
        default_factory=dict
    )  # last turn's orders, kept for the guesses
    guesses: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # nation → {courtier: nation}
    carrier: Mapping[str, str] = field(default_factory=dict)  # nation → its carrier named this turn
    map_to: Mapping[str, str] = field(default_factory=dict)  # nation → who receives this turn's map
    handed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # nation → orders for its carrier
    record: Mapping[str, tuple[Delivery, ...]] = field(default_factory=dict)  # nation → its monarch's notes
    # courtier → other names a monarch may call it by (the Players tab's nicknames, a substitute's own)
    nicknames: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def courtier(self, name: str) -> Courtier | None:
        return next((c for c in self.courtiers if c.name == name), None)

    def of(self, nation: str) -> list[Courtier]:
        return [c for c in self.courtiers if c.serves == nation]

    def spellings(self, nation: str) -> dict[str, str]:
        """Every name a courtier of ``nation`` answers to (``carrier Dora``, ``Dora serves blue``) →
        that courtier: its own, then its nicknames (a substitute's own name among them)."""
        names = {c.name: c.name for c in self.of(nation)}
        for c in self.of(nation):
            names.update({n: c.name for n in self.nicknames.get(c.name, ()) if n not in names})
        return names

    def with_nicknames(self, given: Mapping[str, Any], players: Sequence[str]) -> Court:
        """The nicknames the shell gives (player → a name or a list), the courtiers' kept: at the
        start, and again when a substitute takes a seat under a name of their own."""
        if not isinstance(given, Mapping) or not set(given) <= set(players):
            raise ValueError("“nicknames” must map players of the game to their nicknames")
        listed = {str(p): (v,) if isinstance(v, str) else tuple(str(x) for x in v) for p, v in given.items()}
        return replace(self, nicknames={c.name: listed[c.name] for c in self.courtiers if listed.get(c.name)})

    def barred(self, nation: str) -> dict[str, str]:
        """Courtiers of ``nation`` who may not carry its orders this turn → why (for the monarch)."""
        why = {}
        if nation in self.map_holder:
            why[self.map_holder[nation]] = f"received {nation.title()}'s latest map"
        if nation in self.deliverer:
            why[self.deliverer[nation]] = f"delivered {nation.title()}'s previous orders"
        return why

    def eligible(self, nation: str) -> list[str]:
        barred = self.barred(nation)
        return [c.name for c in self.of(nation) if c.name not in barred]

    def carries(self, courtier: str) -> str | None:
        """The nation whose orders ``courtier`` carries this turn, if its monarch named it."""
        return next((n for n, c in self.carrier.items() if c == courtier), None)

    def named(
        self, nation: str, *, carrier: str | None, map_to: str | None, handed: tuple[str, ...] = ()
    ) -> Court:
        """The monarch's choices, recorded on receipt; a mail naming only one keeps the other, and
        one handing no orders keeps those handed before."""
        return replace(
            self,
            carrier={**self.carrier, **({nation: carrier} if carrier else {})},
            map_to={**self.map_to, **({nation: map_to} if map_to else {})},
            handed={**self.handed, **({nation: handed} if handed else {})},
        )

    def handed_to(self, courtier: str) -> tuple[str, ...]:
        """The orders handed to ``courtier``, if it carries this turn (nobody else sees them)."""
        nation = self.carries(courtier)
        return self.handed.get(nation, ()) if nation else ()

    def map_viewers(self, nation: str) -> frozenset[str]:
        holder = self.map_holder.get(nation)
        return frozenset({holder}) if holder else frozenset()

    def after_turn(
        self, delivered: Mapping[str, str], maps: Mapping[str, str], noted: Mapping[str, Delivery]
    ) -> Court:
        return replace(
            self,
            deliverer={**self.deliverer, **delivered},
            map_holder={**self.map_holder, **maps},
            carrier={},
            map_to={},
            handed={},
            record={
                n: (*self.record.get(n, ()), *((noted[n],) if n in noted else ()))
                for n in NATIONS
                if n in noted or n in self.record
            },
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "courtiers": [
                {"name": c.name, "serves": c.serves, "loyal_to": c.loyal_to} for c in self.courtiers
            ],
            "deliverer": dict(self.deliverer),
            "map_holder": dict(self.map_holder),
            "pending": {n: list(lines) for n, lines in self.pending.items()},
            "guesses": {n: dict(g) for n, g in self.guesses.items()},
            "carrier": dict(self.carrier),
            "map_to": dict(self.map_to),
            **({"handed": {n: list(lines) for n, lines in self.handed.items()}} if self.handed else {}),
            **(
                {"record": {n: [d.to_json() for d in v] for n, v in self.record.items()}}
                if self.record
                else {}
            ),
            **({"nicknames": {c: list(v) for c, v in self.nicknames.items()}} if self.nicknames else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Court:
        return cls(
            courtiers=tuple(Courtier(c["name"], c["serves"], c["loyal_to"]) for c in data["courtiers"]),
            deliverer=dict(data.get("deliverer", {})),
            map_holder=dict(data.get("map_holder", {})),
            pending={n: tuple(lines) for n, lines in data.get("pending", {}).items()},
            guesses={n: dict(g) for n, g in data.get("guesses", {}).items()},
            carrier=dict(data.get("carrier", {})),
            map_to=dict(data.get("map_to", {})),
            handed={n: tuple(lines) for n, lines in data.get("handed", {}).items()},
            record={n: tuple(map(Delivery.from_json, v)) for n, v in data.get("record", {}).items()},
            nicknames={c: tuple(v) for c, v in data.get("nicknames", {}).items()},
        )


def deal_court(courtiers: Mapping[str, str], fixed: Mapping[str, str], rng: random.Random) -> Court:
    """Deal loyalties: in each court one spy for each other nation, the rest loyal.

    ``courtiers`` maps each courtier to the court it belongs to; ``fixed`` holds the loyalties the
    organiser chose (courtier → nation). The others are dealt with the seeded ``rng``."""
    dealt: list[Courtier] = []
    for nation in NATIONS:
        names = sorted(c for c, n in courtiers.items() if n == nation)
        if len(names) != COURTIERS_PER_NATION:
            raise ValueError(
                f"the {nation} court needs {COURTIERS_PER_NATION} courtiers, it has {len(names)}"
            )
        dealt += _deal_one(nation, names, fixed, rng)
    return Court(tuple(dealt))


def _deal_one(
    nation: str, names: Sequence[str], fixed: Mapping[str, str], rng: random.Random
) -> list[Courtier]:
    loyalties = [nation] * (COURTIERS_PER_NATION - 2) + [n for n in NATIONS if n != nation]
    for name in names:
        if name in fixed:
            if fixed[name] not in loyalties:
                raise ValueError(
                    f"{name}: the {nation} court has no room for another courtier loyal to {fixed[name]}"
                )
            loyalties.remove(fixed[name])
    free = [n for n in names if n not in fixed]
    rng.shuffle(loyalties)
    chosen = {**{n: fixed[n] for n in names if n in fixed}, **dict(zip(free, loyalties, strict=True))}
    return [Courtier(name, nation, chosen[name]) for name in names]
