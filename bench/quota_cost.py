"""What a deployment of N games costs against Google's Sheets quota, from the requests per game per
tick that tick_requests.py counted at the servers (issue 28).

Google allows 60 read and 60 write requests a minute per user (the service account). Courier's
tick spends at most ``reads_per_minute`` and ``writes_per_minute`` of them (48 each by default: 80 %)
and waits at most ``wait`` seconds a tick (60), through one ``SheetsQuota`` shared by all games
(courier/backends/sheets_quota.py); a game it cannot reach goes first at the next tick. This module
plays that out with the real ``SheetsQuota`` on a simulated clock, ticks ``PERIOD`` apart: each
tick reads every game it can, then writes every game it read that changed, and counts the ticks
until every game has been read and written once (a busy round: every game's tabs changed).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from courier.backends.sheets_quota import NotReached, SheetsQuota

GOOGLE = 60  # requests a minute per user, each of reads and writes
PERIOD = 300.0  # seconds between ticks (cron every 5 minutes)


@dataclass(frozen=True)
class Cost:
    games: int
    reads: int  # requests a tick for every game: reads, and writes when every game changed
    writes: int
    ticks: int  # ticks until every game was read (and, when changed, written) once
    waited: float  # the longest wait of one tick, seconds
    busiest: tuple[int, int]  # the most reads and writes sent in any 60 s


class _Clock:
    def __init__(self) -> None:
        self.at = 0.0

    def now(self) -> float:
        return self.at

    def sleep(self, seconds: float) -> None:
        self.at += seconds


def cost(games: int, *, reads_per_game: int = 1, writes_per_game: int = 1, changed: bool = True) -> Cost:
    """Play ticks until every game was served once; see the module's docstring. Every tick reads
    every game it reaches (a tick always does); a changed game is written once, by the first tick
    that reaches it for its write."""
    clock, sent = _Clock(), {"read": list[float](), "write": list[float]()}
    unread, unwritten = set(range(games)), set(range(games)) if changed and writes_per_game else set()
    order, ticks, longest = list(range(games)), 0, 0.0
    while unread or unwritten:
        quota = SheetsQuota({}, sleep=clock.sleep, clock=clock.now)
        behind = _tick(quota, order, unread, unwritten, sent, clock, (reads_per_game, writes_per_game))
        order = behind + [g for g in order if g not in behind]
        longest = max(longest, quota.waited)
        ticks += 1
        clock.at = ticks * PERIOD
    busy_writes = games * writes_per_game if changed else 0
    busiest = (_busiest(sent["read"]), _busiest(sent["write"]))
    return Cost(games, games * reads_per_game, busy_writes, ticks, longest, busiest)


def _tick(
    quota: SheetsQuota,
    order: list[int],
    unread: set[int],
    unwritten: set[int],
    sent: dict[str, list[float]],
    clock: _Clock,
    per_game: tuple[int, int],
) -> list[int]:
    """One tick: every game read (the load step), then the changed ones written (the publish
    step); returns the games it left behind, in the order it met them."""
    read: list[int] = []
    behind: list[int] = []
    for kind, games, times in (("read", order, per_game[0]), ("write", read, per_game[1])):
        for game in games:
            if kind == "write" and game not in unwritten:
                continue
            try:
                for _ in range(times):
                    quota.take(kind)  # type: ignore[arg-type]
                    sent[kind].append(clock.now())
            except NotReached:
                behind.append(game)
                continue
            (unread if kind == "read" else unwritten).discard(game)
            if kind == "read":
                read.append(game)
    return list(dict.fromkeys(behind))


def _busiest(times: list[float]) -> int:
    """The most requests in any 60 s."""
    most, start = 0, 0
    for end, at in enumerate(times):
        while times[start] <= at - 60:
            start += 1
        most = max(most, end - start + 1)
    return most


def report(*, reads_per_game: int, writes_per_game: int, sizes: tuple[int, ...] = (60, 200)) -> list[str]:
    """Markdown lines: each deployment size against the quota."""
    lines = [
        "",
        f"Against Google's quota ({GOOGLE} reads and {GOOGLE} writes a minute per user), with the"
        f" measured {reads_per_game} read per game a tick and {writes_per_game} write per changed game,"
        " Courier's defaults (48 of each a minute, at most 60 s of waiting a tick) and a tick every"
        f" {PERIOD / 60:.0f} minutes:",
        "",
        "| games | a busy tick needs (reads / writes) | in one minute that is (of Google's 60) "
        "| busiest minute sent (reads / writes) | longest wait a tick | ticks to serve every game "
        "(busy round) | ticks to read every game (idle) |",
        "|---|---|---|---|---|---|---|",
    ]
    for games in sizes:
        busy = cost(games, reads_per_game=reads_per_game, writes_per_game=writes_per_game)
        idle = cost(games, reads_per_game=reads_per_game, writes_per_game=writes_per_game, changed=False)
        share = f"{100 * busy.reads / GOOGLE:.0f} % / {100 * busy.writes / GOOGLE:.0f} %"
        lines.append(
            f"| {games} | {busy.reads} / {busy.writes} | {share} | {busy.busiest[0]} / {busy.busiest[1]} "
            f"| {busy.waited:.0f} s | {busy.ticks} | {idle.ticks} |"
        )
    most = math.floor(0.8 * GOOGLE / max(reads_per_game, writes_per_game, 1))
    lines += [
        "",
        f"With headroom (80 % of the quota) one tick serves up to {most} games without waiting, each read"
        " and, when it changed, written; beyond that a busy tick waits for the quota (at most 60 s) and"
        " the games it cannot reach go first at the next tick.",
    ]
    return lines
