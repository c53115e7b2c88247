"""The five actions of an Action Plan (seed, III.2), each with its canonical text (seed, VII).

Lands are held as the text that names them (the land's given name, else its map name; or a name
given by an earlier Conquer of the same plan), so that a canonical line reads back to itself.
"""

from __future__ import annotations

from dataclasses import dataclass

DIRECTIONS: dict[str, float] = {
    "north": 0,
    "north-east": 45,
    "east": 90,
    "south-east": 135,
    "south": 180,
    "south-west": 225,
    "west": 270,
    "north-west": 315,
}


@dataclass(frozen=True)
class Reinforce:
    land: str
    units: int

    def __str__(self) -> str:
        return f"R: {self.land}, {self.units}"

    @property
    def places(self) -> tuple[str, ...]:
        return (self.land,)


@dataclass(frozen=True)
class Conquer:
    origin: str
    target: str | None  # a land, or None when ``direction`` describes a free land
    direction: str | None = None
    units: int | None = None  # units to move in; None = 1 (the least the seed allows)
    name: str | None = None  # [Wellington]: the name to give the conquered land

    def __str__(self) -> str:
        target = f"({self.direction})" if self.direction else self.target
        units = f", {self.units}" if self.units is not None else ""
        name = f" [{self.name}]" if self.name else ""
        return f"Q: {self.origin} >> {target}{units}{name}"

    @property
    def places(self) -> tuple[str, ...]:
        return (self.origin,)


@dataclass(frozen=True)
class Strongholding:
    land: str
    build: bool

    def __str__(self) -> str:
        return f"S: {'+' if self.build else '-'}{self.land}"

    @property
    def places(self) -> tuple[str, ...]:
        return (self.land,)


@dataclass(frozen=True)
class Capitalshift:
    land: str

    def __str__(self) -> str:
        return f"C: {self.land}"

    @property
    def places(self) -> tuple[str, ...]:
        return (self.land,)


@dataclass(frozen=True)
class Leg:
    origin: str
    target: str
    units: int

    def __str__(self) -> str:
        return f"{self.origin} >> {self.target}, {self.units}"


@dataclass(frozen=True)
class Move:
    legs: tuple[Leg, ...]

    def __str__(self) -> str:
        return "M: " + "; ".join(str(leg) for leg in self.legs)

    @property
    def places(self) -> tuple[str, ...]:
        return tuple(p for leg in self.legs for p in (leg.origin, leg.target))


Action = Reinforce | Conquer | Strongholding | Capitalshift | Move


def numbered(actions: list[Action]) -> tuple[str, ...]:
    """Canonical order lines, numbered as they resolve: action k of a plan resolves in round k."""
    return tuple(f"{i}. {a}" for i, a in enumerate(actions, start=1))
