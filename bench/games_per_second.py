"""Whole games per second with bots in every seat, per game kind, in one process (what one core
of ``courier simulate`` does). A benchmark, not a test: it always exits 0.

    python bench/games_per_second.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from time import perf_counter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root

from courier.tools.simulate import Task, play_game
from engine import RULESETS

# game, players, options: a usual table for each kind, every game in the registry
KINDS: list[tuple[str, int, dict[str, object]]] = [
    (name, ruleset.simulated.players, {}) for name, ruleset in RULESETS.items()
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10, help="games per kind (default 10)")
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    heads = ("players", 7), ("games", 6), ("phases", 7), ("seconds", 8), ("games/s", 8), ("phases/s", 9)
    print(f"{'game':<10} " + " ".join(f"{h:>{w}}" for h, w in heads))
    for game, players, options in KINDS:
        start = perf_counter()
        records = [play_game(Task(game, players, args.seed, i, options)) for i in range(args.games)]
        took = perf_counter() - start
        phases = sum(r.phases for r in records)
        print(
            f"{game:<10} {players:>7} {args.games:>6} {phases:>7} {took:>8.2f} "
            f"{args.games / took:>8.2f} {phases / took:>9.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
