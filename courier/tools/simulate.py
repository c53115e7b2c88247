"""``courier simulate``: whole games headless with the game's bot in every seat, to see whether a
game's rules and constants are balanced before inviting friends.

Every game is played as the tick plays it (``engine.core.rng_for`` seeds setup, each bot and each
resolution from ``SEED/game-N``), so the same seed gives the same statistics, whatever ``--jobs``
says. The statistics go to stdout; the progress bar (tqdm) to stderr, and only when it is a terminal.
"""

from __future__ import annotations

import math
import os
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from courier.errors import UsageError, find_game_kind
from engine import find_ruleset
from engine.bots import bot_submission
from engine.core import Count, Ruleset, Submission, rng_for, settle_silent

MAX_PHASES = 600  # a game still going after this many phases is counted as unfinished


@dataclass(frozen=True)
class Task:
    game: str
    players: int
    seed: str
    index: int
    options: Mapping[str, Any]
    max_phases: int = MAX_PHASES


@dataclass(frozen=True)
class GameRecord:
    """One game's result: each seat's label (seat, power, faction or nation), who won, how long it
    ran, and the game's own numbers (``samples``: a name → the values it gave in this game)."""

    labels: Mapping[str, str]
    winners: tuple[str, ...]
    phases: int
    finished: bool
    kind: str  # solo, shared, unfinished
    samples: Mapping[str, tuple[float, ...]] = field(default_factory=dict)


# --- one game -------------------------------------------------------------------------------


def play_game(task: Task) -> GameRecord:
    """One whole game with a bot in every seat (a top-level function: worker processes run it)."""
    ruleset = find_ruleset(task.game)
    seed = f"{task.seed}/game-{task.index}"
    names = [f"P{i + 1}" for i in range(task.players)]
    state = ruleset.setup(names, dict(task.options), rng_for(seed, "setup"))
    labels = ruleset.seat_labels(state, names)
    samples: dict[str, list[float]] = {}
    totals: dict[tuple[str, str], float] = {}  # running totals: the last value stands
    phases = 0
    while ruleset.outcome(state) is None and phases < task.max_phases:
        key = ruleset.phase(state).key

        def bot(state: Any, player: str, key: str = key) -> Submission:
            return bot_submission(ruleset, state, player, rng_for(seed, key, "default", player))

        state, submissions = settle_silent(ruleset, state, {}, bot)  # as the tick settles bot seats
        resolution = ruleset.resolve(state, submissions, rng_for(seed, key, "resolve"))
        collect(ruleset.counts(resolution.events), samples, totals)
        state = resolution.state
        phases += 1
    for (name, _), value in sorted(totals.items()):
        samples.setdefault(name, []).append(value)
    outcome = ruleset.outcome(state)
    if outcome is None:
        return GameRecord(labels, (), phases, False, "unfinished", _frozen(samples))
    winners = tuple(sorted(labels.get(w, w) for w in outcome.winners))
    kind = "solo" if len(winners) == 1 else "shared"
    return GameRecord(labels, winners, phases, True, kind, _frozen(samples))


def _frozen(samples: Mapping[str, list[float]]) -> dict[str, tuple[float, ...]]:
    return {k: tuple(v) for k, v in samples.items()}


def collect(
    counts: Iterable[Count], samples: dict[str, list[float]], totals: dict[tuple[str, str], float]
) -> None:
    """One phase's counts: each added to its list, or a running total's latest value kept."""
    for count in counts:
        if count.per is None:
            samples.setdefault(count.name, []).append(count.value)
        else:
            totals[count.name, count.per] = count.value


# --- many games -----------------------------------------------------------------------------


def run(tasks: Sequence[Task], *, jobs: int, progress: bool) -> list[GameRecord]:
    """Every task's record, in task order (so the result does not depend on ``jobs``)."""
    if jobs <= 1:
        return list(_with_progress(map(play_game, tasks), len(tasks), progress))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        chunk = max(1, len(tasks) // (jobs * 8))
        return list(_with_progress(pool.map(play_game, tasks, chunksize=chunk), len(tasks), progress))


def _with_progress(records: Iterator[GameRecord], total: int, shown: bool) -> Iterator[GameRecord]:
    if not shown:
        return records
    from tqdm import tqdm

    return iter(tqdm(records, total=total, unit="game", file=sys.stderr, leave=False))


def simulate(
    game: str,
    *,
    games: int,
    players: int,
    seed: str,
    options: Mapping[str, Any],
    jobs: int | None = None,
    progress: bool | None = None,
    max_phases: int = MAX_PHASES,
) -> list[GameRecord]:
    ruleset = find_game_kind(game)  # a clear error for an unknown game, before any worker starts
    _check_setup(ruleset, players, options)
    tasks = [Task(ruleset.name, players, seed, i, dict(options), max_phases) for i in range(games)]
    jobs = jobs if jobs is not None else (os.cpu_count() or 1)
    shown = sys.stderr.isatty() if progress is None else progress
    return run(tasks, jobs=min(jobs, games) or 1, progress=shown)


def _check_setup(ruleset: Ruleset, players: int, options: Mapping[str, Any]) -> None:
    """The rules refusing these players or options is the operator's to fix: say so before any
    worker starts (a ``ValueError`` in a worker, later, is a bug)."""
    try:
        ruleset.setup([f"P{n}" for n in range(1, players + 1)], dict(options), rng_for("check", "setup"))
    except ValueError as e:
        raise UsageError(str(e)) from e


# --- the report -----------------------------------------------------------------------------


def wilson(wins: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if trials == 0:
        return 0.0, 0.0
    p = wins / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def win_rates(records: Sequence[GameRecord], *, shared: bool = False) -> list[tuple[str, int, int]]:
    """(label, wins, seats played) per label: solo wins, or with ``shared`` the wins shared (a draw,
    a tie) that counted for every winner."""
    seats: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for record in records:
        seats.update(record.labels.values())
        if (record.kind == "shared") == shared:
            wins.update(record.winners)
    return [(label, wins[label], seats[label]) for label in sorted(seats, key=_seat_order)]


def _seat_order(label: str) -> tuple[int, str]:
    """P2 before P10; everything else by name."""
    return (int(label[1:]), "") if label[:1] == "P" and label[1:].isdigit() else (10**6, label)


def report(
    game: str, records: Sequence[GameRecord], *, players: int, seed: str, options: Mapping[str, Any]
) -> str:
    ruleset = find_ruleset(game)
    shown = ", ".join(f"{k}={v}" for k, v in sorted(options.items()))
    lines = [
        f"courier simulate {ruleset.name}: {len(records)} games, {players} players, seed {seed}"
        + (f", {shown}" if shown else ""),
        "",
        "Win rate per seat (95% Wilson interval), and how often it shared a win (a draw, a tie):",
        f"  {'':<16} {'wins alone':>10}  {'95% interval':>16}  {'shared':>7}",
    ]
    shared = {label: wins for label, wins, _ in win_rates(records, shared=True)}
    for label, wins, seats in win_rates(records):
        low, high = wilson(wins, seats)
        lines.append(
            f"  {label:<16} {wins / seats:10.1%}  [{low:6.1%}, {high:6.1%}]  {shared[label] / seats:7.1%}"
        )
    kinds = Counter(r.kind for r in records)
    lines += [
        "",
        "Results: "
        + ", ".join(f"{k} {kinds[k] / len(records):.1%}" for k in ("solo", "shared", "unfinished")),
    ]
    if ruleset.simulated.draws:
        lines.append(
            f"  (solo victories {kinds['solo'] / len(records):.1%}, draws "
            f"{kinds['shared'] / len(records):.1%}, still open after the phase limit "
            f"{kinds['unfinished'] / len(records):.1%})"
        )
    lines += ["", f"Game length ({ruleset.simulated.unit}s): " + _summary([r.phases for r in records])]
    for name, values in sorted(_pooled(records).items()):
        lines.append(f"{name[:1].upper() + name[1:]}: " + _summary(values))
        if name in ruleset.simulated.histograms:
            lines.append(f"  per {ruleset.simulated.unit}: " + _histogram(values))
    return "\n".join(lines) + "\n"


def _pooled(records: Sequence[GameRecord]) -> dict[str, list[float]]:
    pooled: dict[str, list[float]] = {}
    for record in records:
        for name, values in record.samples.items():
            pooled.setdefault(name, []).extend(values)
    return pooled


def _summary(values: Sequence[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    spread = statistics.pstdev(ordered) if len(ordered) > 1 else 0.0
    return (
        f"mean {statistics.fmean(ordered):.2f}, sd {spread:.2f}, min {_num(ordered[0])}, "
        f"10% {_num(_quantile(ordered, 0.1))}, median {_num(_quantile(ordered, 0.5))}, "
        f"90% {_num(_quantile(ordered, 0.9))}, max {_num(ordered[-1])}"
    )


def _quantile(ordered: Sequence[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def _histogram(values: Sequence[float]) -> str:
    counts = Counter(int(v) for v in values)
    return ", ".join(f"{k}: {counts[k] / len(values):.1%}" for k in sorted(counts))


# --- the picture ----------------------------------------------------------------------------


def plot(path: Path, game: str, records: Sequence[GameRecord]) -> None:
    """Win rates with their intervals, game lengths and the game's own numbers (matplotlib, the
    optional ``plot`` extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise UsageError("--plot needs matplotlib: pip install 'courier-judge[plot]'") from e
    pooled = _pooled(records)
    unit = find_ruleset(game).simulated.unit
    panels: list[Callable[[Any], None]] = [
        lambda ax: _bars(ax, win_rates(records)),
        lambda ax: _hist(ax, [r.phases for r in records], f"game length ({unit}s)"),
    ]
    panels += [partial(_hist_panel, values, name) for name, values in sorted(pooled.items())]
    figure, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 4), squeeze=False)
    for panel, ax in zip(panels, axes[0], strict=True):
        panel(ax)
    figure.suptitle(f"courier simulate {game}: {len(records)} games")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def _bars(ax: Any, rates: Sequence[tuple[str, int, int]]) -> None:
    labels = [label for label, _, _ in rates]
    values = [wins / seats for _, wins, seats in rates]
    intervals = [wilson(wins, seats) for _, wins, seats in rates]
    errors = [[v - low for v, (low, _) in zip(values, intervals, strict=True)],
              [high - v for v, (_, high) in zip(values, intervals, strict=True)]]  # fmt: skip
    ax.bar(labels, values, yerr=errors, capsize=3, color="#1a73e8")
    ax.set_title("wins alone (95% interval)")
    ax.tick_params(axis="x", labelrotation=45)


def _hist_panel(values: Sequence[float], title: str, ax: Any) -> None:
    _hist(ax, values, title)


def _hist(ax: Any, values: Sequence[float], title: str) -> None:
    ax.hist(values, bins=min(30, max(5, len(set(values)))), color="#188038")
    ax.set_title(title)
