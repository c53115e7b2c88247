"""One battle: the greatest strength wins. Strength = regiments (+ 0.25 on one's own hex, + 0.5 on a
boosted hex, in hex battles only) + a uniform draw from [0, 1); a tie in strength is drawn again."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

OWN_HEX = Fraction(1, 4)
BOOST = Fraction(1, 2)


def fight(bases: Sequence[tuple[str, Fraction]], rng: random.Random) -> tuple[str, dict[str, float]]:
    """The winner among ``(nation, base strength)`` and every side's final strength."""
    while True:
        strengths = {nation: float(base) + rng.random() for nation, base in bases}
        best = max(strengths.values())
        leaders = [n for n, s in strengths.items() if s == best]
        if len(leaders) == 1:
            return leaders[0], strengths


def win_chance(advantage: Fraction) -> Fraction:
    """Exact chance that a side ``advantage`` stronger before the draw wins a two-sided battle.

    The difference of two uniform draws is triangular on (−1, 1): P(U₂ − U₁ < a) = 1 − (1 − a)²/2
    for 0 ≤ a ≤ 1 (ties have probability zero and are drawn again)."""
    if advantage < 0:
        return 1 - win_chance(-advantage)
    if advantage >= 1:
        return Fraction(1)
    return 1 - (1 - advantage) ** 2 / 2
