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
from courier.commands.players import Asked, press_reply_to, relay_reply
from courier.commands.step import Refused, Step
from courier.commands.syntax import Command, CommandError, check_reach
from courier.commands.table import CommandSpec, find_command, first_verb, parse_commands
from courier.config.game import Player
from courier.journal.backups import BackupFailed
from courier.journal.interface import GameRow, Input, Journal, Transaction
from courier.state.context import NOT_A_GAMES_FAULT, OPERATOR_ERRORS, LoadedGame, Tick
from courier.state.control import with_seats

if TYPE_CHECKING:
    from courier.mail.incoming import Letter

log = logging.getLogger(__name__)


# --- the organiser's -------------------------------------------------------------------------------


def organiser_of(tick: Tick, sender: str) -> dict[str, LoadedGame]:
    """The games this address organises (the deployment's organiser or a game's own)."""
    return {gid: g for gid, g in tick.games.items() if parseaddr(g.organiser)[1].lower() == sender.lower()}


def run_commands(
    tick: Tick, *, input_id: int, loaded: LoadedGame, text: str, in_reply_to: str | None = None
) -> None:
    """Apply every command of one input and answer the organiser, all in one transaction."""
    config = loaded.config
    row = tick.journal.game(config.id)
    try:
        commands = parse_commands(text)
        if row is None:
            raise CommandError("the game has not started yet; commands apply once it runs")
        for command in commands:
            check_reach(command, tick.now, config.schedule.timezone)
        if any(c.verb == "rollback" for c in commands):
            tick.copy_journal()
    except (CommandError, BackupFailed) as e:
        _answer(tick, loaded, input_id, [f"Nothing was done: {e}."], in_reply_to, done=False)
        return
    what = "“" + "; ".join(c.line for c in commands) + "”"

    def apply() -> None:
        _apply_all(tick, loaded, row, commands, input_id=input_id, in_reply_to=in_reply_to)

    def refuse(why: str) -> None:
        _answer(tick, loaded, input_id, [f"Nothing was done: {what} {why}."], in_reply_to, done=False)

    _refused_if_failing(tick, loaded, f"the organiser's {what}", apply, refuse)


def _apply_all(
    tick: Tick,
    loaded: LoadedGame,
    row: GameRow,
    commands: list[Command],
    *,
    input_id: int,
    in_reply_to: str | None,
) -> None:
    config = loaded.config
    lines: list[str] = []
    with tick.journal.transaction() as db:
        for number, command in enumerate(commands):
            step = Step(tick, db, loaded, row, key=f"{config.id}/command/{input_id}/{number}")
            lines.append(_apply(step, command))
            row = step.row
        refused = any(": refused" in line for line in lines)
        message = _message(tick, loaded, input_id, lines, in_reply_to, done=not refused)
        tick.queue(db, key=f"answer/{input_id}", message=message, game=config.id, kind="answer")
        db.settle_input(input_id, status="used", game=config.id, player="organiser", note="commands")
    tick.forget(config.id)  # the commands wrote the game: the tick's decoded view is stale
    loaded.config = with_seats(config, tick.journal.game(config.id))
    log.info("%s: organiser's commands: %s", config.id, "; ".join(lines))
    faults.checkpoint("organiser.committed")


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
    """Journal an organiser's CLI command at once (its syntax and bounds checked now); the next tick
    applies it. Raises ``CommandError``."""
    for command in parse_commands(line):
        check_reach(command, now)
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
    run_commands(tick, input_id=item.id, loaded=loaded, text=body["line"])


def _apply(step: Step, command: Command) -> str:
    try:
        apply = _spec(command).organiser
        if apply is None:
            raise Refused(f"`{command.verb}` is a player's command, not the organiser's")
        return f"{command.line}: {apply(step, command)}"
    except Refused as e:
        return f"{command.line}: refused, {e}. Nothing changed."


def _answer(
    tick: Tick, loaded: LoadedGame, input_id: int, lines: list[str], in_reply_to: str | None, *, done: bool
) -> None:
    message = _message(tick, loaded, input_id, lines, in_reply_to, done=done)
    with tick.journal.transaction() as db:
        tick.queue(db, key=f"answer/{input_id}", message=message, game=loaded.config.id, kind="answer")
        db.settle_input(input_id, status="ignored", game=loaded.config.id, note=lines[0])


def _message(
    tick: Tick, loaded: LoadedGame, input_id: int, lines: list[str], in_reply_to: str | None, *, done: bool
) -> EmailMessage:
    return tick.mailer.answer(
        loaded.config,
        to=loaded.organiser,
        name="organiser",
        topic="Commands done" if done else "Commands: not all done",
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
    try:
        commands = [] if replying and not _starts_with_command(text) else parse_commands(text)
        for command in commands:
            check_reach(command, tick.now, loaded.config.schedule.timezone)
    except CommandError as e:
        commands, problem = [], f"Nothing was done: {e}."
    else:
        problem = ""
    answer = partial(_answer_player, tick, item=item, letter=letter, loaded=loaded, player=player)

    def apply() -> None:
        with tick.journal.transaction() as db:
            step = Step(tick, db, loaded, row, key=f"{row.id}/asked/{item.id}")
            asked = Asked(step, player, item, [problem] if problem else [])
            if replying and not commands and not problem:
                relay_reply(asked, replying, text)
            for command in commands:
                try:
                    act = _spec(command).player
                    if act is None:
                        raise Refused(f"`{command.verb}` is the organiser's command")
                    asked.answers.append(f"{command.line}: {act(asked, command)}")
                    asked.answers.extend(asked.more)
                    asked.more.clear()
                except Refused as e:
                    asked.answers.append(f"{command.line}: refused, {e}. Nothing changed.")
            topic = _topic(commands) if commands or not replying else "Your reply to press"
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
    tick.forget(row.id)  # `resign confirm` or `away` may have written the game
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
        name=player.name,
        topic=topic,
        lines=lines,
        block=block,
        key=key,
        in_reply_to=letter.message_id or None,
    )
    tick.queue(db, key=key, message=message, game=loaded.config.id, kind="answer")


def _starts_with_command(text: str) -> bool:
    return first_verb(text) is not None


def _topic(commands: list[Command]) -> str:
    verbs = {c.verb for c in commands}
    if verbs == {"status"}:
        return "Your status"
    if verbs == {"help"}:
        return "How to play by mail"
    return "Press sent" if verbs == {"press"} else "Your commands"


def _spec(command: Command) -> CommandSpec:
    spec = find_command(command.verb)
    assert spec is not None  # the table's readers make only its own verbs
    return spec
