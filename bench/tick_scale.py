"""How a tick scales with the number of games and with their history, on the embedded backends.

N games of all six kinds (7 players each; Monarchs' board mode seats exactly 3) in one Maildir inbox,
files outbox and one workbook per game, configured as docs/organising.md says. After 0, 10 and 50 rounds of
history, three ticks are measured, each in a fresh process (as cron runs it), wall time and peak RSS:

- *mail*: 1,000 new mails (orders from awaited players, spread over the games) read and answered;
- *idle*: nothing new, nothing due;
- *due*: every running game's round is due and resolved.

    python bench/tick_scale.py                      # N = 100, histories 0, 10, 50 (long)
    python bench/tick_scale.py --games 12 --histories 0,10 --mails 120
    python bench/tick_scale.py --profile mail       # cProfile of the measured mail tick

Targets (issue 17): mail tick < 10 s, idle < 1 s, due < 5 s, every ratio at 50 rounds < 1.3, peak
RSS < 300 MB. A benchmark, not a test: it always exits 0.

    python bench/tick_scale.py --servers [--games 20 --histories 0,10]

The second mode (bench/tick_requests.py): the same games against the test IMAP, SMTP and Google
Sheets servers, printing the requests per game per tick, counted at the servers.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from courier.backends.maildir import deliver
from courier.backends.workbook import write_config
from courier.config.deployment import load_deployment
from courier.journal.sqlite import SqliteJournal
from courier.tick.runbook import run_tick
from engine import RULESETS, find_ruleset

START = datetime(2026, 12, 1, 8, 0, tzinfo=UTC)
DAY = timedelta(days=1)
KINDS = tuple(RULESETS)  # every game in the registry, in its order
SEATS = {"monarchs": 3}
ROLES = {"monarchs": ("red", "green", "blue")}
# Every phase kind lasts a day, so all games keep in step: round r of every game closes at START + r days.
CONFIG = {
    "timezone": "UTC",
    "start": "2026-12-01 08:00",
    "duration": "1d",
    "reminders": "none",
    "intelligence_duration": "1d",
    "vote_duration": "1d",
    "response_duration": "1d",
}
OPTIONS = {"truce": {"rounds": "200"}, "monarchs": {"turns": "200"}}
DEPLOYMENT = """\
state_dir = "state"
stale_after = 0
domain = "courier.test"
from = "Courier <courier@courier.test>"
reply_to = "orders@courier.test"
organiser = "organiser@courier.test"

[inbox]
type = "maildir"
path = "mail/inbox"

[outbox]
type = "files"
path = "mail/sent"
"""


@dataclass
class Measure:
    seconds: float
    rss_mb: float


def build(root: Path, games: int) -> list[str]:
    """The deployment file and one workbook per game; returns the game ids."""
    ids, parts = [], [DEPLOYMENT]
    for number in range(games):
        kind = KINDS[number % len(KINDS)]
        game_id = f"{kind}-{number}"
        seats = SEATS.get(kind, 7)
        roles = ROLES.get(kind, ("",) * seats)
        players = [
            {"name": f"P{seat}g{number}", "email": _address(game_id, seat), "role": roles[seat]}
            for seat in range(seats)
        ]
        write_config(root / f"{game_id}.xlsx", {"game": kind, **CONFIG, **OPTIONS.get(kind, {})}, players)
        parts.append(f'[[game]]\nid = "{game_id}"\nworkbook = "{game_id}.xlsx"\nseed = "bench {number}"\n')
        ids.append(game_id)
    (root / "courier.toml").write_text("\n".join(parts), encoding="utf-8")
    return ids


def _address(game_id: str, seat: int) -> str:
    return f"p{seat}.{game_id}@players.test"


def deliver_orders(root: Path, *, total: int | None, at: datetime, rng: random.Random) -> int:
    """Mail each running game's awaited players their default orders (``total`` mails in all, cycling
    through the games and players; None: one mail per awaited player). Returns the number delivered."""
    deployment = load_deployment(root / "courier.toml")
    journal = SqliteJournal(deployment.journal_path)
    try:
        queues = [list(_mails_for(journal.game(g.id), rng)) for g in deployment.games]
    finally:
        journal.close()
    queues = [q for q in queues if q]
    mails = [m for q in queues for m in q] if total is None else _spread(queues, total)
    for number, (address, game_id, text) in enumerate(mails):
        message = EmailMessage()
        message["From"] = address
        message["To"] = "orders@courier.test"
        message["Subject"] = f"[{game_id}] orders"
        message["Message-ID"] = f"<bench.{at.timestamp():.0f}.{number}@players.test>"
        message.set_content(text or "hold")
        deliver(root / "mail" / "inbox", message.as_bytes(), at=at)
    return len(mails)


def _spread(queues: list[list[tuple[str, str, str]]], total: int) -> list[tuple[str, str, str]]:
    """``total`` mails round-robin over the games, each game's players in turn (some write twice)."""
    return [queues[i % len(queues)][(i // len(queues)) % len(queues[i % len(queues)])] for i in range(total)]


def _mails_for(row: object, rng: random.Random) -> list[tuple[str, str, str]]:
    from courier.journal.interface import GameRow

    if not isinstance(row, GameRow) or row.finished:
        return []
    ruleset = find_ruleset(row.ruleset)
    state = ruleset.from_json(row.state)
    seats = {name: seat for seat, name in enumerate(row.setup["players"])}
    out = []
    for player in sorted(ruleset.awaiting(state)):
        orders = ruleset.default(state, player, random.Random(rng.random())).orders
        out.append((_address(row.id, seats[player]), row.id, "\n".join(orders)))
    return out


def tick_in_process(root: Path, now: datetime) -> None:
    problems = run_tick(load_deployment(root / "courier.toml"), now=now)
    if problems:
        print(f"  ({len(problems)} problems, first: {problems[0]})", file=sys.stderr)


def measured_tick(root: Path, now: datetime, *, profile: Path | None = None) -> Measure:
    """One tick in a fresh process, as cron runs it: its own wall time and its peak RSS. The disk
    is synced first, so the writes of the history played before are not billed to this tick."""
    os.sync()
    args = [sys.executable, __file__, "--run-tick", str(root), now.isoformat()]
    if profile is not None:
        args += ["--profile-to", str(profile)]
    child = subprocess.Popen(args, stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": _repo()})
    out, _ = child.communicate()
    figures = json.loads(out)
    return Measure(float(figures["seconds"]), float(figures["rss_kb"]) / 1024)


def _repo() -> str:
    return str(Path(__file__).resolve().parent.parent)


def _run_tick_child(root: Path, now: datetime, profile: Path | None) -> None:
    import resource

    started = time.perf_counter()
    if profile is not None:
        import cProfile

        cProfile.runctx("tick_in_process(root, now)", globals(), locals(), str(profile))
    else:
        tick_in_process(root, now)
    seconds = time.perf_counter() - started
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": seconds, "rss_kb": rss_kb}))


def play_rounds(root: Path, *, first: int, last: int, rng: random.Random) -> None:
    """History: rounds ``first``..``last - 1``, every awaited player writing, then the deadline."""
    for number in range(first, last):
        deadline = START + (number + 1) * DAY
        deliver_orders(root, total=None, at=deadline - 3 * timedelta(hours=1), rng=rng)
        tick_in_process(root, deadline - 2 * timedelta(hours=1))
        tick_in_process(root, deadline + timedelta(minutes=5))


def measure(root: Path, history: int, *, mails: int, rng: random.Random, profile: str) -> dict[str, Measure]:
    """The three ticks of round ``history + 1``; the due tick resolves it, so it counts as history."""
    deadline = START + (history + 1) * DAY
    delivered = deliver_orders(root, total=mails, at=deadline - 3 * timedelta(hours=1), rng=rng)
    prof = {k: root.parent / f"{k}-{history}.prof" for k in ("mail", "idle", "due") if profile in (k, "all")}
    result = {
        "mail": measured_tick(root, deadline - 2 * timedelta(hours=1), profile=prof.get("mail")),
        "idle": measured_tick(root, deadline - timedelta(hours=1), profile=prof.get("idle")),
        "due": measured_tick(root, deadline + timedelta(minutes=5), profile=prof.get("due")),
    }
    running = _running(root)
    print(f"history {history}: {delivered} mails, {running} games running", file=sys.stderr)
    for name, path in prof.items():
        print(f"  profile of the {name} tick: {path}", file=sys.stderr)
    return result


def _running(root: Path) -> int:
    deployment = load_deployment(root / "courier.toml")
    journal = SqliteJournal(deployment.journal_path)
    try:
        return sum(1 for g in journal.games() if not g.finished)
    finally:
        journal.close()


def report(results: dict[int, dict[str, Measure]], *, games: int, mails: int) -> None:
    base = results[min(results)]
    print(f"\n{games} games, {mails}-mail tick; wall seconds (ratio to history {min(results)}), peak RSS MB")
    print("| tick | " + " | ".join(f"history {h}" for h in results) + " |")
    print("|---|" + "---|" * len(results))
    for name, label in (("mail", f"{mails} new mails"), ("idle", "idle"), ("due", "every round due")):
        cells = [
            f"{m[name].seconds:.2f} s ×{m[name].seconds / base[name].seconds:.2f}" for m in results.values()
        ]
        print(f"| {label} | " + " | ".join(cells) + " |")
    peaks = [f"{max(m.rss_mb for m in r.values()):.0f} MB" for r in results.values()]
    print("| peak RSS | " + " | ".join(peaks) + " |")


def main() -> None:
    if "--servers" in sys.argv[1:]:  # the second mode: requests per game per tick, over the wire
        sys.path.insert(0, _repo())  # bench/ and tests/servers as packages
        from bench.tick_requests import main as requests_main

        requests_main([a for a in sys.argv[1:] if a != "--servers"])
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--mails", type=int, default=1000)
    parser.add_argument("--histories", default="0,10,50")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", choices=("none", "mail", "idle", "due", "all"), default="none")
    parser.add_argument("--dir", type=Path, help="keep the deployment here (default: a temporary folder)")
    parser.add_argument("--run-tick", nargs=2, metavar=("ROOT", "NOW"), help=argparse.SUPPRESS)
    parser.add_argument("--profile-to", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run_tick:
        _run_tick_child(Path(args.run_tick[0]), datetime.fromisoformat(args.run_tick[1]), args.profile_to)
        return
    histories = sorted(int(h) for h in args.histories.split(","))
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="tick-scale-") as tmp:
        root = (args.dir or Path(tmp)) / "deployment"
        root.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        build(root, args.games)
        tick_in_process(root, START + timedelta(minutes=5))  # the games start, welcomes go out
        results: dict[int, dict[str, Measure]] = {}
        played = 0
        for history in histories:
            play_rounds(root, first=played, last=history, rng=rng)
            results[history] = measure(root, history, mails=args.mails, rng=rng, profile=args.profile)
            played = history + 1
            print(f"  ({time.perf_counter() - started:.0f} s so far)", file=sys.stderr)
        report(results, games=args.games, mails=args.mails)


if __name__ == "__main__":
    main()
