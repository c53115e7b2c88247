"""Running one input's commands: read through the table, each applied in turn, the sender answered,
all in one transaction. The organiser's come by mail or by CLI (journalled first as an input row,
``{"game", "line"}``); a player's by mail, where a reply to relayed press is relayed back."""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable
from datetime import datetime
from email.message import EmailMessage
from email.utils import parseaddr
from functools import partial
from typing import TYPE_CHECKING

from courier import faults
from courier.commands import confirm
from courier.commands.checks import probe_of_journal
from courier.commands.players import Asked, press_reply_to, relay_reply
from courier.commands.step import Refused, Step
from courier.commands.syntax import Command, CommandError, check_reach
from courier.commands.table import (
    ORGANISER,
    Reading,
    apply_organiser,
    apply_player,
    find_command,
    first_verb,
    guarded,
    organiser_commands,
    parse_commands,
    read_commands,
)
from courier.config.game import Player
from courier.journal.backups import BackupFailed
from courier.journal.interface import GameRow, Input, Journal, Transaction
from courier.state.context import NOT_A_GAMES_FAULT, OPERATOR_ERRORS, LoadedGame, Tick
from courier.state.control import with_seats

if TYPE_CHECKING:
    from courier.mail.incoming import Letter

log = logging.getLogger(__name__)

# Why a guarded command by mail waits for its code (``confirm.py``).
ORGANISER_GUARD = (
    "these commands change who holds a seat or end the game, and anyone can write your address in a"
    " From line. (A Config `organiser_secret` in your mail, or a DKIM/DMARC pass from a server in"
    " courier.toml's `trusted_authserv_ids`, lets them apply at once.)"
)
CONFIRM_TOPIC = "Please confirm: nothing done yet"
PLAYER_GUARD = (
    "leaving takes your seat out of the game for good, and anyone can write your address in a From"
    " line, so it waits for this mail's code."
)
ADDRESS_GUARD = (
    "a new address takes over your seat's mail, and anyone can write your address in a From line, so"
    " it waits for this mail's code, mailed only to the address you play from now."
)
NOT_ALL_DONE = "Commands: not all done"


# --- the organiser's -------------------------------------------------------------------------------


def organiser_of(tick: Tick, sender: str) -> dict[str, LoadedGame]:
    """The games this address organises (the deployment's organiser or a game's own)."""
    return {gid: g for gid, g in tick.games.items() if parseaddr(g.organiser)[1].lower() == sender.lower()}


def organiser_confirms(tick: Tick, organised: dict[str, LoadedGame], text: str) -> bool:
    """Whether a `confirm` mail gives a code one of these games keeps for its organiser (an
    organiser who also plays may confirm a seat's `resign` of their own too)."""
    try:
        codes = {c.text for c in parse_commands(text) if c.verb == "confirm"}
    except CommandError:
        return False
    return any(confirm.waits(tick.journal, gid, codes, who=ORGANISER) for gid in organised)


def run_commands(
    tick: Tick,
    *,
    input_id: int,
    loaded: LoadedGame,
    text: str,
    proven: bool,
    in_reply_to: str | None = None,
) -> None:
    """Apply every command of one input and answer the organiser, all in one transaction. Unless
    ``proven`` (the CLI, a trusted pass, the organiser's secret), guarded commands wait for a code."""
    config = loaded.config
    row = tick.journal.game(config.id)
    reading = read_commands(text)
    commands = reading.commands
    unread = _unread(reading)
    try:
        if not commands:
            raise CommandError(
                reading.no_command()
                if reading.problems or reading.skipped
                else f"your mail holds no command; {organiser_commands()}"
            )
        if row is None:
            raise CommandError("the game has not started yet; commands apply once it runs")
        for command in commands:
            check_reach(command, tick.now, config.schedule.timezone)
        if any(c.verb == "rollback" for c in (*commands, *_confirmed(tick, config.id, commands))):
            tick.copy_journal()
    except (CommandError, BackupFailed) as e:
        _answer(tick, loaded, input_id, [f"Nothing was done: {e}."], in_reply_to)
        return
    what = "“" + "; ".join(c.line for c in commands) + "”"

    def apply() -> None:
        if proven or not guarded(commands):
            _apply_all(tick, loaded, row, commands, unread, input_id=input_id, in_reply_to=in_reply_to)
        else:
            _ask_confirmation(
                tick, loaded, row, commands, unread, text, input_id=input_id, in_reply_to=in_reply_to
            )

    def refuse(why: str) -> None:
        _answer(tick, loaded, input_id, [f"Nothing was done: {what} {why}."], in_reply_to)

    _refused_if_failing(tick, loaded, f"the organiser's {what}", apply, refuse)


def _apply_all(
    tick: Tick,
    loaded: LoadedGame,
    row: GameRow,
    commands: list[Command],
    unread: list[str],
    *,
    input_id: int,
    in_reply_to: str | None,
) -> None:
    config = loaded.config
    lines: list[str] = []
    with tick.journal.transaction() as db:
        for number, command in enumerate(commands):
            step = Step(tick, db, loaded, row, key=f"{config.id}/command/{input_id}/{number}")
            lines.append(apply_organiser(step, command))
            row = step.row
        refused = any(": refused" in line for line in lines)
        topic = NOT_ALL_DONE if refused or unread else "Commands done"
        message = _message(tick, loaded, input_id, [*lines, *unread], in_reply_to, topic=topic)
        tick.queue(db, key=f"answer/{input_id}", message=message, game=config.id, kind="answer")
        db.settle_input(input_id, status="used", game=config.id, player="organiser", note="commands")
    tick.forget(config.id)  # the commands wrote the game: the tick's decoded view is stale
    loaded.config = with_seats(config, tick.journal.game(config.id))
    log.info("%s: organiser's commands: %s", config.id, "; ".join(lines))
    faults.checkpoint("organiser.committed")


def _unread(reading: Reading) -> list[str]:
    """What the answer says of each command line that did not read: the others apply all the same."""
    return [f"Not read, so not done: {problem}." for problem in reading.problems]


def _confirmed(tick: Tick, game: str, commands: list[Command]) -> list[Command]:
    """The commands the codes of `confirm` lines stand for (a rollback among them needs its copy)."""
    texts = [confirm.peek(tick.journal, game, c.text) for c in commands if c.verb == "confirm"]
    try:
        return [c for text in texts for c in parse_commands(text)]
    except CommandError:
        return []


def _ask_confirmation(
    tick: Tick,
    loaded: LoadedGame,
    row: GameRow,
    commands: list[Command],
    unread: list[str],
    text: str,
    *,
    input_id: int,
    in_reply_to: str | None,
) -> None:
    """Guarded commands by mail with nothing but a From line: kept under a code that goes only to
    the organiser's address (``confirm.py``); nothing changes until it comes back."""
    config = loaded.config
    with tick.journal.transaction() as db:
        step = Step(tick, db, loaded, row, key=f"{config.id}/command/{input_id}")
        code = confirm.ask(step, who=ORGANISER, address=parseaddr(loaded.organiser)[1], text=text)
        lines = [*confirm.asking(code, [c.line for c in commands], why=ORGANISER_GUARD), *unread]
        message = _message(tick, loaded, input_id, lines, in_reply_to, topic=CONFIRM_TOPIC)
        tick.queue(db, key=f"answer/{input_id}", message=message, game=config.id, kind="answer")
        db.settle_input(input_id, status="used", game=config.id, player="organiser", note="to confirm")
    log.info("%s: organiser's commands wait for their code", config.id)


def _refused_if_failing(
    tick: Tick, loaded: LoadedGame, what: str, apply: Callable[[], None], refuse: Callable[[str], None]
) -> None:
    """Apply one input's commands. One that fails unforeseen (a bug, an overflow) is rolled back with
    its transaction, and the input is refused and answered (``refuse``) and reported in one line:
    never retried, never stopping the tick. An operator's problem (a template, a backend) or the
    journal's still propagates: the input waits for the fix."""
    config = loaded.config
    try:
        apply()
    except (*NOT_A_GAMES_FAULT, *OPERATOR_ERRORS):
        loaded.config = config
        raise
    except Exception as e:
        loaded.config = config  # a command may have seated a substitute before the failure
        tick.forget(config.id)
        log.debug("game %s: %s failed", config.id, what, exc_info=True)  # -vv shows where
        error = f"{type(e).__name__}: {e}"
        tick.problem(f"game {config.id}: {what} failed ({error}); refused and answered, nothing changed")
        refuse(f"failed inside Courier ({error}), a fault of Courier's; the operator is told")


def journal_command(journal: Journal, game: str, line: str, *, now: datetime) -> None:
    """Journal an organiser's CLI command at once, checked now as far as it can be (its syntax and
    bounds, and ``checks.py``: the game runs, the name means a seat, the seat's state allows it);
    the next tick applies it. Raises ``CommandError``, journalling nothing."""
    commands = parse_commands(line)
    for command in commands:
        check_reach(command, now)
    try:
        probe = probe_of_journal(journal, game)
        for command in commands:
            check = find_command(command.verb)
            if check is not None and check.check is not None:
                check.check(probe, command)
    except Refused as e:
        raise CommandError(f"“{line}”: refused, {e}; nothing was journalled") from None
    stamp = f"cli:{now.isoformat()}:{secrets.token_hex(4)}"
    raw = json.dumps({"game": game, "line": line}, ensure_ascii=False).encode()
    journal.add_input(source="cli", source_id=stamp, message_id=stamp, received_at=now, raw=raw)


def run_cli_input(tick: Tick, item: Input) -> None:
    """A command given by CLI (``courier pause GAME``), journalled as ``{"game", "line"}``."""
    body = json.loads(item.raw)
    loaded = tick.games.get(body["game"])
    if loaded is None:
        if body["game"] not in tick.broken:  # a broken config keeps it until fixed
            with tick.journal.transaction() as db:
                db.settle_input(item.id, status="ignored", note=f"no game {body['game']}")
        return
    # At the machine, the operator needs no code: the CLI's word is proof enough.
    run_commands(tick, input_id=item.id, loaded=loaded, text=body["line"], proven=True)


def _answer(tick: Tick, loaded: LoadedGame, input_id: int, lines: list[str], in_reply_to: str | None) -> None:
    message = _message(tick, loaded, input_id, lines, in_reply_to, topic=NOT_ALL_DONE)
    with tick.journal.transaction() as db:
        tick.queue(db, key=f"answer/{input_id}", message=message, game=loaded.config.id, kind="answer")
        db.settle_input(input_id, status="ignored", game=loaded.config.id, note=lines[0])


def _message(
    tick: Tick, loaded: LoadedGame, input_id: int, lines: list[str], in_reply_to: str | None, *, topic: str
) -> EmailMessage:
    return tick.mailer.answer(
        loaded.config,
        to=loaded.organiser,
        name="organiser",
        topic=topic,
        lines=lines,
        key=f"answer/{input_id}",
        in_reply_to=in_reply_to,
    )


# --- a player's ------------------------------------------------------------------------------------


def player_commands(
    tick: Tick, item: Input, letter: Letter, loaded: LoadedGame, player: Player, text: str
) -> None:
    row = tick.journal.game(loaded.config.id)
    assert row is not None
    replying = press_reply_to(tick, letter.in_reply_to, loaded)
    reading = Reading([], [], []) if replying and not _starts_with_command(text) else read_commands(text)
    commands, unread = reading.commands, _unread(reading)
    try:
        if reading.problems and not commands:
            raise CommandError(reading.no_command())
        for command in commands:
            check_reach(command, tick.now, loaded.config.schedule.timezone)
    except CommandError as e:
        commands, unread, problem = [], [], f"Nothing was done: {e}."
    else:
        problem = ""
    unread += _orders_among(loaded, row, player, reading.skipped) if commands else []
    answer = partial(_answer_player, tick, item=item, letter=letter, loaded=loaded, player=player)

    def apply() -> None:
        with tick.journal.transaction() as db:
            step = Step(tick, db, loaded, row, key=f"{row.id}/asked/{item.id}")
            asked = Asked(step, player, item, [problem] if problem else [])
            if replying and not commands and not problem:
                relay_reply(asked, replying, text)
            waiting = bool(guarded(commands))  # a player's always waits: the code is its "are you sure?"
            if waiting:
                code = confirm.ask(step, who=player.name, address=player.email, text=text)
                why = PLAYER_GUARD if any(c.verb == "resign" for c in commands) else ADDRESS_GUARD
                asked.answers = confirm.asking(code, [c.line for c in commands], why=why)
            for command in [] if waiting else commands:
                asked.answers.append(apply_player(asked, command))
                asked.answers.extend(asked.more)
                asked.more.clear()
            asked.answers.extend(unread)
            refused = any(": refused, " in line for line in asked.answers)
            topic = (
                CONFIRM_TOPIC
                if waiting
                else _topic(commands, replying=bool(replying), refused=refused, unread=bool(unread))
            )
            answer(db, topic=topic, lines=asked.answers, block=asked.block)
            status = "ignored" if problem else "used"
            db.settle_input(item.id, status=status, game=row.id, player=player.name, note="commands")

    what = "“" + "; ".join(c.line for c in commands) + "”" if commands else "the reply to press"

    def refuse(why: str) -> None:
        lines = [f"Nothing was done: {what} {why}."]
        with tick.journal.transaction() as db:
            answer(db, topic="Your commands", lines=lines, block="")
            db.settle_input(item.id, status="ignored", game=row.id, player=player.name, note=lines[0])

    _refused_if_failing(tick, loaded, f"{player.name}'s {what}", apply, refuse)
    tick.forget(row.id)  # a confirmed `resign` or `away` may have written the game
    faults.checkpoint("players.committed")


def _answer_player(
    tick: Tick,
    db: Transaction,
    *,
    item: Input,
    letter: Letter,
    loaded: LoadedGame,
    player: Player,
    topic: str,
    lines: list[str],
    block: str,
) -> None:
    key = f"answer/{item.id}"
    message = tick.mailer.answer(
        loaded.config,
        to=player.email,
        name=player.greeted,
        topic=topic,
        lines=lines,
        block=block,
        key=key,
        in_reply_to=letter.message_id or None,
    )
    tick.queue(db, key=key, message=message, game=loaded.config.id, kind="answer")


def _orders_among(loaded: LoadedGame, row: GameRow, player: Player, skipped: list[str]) -> list[str]:
    """A line of a command mail that reads as orders is not taken as orders: the answer says so
    (a mail that starts with a command is read as commands; chit-chat is skipped unsaid)."""
    ruleset = loaded.config.ruleset
    state = ruleset.from_json(row.state)
    return [
        f"“{line}” was not taken as orders: a mail that starts with a command is read as commands;"
        " send orders in a mail of their own."
        for line in skipped[:5]
        if ruleset.parse(state, player.name, line).orders
    ]


def _starts_with_command(text: str) -> bool:
    return first_verb(text) is not None


def _topic(commands: list[Command], *, replying: bool, refused: bool, unread: bool) -> str:
    if replying and not commands:
        return "Your reply to press"
    verbs = {c.verb for c in commands}
    if verbs == {"status"}:
        return "Your status"
    if verbs == {"help"}:
        return "How to play by mail"
    if verbs == {"press"}:  # a refused press was not sent: its subject must not say so
        return "Press not sent" if refused else "Press sent"
    return "Your commands: not all done" if refused or unread else "Your commands"
