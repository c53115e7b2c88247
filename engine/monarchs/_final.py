"""The end of a court game: monarch scores with the traitor bonus, courtier scores (halved when
their monarch called them disloyal), the winning monarch, and the courtier raffle."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from engine.monarchs._board import CENTRE, NATIONS
from engine.monarchs._court import Court
from engine.monarchs._position import Position

BONUS_PER_TRAITOR = 5
COURTIER_WINNERS = 3


@dataclass(frozen=True)
class FinalScores:
    monarchs: dict[str, int]  # nation → score
    courtiers: dict[str, int]  # courtier → score
    halved: frozenset[str]
    nations: list[str]  # best first
    courtier_winners: list[str]  # the top scorer, then the raffle's two


def final_scores(
    court: Court,
    scores: Mapping[str, int],
    position: Position,
    *,
    turns: int,
    constants: tuple[int, int],
    rng: random.Random,
) -> FinalScores:
    monarch = {n: scores[n] + BONUS_PER_TRAITOR * _right_guesses(court, n) for n in NATIONS}
    loyal_constant, disloyal_constant = (c * (turns + 1) for c in constants)
    courtier: dict[str, int] = {}
    halved = set()
    for c in court.courtiers:
        if c.loyal:
            score = monarch[c.serves] - loyal_constant
        else:
            score = 2 * monarch[c.loyal_to] - monarch[c.serves] - disloyal_constant
        if c.name in court.guesses.get(c.serves, {}):
            score, _ = divmod(score, 2)  # rounded down, as the seed says
            halved.add(c.name)
        courtier[c.name] = score
    coin = {n: rng.random() for n in NATIONS}
    nations = sorted(
        NATIONS,
        key=lambda n: (-monarch[n], position.owners[CENTRE] != n, -len(position.hexes_of(n)), coin[n]),
    )
    return FinalScores(monarch, courtier, frozenset(halved), nations, _courtier_winners(courtier, rng))


def _right_guesses(court: Court, nation: str) -> int:
    return len(rightly_named(court, nation))


def rightly_named(court: Court, nation: str) -> list[str]:
    """The traitors ``nation``'s monarch named with the nation each truly serves (5 points each)."""
    right = []
    for name, guessed in court.guesses.get(nation, {}).items():
        c = court.courtier(name)
        if c is not None and not c.loyal and c.loyal_to == guessed:
            right.append(name)
    return right


def _courtier_winners(scores: Mapping[str, int], rng: random.Random) -> list[str]:
    """The top scorer (ties drawn), then two by raffle without replacement, max(0, score)² tickets
    each. If nobody left holds a ticket, the rest are drawn evenly."""
    names = sorted(scores)
    best = max(scores.values())
    winners = [rng.choice([n for n in names if scores[n] == best])]
    while len(winners) < COURTIER_WINNERS and len(winners) < len(names):
        left = [n for n in names if n not in winners]
        tickets = [max(0, scores[n]) ** 2 for n in left]
        if sum(tickets) == 0:
            winners.append(rng.choice(left))
        else:
            winners.append(rng.choices(left, weights=tickets)[0])
    return winners
