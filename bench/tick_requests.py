"""What a tick costs the services, counted at the servers: tick_scale.py's second mode (issue 17).

N games (default 20) of all six kinds, as in tick_scale.py, each on its own Google Sheet (the test
suite's fake Sheets API, which logs every request), the orders mailbox on a real IMAP server
(Dovecot when installed, else pymap) and the outbox on the test SMTP server (aiosmtpd, STARTTLS and
a login). After 0 and 10 rounds of history (played through the same servers), four ticks are
counted: *mail* (every awaited player's orders), *idle*, *due* (every round resolved), the very
first tick (games start) and, at the end, a tick where every game's organiser seats a substitute
(the Players tab changes too). For each: Sheets reads per game, Sheets writes per game (those
whose Ledger, History or Players tab changed, and the others), IMAP logins and SMTP sessions, against
the limits (issue 17): ≤ 1 read per game, ≤ 1 write per changed game and none otherwise, one IMAP
connection and ≤ 1 SMTP session per tick. Then what deployments of 60 and 200 games (``--sizes``)
cost against Google's quota at those measured rates (bench/quota_cost.py, issue 28).

    python bench/tick_requests.py                   # 20 games, histories 0 and 10 (a few minutes)
    python bench/tick_scale.py --servers --games 6 --histories 0
    python bench/tick_requests.py --imap pymap

A benchmark, not a test (tests/courier/tick/test_request_budget.py is the test): it always exits 0.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' servers

import trustme
from google.oauth2 import service_account

from bench.quota_cost import report as quota_report
from bench.tick_scale import CONFIG, DAY, KINDS, OPTIONS, ROLES, SEATS, START
from tests.servers.imap import DOVECOT, running_imap
from tests.servers.sheets import serve_sheets, write_credentials
from tests.servers.smtp import start_smtp_server
from tests.servers.wire import Game, TickCost, WireDeployment

HOUR = timedelta(hours=1)


def games(count: int) -> list[Game]:
    out = []
    for number in range(count):
        kind = KINDS[number % len(KINDS)]
        game_id = f"{kind}-{number}"
        roles = ROLES.get(kind, ("",) * SEATS.get(kind, 7))
        seats = [
            (f"P{seat}g{number}", f"p{seat}.{game_id}@players.test", role) for seat, role in enumerate(roles)
        ]
        out.append(Game(game_id, {"game": kind, **CONFIG, **OPTIONS.get(kind, {})}, seats))
    return out


@contextmanager
def servers(root: Path, imap_kind: str) -> Iterator[tuple[object, ...]]:
    """The IMAP, SMTP and Sheets servers, and the [sheets] settings reaching the last."""
    ca = trustme.CA()
    # google-auth would look up a "regional access boundary" on the internet; never here.
    service_account.Credentials._is_regional_access_boundary_lookup_required = lambda self: False  # type: ignore[method-assign]
    with ExitStack() as stack:
        imap_root = root / "imap"
        imap_root.mkdir(mode=0o755)
        imap = stack.enter_context(running_imap(imap_kind, imap_root / imap_kind, ca))
        smtp_files = root / "smtp"
        smtp_files.mkdir()
        smtp, controller = start_smtp_server(ca, smtp_files, "starttls")
        stack.callback(controller.stop)
        sheets = stack.enter_context(serve_sheets())
        # Ticks follow each other here within seconds, not minutes as under cron: the server's
        # per-minute quota would refuse the bench's own pace. The quota is costed below instead.
        sheets.set_quota(None, None)
        key = write_credentials(root / "service-account.json", sheets)
        settings = {"credentials_file": str(key), "api_base": sheets.url, "backoff": 0}
        yield imap, smtp, sheets, settings


def counted(rows: list[tuple[str, TickCost, float]], label: str, cost: TickCost, seconds: float) -> None:
    rows.append((label, cost, seconds))
    print(f"  {label}: {line(cost)} ({seconds:.1f} s)", file=sys.stderr)


def line(cost: TickCost) -> str:
    changed = [cost.writes[g] for g in cost.changed]
    return (
        f"reads/game max {max(cost.reads.values())}, writes/changed game max {max(changed, default=0)}, "
        f"writes to unchanged {cost.writes_unchanged}, imap {cost.imap_logins}, smtp {cost.smtp_sessions}"
    )


def timed(deployment: WireDeployment, now: datetime) -> tuple[TickCost, float]:
    started = time.perf_counter()
    cost = deployment.tick(now)
    if cost.problems:
        print(f"  ({len(cost.problems)} problems, first: {cost.problems[0]})", file=sys.stderr)
    return cost, time.perf_counter() - started


def play(deployment: WireDeployment, *, first: int, last: int, rng: random.Random) -> None:
    """Rounds ``first``..``last - 1`` over the wire: every awaited player writes, then the deadline."""
    for number in range(first, last):
        deadline = START + (number + 1) * DAY
        deployment.deliver(deployment.awaited_orders(rng), at=deadline - 3 * HOUR)
        deployment.tick(deadline - 2 * HOUR)
        deployment.tick(deadline + timedelta(minutes=5))


def measure(
    deployment: WireDeployment, history: int, rng: random.Random, rows: list[tuple[str, TickCost, float]]
) -> None:
    deadline = START + (history + 1) * DAY
    mails = deployment.deliver(deployment.awaited_orders(rng), at=deadline - 3 * HOUR)
    counted(rows, f"history {history}: mail ({mails} orders)", *timed(deployment, deadline - 2 * HOUR))
    counted(rows, f"history {history}: idle", *timed(deployment, deadline - HOUR))
    counted(rows, f"history {history}: due", *timed(deployment, deadline + timedelta(minutes=5)))


def substitutes(deployment: WireDeployment, at: datetime, rows: list[tuple[str, TickCost, float]]) -> None:
    """Every game's organiser seats a substitute: the Players tab changes with the Ledger and History."""
    commands = [
        ("organiser@courier.test", game.id, f"replace {game.players[1][0]} with sub.{game.id}@players.test")
        for game in deployment.games
    ]
    deployment.deliver(commands, at=at)
    counted(rows, "a substitute seated in every game", *timed(deployment, at + HOUR))


def verdict(cost: TickCost) -> str:
    changed = [cost.writes[g] for g in cost.changed]
    ok = (
        max(cost.reads.values()) <= 1
        and max(changed, default=0) <= 1
        and cost.writes_unchanged == 0
        and cost.imap_logins == 1
        and cost.smtp_sessions <= 1
    )
    return "PASS" if ok else "MISS"


def report(rows: list[tuple[str, TickCost, float]], *, games: int, imap: str) -> None:
    print(
        f"\n{games} games on Google Sheets (fake API), IMAP ({imap}), SMTP (aiosmtpd); counted at the servers"
    )
    print("limits: Sheets ≤ 1 read per game; ≤ 1 write per game whose sheet changed, 0 otherwise;")
    print("        1 IMAP login per tick; ≤ 1 SMTP session per tick\n")
    print(
        "| tick | games changed | Sheets reads per game (mean / max) | writes per game (mean) | "
        "writes per changed game (max) | writes to unchanged games | IMAP logins | SMTP sessions "
        "| mails sent | wall | verdict |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for label, cost, seconds in rows:
        reads, writes = list(cost.reads.values()), list(cost.writes.values())
        changed = [cost.writes[g] for g in cost.changed]
        print(
            f"| {label} | {len(cost.changed)} of {len(reads)} | {sum(reads) / len(reads):.2f} / {max(reads)} "
            f"| {sum(writes) / len(writes):.2f} | {max(changed, default=0)} | {cost.writes_unchanged} "
            f"| {cost.imap_logins} | {cost.smtp_sessions} | {cost.mails_sent} | {seconds:.1f} s "
            f"| {verdict(cost)} |"
        )


def per_game(rows: list[tuple[str, TickCost, float]]) -> tuple[int, int]:
    """The most Sheets reads one game cost a tick, and the most writes one changed game cost."""
    reads = max(max(cost.reads.values()) for _, cost, _ in rows)
    writes = max(max((cost.writes[g] for g in cost.changed), default=0) for _, cost, _ in rows)
    return reads, writes


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--histories", default="0,10")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sizes", default="60,200", help="deployment sizes to cost against the quota")
    parser.add_argument(
        "--imap", choices=("dovecot", "pymap"), default="dovecot" if DOVECOT.exists() else "pymap"
    )
    args = parser.parse_args(argv)
    logging.getLogger("mail.log").setLevel(logging.ERROR)  # aiosmtpd's deprecation notes, not ours
    rng = random.Random(args.seed)
    rows: list[tuple[str, TickCost, float]] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tick-requests-") as tmp:
        root = Path(tmp)
        root.chmod(0o755)  # Dovecot's unprivileged processes reach into it
        with servers(root, args.imap) as (imap, smtp, sheets, settings):
            deployment = WireDeployment(root / "deployment", imap, smtp, sheets, settings, games(args.games))  # type: ignore[arg-type]
            counted(rows, "start (games begin)", *timed(deployment, START + timedelta(minutes=5)))
            played = 0
            for history in sorted(int(h) for h in args.histories.split(",")):
                play(deployment, first=played, last=history, rng=rng)
                measure(deployment, history, rng, rows)
                played = history + 1
                print(f"  ({time.perf_counter() - started:.0f} s so far)", file=sys.stderr)
            substitutes(deployment, START + played * DAY + 2 * HOUR, rows)
    report(rows, games=args.games, imap=args.imap)
    reads, writes = per_game(rows)
    sizes = tuple(int(n) for n in args.sizes.split(","))
    print("\n".join(quota_report(reads_per_game=reads, writes_per_game=writes, sizes=sizes)))


if __name__ == "__main__":
    main()
