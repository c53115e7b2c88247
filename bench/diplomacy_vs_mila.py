"""Our Diplomacy adjudicator against the ``diplomacy`` package (MILA), side by side.

Random play in MILA makes the positions; at each movement phase both engines adjudicate the same
orders in this process, each timed with ``time.perf_counter_ns``, and the resulting units and
dislodged units are compared. A benchmark, not a test: it always exits 0. See bench/README.md.

    python bench/diplomacy_vs_mila.py [--phases N] [--seed S] [--quick] [--dump FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter_ns
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root, for `engine`

from bench._mila import (
    UNKNOWN,
    MilaGame,
    Outcome,
    classify,
    mila_adjudicate,
    mila_process,
    new_game,
    our_orders,
    our_outcome,
    our_position,
    play_to_movement,
    power_units,
    random_movement_orders,
)
from engine import RULESETS
from engine.diplomacy import (
    STANDARD,
    MovementResult,
    Position,
    adjudicate_movement,
    check_movement_orders,
    resolve_movement,
)
from engine.request import resolve_request

DIPLOMACY = RULESETS["diplomacy"]
QUICK_PHASES = 300
SHOWN = 20  # disagreements printed in full


@dataclass
class Disagreement:
    game: int
    phase: str
    position: Position
    orders: dict[str, list[str]]  # MILA's order strings, by MILA power name
    mila: Outcome
    ours: Outcome
    mila_codes: dict[str, list[str]]
    our_result: MovementResult
    kind: str  # a known class of disagreement (see _mila.classify), or "unclassified"

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "game": self.game,
            "phase": self.phase,
            "units": power_units((u.power, u.type, u.location) for u in self.position.units),
            "orders": {
                p.capitalize(): sorted(o.lower() for o in orders) for p, orders in self.orders.items()
            },
            "mila": _outcome_json(self.mila),
            "ours": _outcome_json(self.ours),
            "mila_results": {u: codes for u, codes in sorted(self.mila_codes.items()) if codes},
            "our_results": [_result_text(r) for r in self.our_result.results],
        }


@dataclass
class Timings:
    """Nanoseconds per phase. Ours is timed cold, right after MILA ran, as in use: on alternate
    phases the whole ``resolve_movement``, or its two steps (each timed) on the others."""

    ours: list[int]  # resolve_movement
    ours_check: list[int]  # check_movement_orders
    ours_adjudicate: list[int]  # adjudicate_movement
    mila_core: list[int]
    mila_process: list[int]
    mila_texts: list[int]  # set_orders + process(): order texts in, board out
    pipeline: list[int]  # ours the way `courier resolve diplomacy` runs a JSON line: texts in, board out


def _outcome_json(outcome: Outcome) -> dict[str, Any]:
    return {
        "units": power_units(outcome.units),
        "dislodged": [f"{p} {t} {loc} (from {by})" for p, t, loc, by in sorted(outcome.dislodged)],
    }


def _result_text(result: Any) -> str:
    verdict = "ok" if result.succeeded else f"fails: {result.reason}"
    return f"{result.order.unit.power} {result.order} -> {verdict}"


def run(phases: int, seed: int) -> tuple[Timings, list[Disagreement], int]:
    """Play random games until ``phases`` movement phases were adjudicated by both engines."""
    rng = random.Random(seed)
    timings = Timings([], [], [], [], [], [], [])
    disagreements: list[Disagreement] = []
    games = 0
    game: MilaGame = None
    last_year = 0
    while len(timings.mila_core) < phases:
        if game is None or game.is_game_done or _year(game) > last_year:
            game, games = new_game(), games + 1
            last_year = _year(game) + rng.randint(4, 15)  # fresh openings now and then, long games too
            continue
        play_to_movement(game, rng)
        if game.is_game_done:
            continue
        start = perf_counter_ns()
        for power, texts in random_movement_orders(game, rng).items():
            game.set_orders(power, texts)
        set_ns = perf_counter_ns() - start
        given: dict[str, list[str]] = {p: list(o) for p, o in game.get_orders().items() if o}
        position = our_position(game)
        orders = our_orders(given)
        result = _time_ours(timings, position, orders)
        timings.pipeline.append(_time_pipeline(json_line(game, given)))
        mila, codes, core_ns = mila_adjudicate(game)
        phase = game.get_current_phase()
        timings.mila_core.append(core_ns)
        timings.mila_process.append(mila_process(game))
        timings.mila_texts.append(set_ns + timings.mila_process[-1])
        ours = our_outcome(result)
        if ours != mila:
            kind = classify(result, position, mila)
            disagreements.append(Disagreement(games, phase, position, given, mila, ours, codes, result, kind))
    return timings, disagreements, games


def _time_ours(timings: Timings, position: Position, orders: Any) -> MovementResult:
    if len(timings.mila_core) % 2 == 0:
        start = perf_counter_ns()
        result = resolve_movement(STANDARD.map, position, orders)
        timings.ours.append(perf_counter_ns() - start)
        return result
    start = perf_counter_ns()
    checked = check_movement_orders(STANDARD.map, position, orders)
    middle = perf_counter_ns()
    result = adjudicate_movement(STANDARD.map, checked)
    timings.ours_adjudicate.append(perf_counter_ns() - middle)
    timings.ours_check.append(middle - start)
    return result


def json_line(game: MilaGame, given: dict[str, list[str]]) -> str:
    """The phase as one line of `courier resolve diplomacy` JSON Lines: units, centres, order texts."""
    season, year, kind = game.phase.split()
    request = {
        "variant": "standard",
        "phase": {"season": season.lower(), "year": int(year), "kind": kind.lower()},
        "units": [
            {"power": p.name.capitalize(), "type": u[0], "location": u[2:].lower()}
            for p in game.powers.values()
            for u in p.units
        ],
        "supply_centers": {p.name.capitalize(): [c.lower() for c in p.centers] for p in game.powers.values()},
        "orders": {power.capitalize(): texts for power, texts in given.items()},
    }
    return json.dumps(request)


def _time_pipeline(line: str) -> int:
    """What `courier resolve diplomacy` does for one JSON line (courier/tools/cli.py `_resolve`): parse the
    line, read every order text, adjudicate, answer as a JSON line."""
    start = perf_counter_ns()
    json.dumps(resolve_request(DIPLOMACY, json.loads(line)), ensure_ascii=False)
    return perf_counter_ns() - start


def _year(game: MilaGame) -> int:
    return int(game.phase.split()[1]) if game.phase not in ("FORMING", "COMPLETED") else 0


# --- report -----------------------------------------------------------------------------------


def _ms(ns: float) -> str:
    return f"{ns / 1e6:8.3f} ms"


TARGET = 5.0  # ours at least this many times faster, like for like (the target)


def print_timings(t: Timings) -> None:
    print(f"{'':30}{'median':>12}{'mean':>12}")
    rows = [
        ("ours: resolve_movement", t.ours),
        ("ours:   check_movement_orders", t.ours_check),
        ("ours:   adjudicate_movement", t.ours_adjudicate),
        ("MILA core", t.mila_core),
        ("MILA process()", t.mila_process),
    ]
    rows += [("ours: courier resolve (JSON line)", t.pipeline), ("MILA set_orders + process()", t.mila_texts)]
    for name, values in rows:
        print(f"{name:30}{_ms(statistics.median(values)):>12}{_ms(statistics.fmean(values)):>12}")
    print("\nhow many times faster ours is (medians, means):")
    like_for_like = [
        _ratio(
            "adjudication, orders already validated: MILA core / adjudicate_movement",
            t.mila_core,
            t.ours_adjudicate,
        ),
        _ratio(
            "whole phase (ours also validates): MILA process() / resolve_movement", t.mila_process, t.ours
        ),
    ]
    like_for_like.append(
        _ratio(
            "texts in, board out: MILA set_orders + process() / `courier resolve` per JSON line",
            t.mila_texts,
            t.pipeline,
        )
    )
    _ratio("unlike scopes: MILA core / resolve_movement", t.mila_core, t.ours)
    per_second = 1e9 / statistics.fmean(t.pipeline)
    print(f"  `courier resolve diplomacy` JSON Lines throughput: {per_second:,.0f} phases a second")
    met = all(ratio >= TARGET for ratio in like_for_like)
    print(f"target ×{TARGET:g} like for like (the three above, medians): {'met' if met else 'NOT met'}")


def _ratio(label: str, theirs: list[int], ours: list[int]) -> float:
    by_median = statistics.median(theirs) / statistics.median(ours)
    by_mean = statistics.fmean(theirs) / statistics.fmean(ours)
    print(f"  {label}: ×{by_median:.2f}, ×{by_mean:.2f}")
    return by_median


def print_disagreement(n: int, d: Disagreement) -> None:
    data = d.as_json()
    print(f"\n--- disagreement {n}: game {d.game}, {d.phase} [{d.kind}]")
    print("units:")
    for power, units in data["units"].items():
        print(f"  {power}: {', '.join(units)}")
    print("orders:")
    for power, orders in sorted(data["orders"].items()):
        print(f"  {power}: {'; '.join(orders)}")
    print("difference (MILA | ours):")
    for label, mila_side, our_side in (
        ("units", _flat(d.mila.units), _flat(d.ours.units)),
        ("dislodged", _flat(d.mila.dislodged), _flat(d.ours.dislodged)),
    ):
        if mila_side != our_side:
            only_mila, only_ours = sorted(mila_side - our_side), sorted(our_side - mila_side)
            print(f"  {label}: only MILA: {only_mila}  only ours: {only_ours}")
    print("MILA results: " + "; ".join(f"{u}: {','.join(c)}" for u, c in data["mila_results"].items()))
    print("our results (failures):")
    for line in data["our_results"]:
        if "-> ok" not in line:
            print(f"  {line}")


def _flat(items: frozenset[tuple[str, ...]]) -> set[str]:
    return {" ".join(item) for item in items}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--phases", type=int, default=10_000, help="movement phases to adjudicate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help=f"smoke run of {QUICK_PHASES} phases")
    parser.add_argument("--dump", type=Path, help="write every disagreement as JSON to this file")
    args = parser.parse_args(argv)
    phases = QUICK_PHASES if args.quick else args.phases
    timings, disagreements, games = run(phases, args.seed)
    print(f"{phases} movement phases from {games} random games (seed {args.seed})\n")
    print_timings(timings)
    print(f"\nphases whose results disagree: {len(disagreements)} of {phases}")
    for kind, count in Counter(d.kind for d in disagreements).most_common():
        print(f"  {count:6}  {kind}")
    # Unclassified ones first: the known classes are MILA's documented deviations.
    shown = sorted(disagreements, key=lambda d: d.kind != UNKNOWN)[:SHOWN]
    for n, d in enumerate(shown, 1):
        print_disagreement(n, d)
    if args.dump:
        args.dump.write_text(json.dumps([d.as_json() for d in disagreements], indent=1) + "\n")
        print(f"\nall {len(disagreements)} disagreements written to {args.dump}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
