"""How a Star Trek game ends: a solo victory at the faction's own threshold (or 100 latinum for
the Ferengi), an allied victory of factions that registered an alliance with each other holding
enough centres together, or a draw when 2380 begins."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from engine.diplomacy import Position
from engine.startrek._factions import FACTIONS, LAST_YEAR, LATINUM_WIN, SOLO_CENTRES, is_alive


def solo_victory(position: Position, latinum: int) -> tuple[tuple[str, ...], str] | None:
    """The factions at their threshold; if several reach it at once, those with most centres."""
    reached = [f for f in FACTIONS if len(position.centres_of(f)) >= SOLO_CENTRES[f]]
    if reached:
        most = max(len(position.centres_of(f)) for f in reached)
        winners = tuple(f for f in reached if len(position.centres_of(f)) == most)
        return winners, f"{' and '.join(winners)} reached the solo threshold with {most} centres"
    if latinum >= LATINUM_WIN:
        return ("Ferengi",), f"the Ferengi hold {latinum} latinum"
    return None


def mutual_pairs(alliances: Iterable[tuple[str, str]]) -> set[frozenset[str]]:
    declared = set(alliances)
    return {frozenset((a, b)) for a, b in declared if (b, a) in declared}


def allied_victory(
    position: Position, alliances: Iterable[tuple[str, str]], need: int
) -> tuple[tuple[str, ...], str] | None:
    """The largest group of living factions all allied with one another (each pair confirmed both
    ways) holding ``need`` centres together; ties go to the group with more centres."""
    if need <= 0:
        return None
    pairs = mutual_pairs(alliances)
    living = [f for f in FACTIONS if is_alive(position, f)]
    best: tuple[int, tuple[str, ...]] | None = None
    for size in range(2, len(living) + 1):
        for group in combinations(living, size):
            if all(frozenset(p) in pairs for p in combinations(group, 2)):
                centres = sum(len(position.centres_of(f)) for f in group)
                if centres >= need and (best is None or centres > best[0]):
                    best = (centres, group)
    if best is None:
        return None
    return best[1], f"the alliance of {' and '.join(best[1])} holds {best[0]} centres"


def drawn(position: Position) -> bool:
    return position.phase.year > LAST_YEAR
