"""The ``courier`` command. An operator's problem (a ``CourierError``) is one clear line on stderr
and exit status 2; any other exception is a bug: one line saying so, exit status 3, and ``-vv``
re-raises it for the traceback."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NoReturn

from courier.commands.table import COMMANDS, CliArgument, find_command
from courier.config.deployment import load_deployment
from courier.errors import CourierError, UsageError, files_are_the_operators

log = logging.getLogger("courier")

DEFAULT_CONFIG = "courier.toml"


class _Parser(argparse.ArgumentParser):
    """argparse with its complaints on one line, as every other problem of ``courier``."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"courier: {message} (see {self.prog} --help)\n")


NOW_HELP = "pretend it is this time (ISO 8601 with offset): a simulated clock, to try a game out"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose > 1 else logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        with files_are_the_operators():
            return int(args.run(args))
    except BrokenPipeError:  # the reader stopped reading (`| head`): quietly, as CLIs do
        from courier.tools.pipes import reader_gone

        reader_gone(sys.stdout)
        return 0
    except CourierError as e:
        print(f"courier: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # a bug: one line, -vv shows where
        if args.verbose > 1:
            raise
        text = str(e.args[0] if isinstance(e, KeyError) and e.args else e)
        bug = f"unexpected {type(e).__name__}: {text}"
        print(f"courier: {bug} (run with -vv for the traceback)", file=sys.stderr)
        return 3


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="courier", description="An arbiter for play-by-email games.")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more detail (-vv: debug)")
    commands = parser.add_subparsers(dest="command", required=True)

    def command(name: str, run: object, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(run=run)
        return sub

    def with_config(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--config",
            type=Path,
            default=Path(os.environ.get("COURIER_CONFIG", DEFAULT_CONFIG)),
            help=f"deployment file (default: $COURIER_CONFIG or ./{DEFAULT_CONFIG})",
        )

    tick = command("tick", _tick, "collect orders, resolve due rounds, publish, send (run from cron)")
    with_config(tick)
    tick.add_argument(
        "--dry-run", action="store_true", help="render the mail this tick would send; change nothing"
    )
    tick.add_argument("--now", type=_aware, help=NOW_HELP)
    tick.add_argument(
        "--reread-since",
        type=_aware,
        metavar="WHEN",
        help="read again the inbox's mail since WHEN, read or not (after a journal was lost or put back)",
    )
    tick.add_argument(
        "--new-journal",
        action="store_true",
        help="the journal is new on purpose: start games the sheets show running over from round 1",
    )
    status = command("status", _status, "games, phases, deadlines, who is awaited, outbox backlog")
    with_config(status)
    status.add_argument("--now", type=_aware, help=NOW_HELP)
    replay = command("replay", _replay, "re-run a game from the journal and verify every round reproduces")
    with_config(replay)
    replay.add_argument("game", help="the game's id")
    restore = command(
        "restore", _restore, "put back a copy of the journal (state_dir/backups) after checking it"
    )
    with_config(restore)
    restore.add_argument(
        "backup", type=Path, help="the copy, e.g. state/backups/journal-20261201T200500Z.sqlite"
    )
    release = command("release", _release, "put a quarantined game (one that kept failing) back into play")
    with_config(release)
    release.add_argument("game", help="the game's id")
    resolve = command("resolve", _resolve, "resolve one round given as JSON on stdin (JSON Lines too)")
    resolve.add_argument("game", help="the game kind, e.g. truce")
    init = command("init", _init, "write a commented starter config and a game workbook, or set up a sheet")
    init.add_argument("--dir", type=Path, default=Path("."), help="where to write (default: here)")
    init.add_argument("--game", default="truce", help="the game kind of the example game")
    init.add_argument("--sheet", metavar="KEY", help="add the missing tabs to this Google Sheet instead")
    with_config(init)
    _organiser_commands(command, with_config)
    render = command(
        "render-check",
        _render_check,
        "open every kind of mail of every game in headless Chromium at 400 and 1200 px; keep screenshots",
    )
    render.add_argument("games", nargs="*", metavar="GAME", help="only these game kinds (default: every one)")
    render.add_argument(
        "--out",
        type=Path,
        default=Path("render-check"),
        help="where the screenshots go (default: ./render-check)",
    )
    demo = command("demo", _demo, "play a whole game on local files with scripted players")
    demo.add_argument("--dir", type=Path, help="where to play (default: a new temporary folder)")
    _simulate_arguments(
        command("simulate", _simulate, "play many games with bots in every seat; print statistics")
    )
    return parser


def _organiser_commands(command: Any, with_config: Any) -> None:
    """One subcommand per organiser's command of the table, e.g. ``courier extend GAME 24h``."""
    for spec in COMMANDS:
        if spec.cli is None:
            continue
        sub = command(spec.verb, _organiser, spec.help)
        with_config(sub)
        sub.add_argument("game", help="the game's id")
        for argument in spec.cli.arguments:
            _add(sub, argument)
        sub.add_argument(
            "--dry-run", action="store_true", help="print the mail it would send; change nothing"
        )
        sub.add_argument("--now", type=_aware, help=NOW_HELP)


def _add(sub: argparse.ArgumentParser, argument: CliArgument) -> None:
    if not argument.name.startswith("-"):
        sub.add_argument(argument.name, nargs="?" if argument.optional else None, help=argument.help)
        return
    dest = argument.dest or argument.name.lstrip("-")
    sub.add_argument(argument.name, dest=dest, default="", required=argument.required, help=argument.help)


def command_line(args: argparse.Namespace) -> str:
    """The mail line an organiser's CLI command stands for (``courier extend g1 24h`` → "extend 24h")."""
    spec = find_command(args.command)
    assert spec is not None and spec.cli is not None  # only the table's commands run _organiser
    return spec.cli.line(vars(args))


def _organiser(args: argparse.Namespace) -> int:
    from courier.commands.syntax import CommandError

    try:
        return _journal_organiser_command(args)
    except CommandError as e:  # a player's mistake is a reply; the operator's, at the CLI, a usage error
        raise UsageError(str(e)) from e


def _journal_organiser_command(args: argparse.Namespace) -> int:
    from courier.commands.run import journal_command

    deployment = load_deployment(args.config)
    line = command_line(args)
    now = args.now or datetime.now(UTC)
    if args.dry_run:
        from courier.tools.dryrun import dry_run

        problems = dry_run(
            deployment,
            now=now,
            out=sys.stdout,
            prepare=lambda j: journal_command(j, args.game, line, now=now),
        )
        for problem in problems:
            print(f"courier: {problem}", file=sys.stderr)
        return 1 if problems else 0
    if args.game not in {g.id for g in deployment.games}:
        raise CourierError(f"no game {args.game!r} in {args.config}")
    from courier.journal.opener import open_journal

    journal = open_journal(deployment.journal_path, kind=deployment.journal_kind, create=False)
    try:
        journal_command(journal, args.game, line, now=now)
    finally:
        journal.close()
    print(f"{args.game}: “{line}” journalled; it applies at the next tick, which mails the organiser")
    return 0


def _simulate_arguments(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("game", help="the game kind, e.g. truce")
    sub.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    sub.add_argument("--players", type=int, required=True, help="players in each game")
    sub.add_argument("--seed", default="1", help="the seed: the same seed gives the same statistics")
    sub.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a game option, as in Config"
    )
    sub.add_argument("--jobs", type=int, help="worker processes (default: every core)")
    sub.add_argument("--max-phases", type=int, default=600, help="a game longer than this is unfinished")
    sub.add_argument("--plot", type=Path, metavar="OUT.png", help="draw the distributions (needs matplotlib)")


def _aware(text: str) -> datetime:
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        example = "2026-12-01T20:00+00:00"
        raise argparse.ArgumentTypeError(f"{text!r} is not a time: write ISO 8601, e.g. {example}") from None
    if value.tzinfo is None:
        raise argparse.ArgumentTypeError(f"{text!r} needs a UTC offset, e.g. {text}+00:00")
    return value


def _tick(args: argparse.Namespace) -> int:
    from courier.tick.runbook import run_tick

    deployment = load_deployment(args.config)
    now = args.now or datetime.now(UTC)
    if args.dry_run:
        from courier.tools.dryrun import dry_run

        problems = dry_run(deployment, now=now, out=sys.stdout)
    else:
        from courier.tools.tick_summary import progress, summary_line

        before = progress(deployment)
        problems = run_tick(deployment, now=now, new_journal=args.new_journal, reread_since=args.reread_since)
    for problem in problems:
        print(f"courier: {problem}", file=sys.stderr)
    if not args.dry_run:  # one line, as every command prints (the dry run's output is its mail)
        print(summary_line(before, progress(deployment), now=now, problems=len(problems)))
    return 1 if problems else 0


def _status(args: argparse.Namespace) -> int:
    from courier.tools.status import status_table

    print(status_table(load_deployment(args.config), now=args.now))
    return 0


def _release(args: argparse.Namespace) -> int:
    from courier.journal.opener import open_journal
    from courier.state.quarantine import release

    deployment = load_deployment(args.config)
    journal = open_journal(deployment.journal_path, kind=deployment.journal_kind, create=False)
    try:
        released = release(journal, args.game)
    finally:
        journal.close()
    if not released:
        print(f"courier: game {args.game} is not quarantined", file=sys.stderr)
        return 2
    print(f"{args.game}: released; the next tick plays it again (and reads the mail that waited)")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from courier.journal.opener import open_journal
    from courier.journal.replay import replay_game

    deployment = load_deployment(args.config)
    journal = open_journal(deployment.journal_path, kind=deployment.journal_kind, create=False)
    try:
        rounds, problems = replay_game(journal, args.game)
    finally:
        journal.close()
    for problem in problems:
        print(f"{args.game} {problem.phase_key}: {problem.what}", file=sys.stderr)
    print(f"{args.game}: {rounds} round(s) replayed, {'all reproduce' if not problems else 'MISMATCH'}")
    return 1 if problems else 0


def _restore(args: argparse.Namespace) -> int:
    from courier.journal.backups import check_backup, last_tick_of, restore_journal
    from courier.tick.runbook import run_lock

    deployment = load_deployment(args.config)
    for line in check_backup(args.backup, kind=deployment.journal_kind):
        print(line)
    with run_lock(deployment.lock_path) as held:
        if not held:
            raise CourierError("a tick is running; try again when it has finished")
        kept = restore_journal(
            args.backup, deployment.journal_path, now=datetime.now(UTC), kind=deployment.journal_kind
        )
    print(f"restored {deployment.journal_path} from {args.backup}")
    if kept is not None:
        print(f"the journal it replaced is kept as {kept}")
    _next_after_restore(
        args, deployment.journal_path, last_tick_of(args.backup, kind=deployment.journal_kind)
    )
    return 0


def _next_after_restore(args: argparse.Namespace, journal_path: Path, last: datetime | None) -> None:
    """The step after a restore: the mail read since the copy's last tick is marked read in the
    inbox, and only ``--reread-since`` reads it again (courier/tick/put_back.py)."""
    from courier.journal.seen import last_seen, reread_since

    if last is None:
        return  # a copy that never ticked read no mail
    seen = last_seen(journal_path)
    until = (
        " (until then every tick refuses, so that no round resolves without it)"
        if seen and seen > last
        else ""
    )
    print(f"next, read again the mail sent since the copy's last tick{until}:")
    print(f"  courier tick --reread-since {reread_since(last)} --config {args.config}")


def _resolve(args: argparse.Namespace) -> int:
    """JSON Lines in → one line out per request, each as soon as it is read; or one JSON document
    in → one out (``courier.tools.requests``)."""
    from courier.errors import find_game_kind
    from courier.tools.requests import answer_requests

    return 0 if answer_requests(find_game_kind(args.game), sys.stdin, sys.stdout) else 1


def _init(args: argparse.Namespace) -> int:
    from courier.tools.starter import write_starter

    if args.sheet:
        from courier.backends.gsheet import GoogleSheet

        GoogleSheet(args.sheet, load_deployment(args.config).sheets).init(game=args.game)
        print(f"sheet {args.sheet}: Config, Players, Form Responses 1, Ledger and History are there")
        return 0
    for line in write_starter(args.dir, game=args.game):
        print(line)
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from courier.config.game import option_value
    from courier.tools.simulate import plot, report, simulate

    options = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option {item!r}: write KEY=VALUE, e.g. --option rounds=12")
        options[key.strip()] = option_value(value)
    if args.games < 1 or args.players < 1:
        raise UsageError("--games and --players must be at least 1")
    records = simulate(
        args.game,
        games=args.games,
        players=args.players,
        seed=args.seed,
        options=options,
        jobs=args.jobs,
        max_phases=args.max_phases,
    )
    print(report(args.game, records, players=args.players, seed=args.seed, options=options), end="")
    if args.plot:
        plot(args.plot, args.game, records)
        print(f"wrote {args.plot}")
    return 0


def _render_check(args: argparse.Namespace) -> int:
    """One line per problem a player would see, the screenshots in ``--out``; exit status 1 when
    there is a problem (``courier.tools.render_check``)."""
    from courier.errors import find_game_kind
    from courier.tools.render_check import render_check, summary

    games = [find_game_kind(name).name for name in args.games]  # an unknown name: one line, exit 2
    checked = render_check(args.out, games)
    problems = summary(checked)
    for line in problems:
        print(line)
    print(f"{len(checked)} pages looked at, {len(problems)} problem(s); screenshots in {args.out}/")
    return 1 if problems else 0


def _demo(args: argparse.Namespace) -> int:
    from courier.tools.demo import run_demo

    return run_demo(args.dir)


if __name__ == "__main__":
    raise SystemExit(main())
