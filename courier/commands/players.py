"""A player's commands by mail as they apply, one function per verb (``table.py`` says which verb
is which; ``run.py`` answers the mail): status, resign (then confirm CODE), away until a date, and
press, relayed in the arbiter's own mail. Answers go to the registered address; press never reaches
the sheet, and a reply to relayed press goes back to its author (the mapping is kept in the
journal's meta table, by the relayed mail's Message-ID)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from courier.commands.step import Refused, Step, leave_seat, move_seat, status_lines
from courier.commands.syntax import Command, until_time
from courier.config.game import GameConfig, Player
from courier.config.schedule import parse_duration
from courier.journal.interface import GameRow, Input, Journal
from courier.journal.meta import PRESS, PressRecord
from courier.state.context import LoadedGame, Tick
from courier.state.control import away as who_is_away
from courier.state.control import control, kicked, round_key, seat_label
from courier.state.newcomers import participants

PRESS_MODES = ("none", "attributed", "anonymous")


@dataclass
class Asked:
    """One player's command mail being answered, inside one transaction."""

    step: Step
    player: Player
    item: Input
    answers: list[str]
    block: str = ""
    more: list[str] = field(default_factory=list)  # lines that follow the command's own answer

    @property
    def config(self) -> GameConfig:
        return self.step.loaded.config


def press_reply_to(tick: Tick, in_reply_to: str, loaded: LoadedGame) -> PressRecord | None:
    """The relayed press a mail answers, if it answers one of this game's."""
    record = PRESS.get(tick.journal, in_reply_to) if in_reply_to else None
    return record if record and record["game"] == loaded.config.id else None


# --- status ----------------------------------------------------------------------------------------


def status(asked: Asked, command: Command) -> str:
    lines, block = status_lines(asked.step.tick, asked.config, asked.step.row, asked.player)
    asked.more.extend(lines)
    asked.block = block
    return "where you stand"


# --- leaving and absence ---------------------------------------------------------------------------


def resign(asked: Asked, command: Command) -> str:
    """Applies only once confirmed by the code mailed to the registered address (``confirm.py``)."""
    step, name = asked.step, asked.player.name
    step.running()
    leave_seat(step, name, by="resigned")
    step.tell_organiser(
        f"{name} resigned (confirmed by the code mailed to their address); the seat plays the default."
    )
    return "done. You have left the game; your seat plays the game's default from now on."


def change_address(asked: Asked, command: Command) -> str:
    """Applies only once confirmed by the code mailed to the registered (old) address."""
    step, name = asked.step, asked.player.name
    step.running()
    if command.name and step.seat(command.name) != name:
        raise Refused("you may change only your own address; the organiser changes another player's")
    move_seat(step, name, command.email)
    return f"done. From now on this game mails you at {command.email}; this address no longer counts."


def away(asked: Asked, command: Command) -> str:
    step, name = asked.step, asked.player.name
    step.running()
    until = until_time(command.until, asked.config.schedule.timezone)
    if until <= step.tick.now:
        raise Refused(f"{command.until} has passed already")
    absent = {**control(step.tick.journal, step.row.id).get("away", {}), name: until.isoformat()}
    step.control(away=absent)
    moved = _extend_for(asked)
    if moved:  # the deadline moved: everybody hears of it at once
        step.tell_all(f"{name} is away for a while.{moved}")
    else:
        step.tell_news(f"{name} is away for a while.", besides=name)
    step.tell_organiser(f"{name} is away until {step.when(until)}.{moved}")
    step.history(f"{name} is away")
    capped = _capped(asked, until, moved=bool(moved))
    if moved or capped:
        return f"noted.{moved}{capped}"
    return "noted. Until then your seat plays the game's default when you send nothing."


def _extend_for(asked: Asked) -> str:
    step = asked.step
    before = step.row.deadline
    if before is None:
        return ""
    journal = step.tick.journal
    moved = away_moved(journal, step.row)
    deadline = away_deadline(step.tick, asked.config, step.row, before, moved=moved)
    if deadline <= before:
        return ""
    step.save(deadline=deadline)
    step.control(away_moved=away_record(journal, step.row, moved + (deadline - before)))
    return f" The deadline moves to {step.when(deadline)}."


def _capped(asked: Asked, until: datetime, *, moved: bool) -> str:
    """What the player hears when `away_limit` keeps the deadline from waiting for their return."""
    step, config = asked.step, asked.config
    deadline = step.row.deadline
    if not _away_extends(config) or deadline is None or until <= deadline:
        return ""
    limit = f"the game's `away_limit` ({config.commands.get('away_limit', '7d')} in all)"
    after = "after it your seat plays the game's default when you send nothing."
    if moved:
        return f" That is as far as {limit} lets absences move this round's deadline; {after}"
    return f" The deadline stays {step.when(deadline)}: absences moved it as far as {limit} allows; {after}"


def _away_extends(config: GameConfig) -> bool:
    return config.commands.get("away", "default") == "extend"


def away_deadline(
    tick: Tick, config: GameConfig, row: GameRow, deadline: datetime, *, moved: timedelta = timedelta(0)
) -> datetime:
    """With Config `away` = extend, a deadline that falls while a player is away moves to their
    return, so that absences move a round's deadline at most `away_limit` (default 7d) in all:
    ``moved`` is how far they moved it already. Otherwise it stays."""
    if not _away_extends(config):
        return deadline
    left = parse_duration(config.commands.get("away_limit", "7d")) - moved
    returns = [
        datetime.fromisoformat(when)
        for name, when in control(tick.journal, row.id).get("away", {}).items()
        if name not in kicked(row) and datetime.fromisoformat(when) > deadline
    ]
    return max(deadline, min(max(returns), deadline + left)) if returns else deadline


def away_moved(journal: Journal, row: GameRow) -> timedelta:
    """How far absences moved the open round's deadline so far (``away_record``)."""
    record = control(journal, row.id).get("away_moved") or {}
    return timedelta(seconds=record["by"]) if record.get("round") == round_key(journal, row) else timedelta(0)


def away_record(journal: Journal, row: GameRow, moved: timedelta) -> dict[str, object]:
    """The control entry that remembers how far absences moved a round's deadline (keyed by the
    round, a re-run after a rollback counting afresh)."""
    return {"round": round_key(journal, row), "by": moved.total_seconds()}


# --- press -----------------------------------------------------------------------------------------


def press_mode(config: GameConfig) -> str:
    mode = config.commands.get("press", "attributed").lower()
    return mode if mode in PRESS_MODES else "attributed"


def press(asked: Asked, command: Command) -> str:
    step, author = asked.step, asked.player.name
    mode = press_mode(asked.config)
    if mode == "none":
        raise Refused("this game allows no press")
    present = [p for p in participants(asked.config, step.row) if p.name not in kicked(step.row)]
    others = [p for p in present if p.name != author]
    if [n.casefold() for n in command.names] == ["all"]:
        # Anonymous press to all goes to its author too: a list without them would name them.
        to = present if mode == "anonymous" else others
    else:
        seats = {step.seat(n) for n in command.names}
        if author in seats:
            raise Refused("press goes to other players, not to yourself")
        to = [p for p in others if p.name in seats]
        if len(to) < len(seats):
            raise Refused("a player who has left the game gets no press")
    labels = [seat_label(step.row, p.name) for p in to]
    shown = "" if mode == "anonymous" else seat_label(step.row, author)
    for player in to:
        _relay(asked, player, author=asked.player, shown=shown, addressees=labels, text=command.text)
    if mode == "anonymous":
        copy = (
            " (anonymously; you get a copy too, as every player does)"
            if asked.player in to
            else " (anonymously)"
        )
        return f"sent to {', '.join(labels)}{copy}."
    return f"sent to {', '.join(labels)}."


def _relay(
    asked: Asked,
    player: Player,
    *,
    author: Player,
    shown: str,
    addressees: list[str],
    text: str,
    reply: bool = False,
) -> None:
    step = asked.step
    key = f"press/{asked.item.id}/{player.name}"
    message = step.tick.mailer.press(
        asked.config, player, author=shown, addressees=addressees, text=text, key=key, reply=reply
    )
    step.tick.queue(step.db, key=key, message=message, game=step.row.id, kind="press")
    record = PressRecord(game=step.row.id, author=author.name, address=author.email)
    PRESS.put(step.db, str(message["Message-ID"]), record)


def relay_reply(asked: Asked, replying: PressRecord, text: str) -> None:
    step = asked.step
    author = replying["author"]
    target = next((p for p in participants(asked.config, step.row) if p.name == author), None)
    if press_mode(asked.config) == "none":
        asked.answers.append("Your reply was not relayed: this game allows no press.")
        return
    if target is None or author in kicked(step.row) or target.email != replying.get("address", target.email):
        # The seat changed hands or left: a private answer must not reach whoever holds it now, and
        # the answer names nobody (the press may have been anonymous).
        asked.answers.append(
            "Your reply was not relayed: the press you answered can no longer be answered (a reply"
            " reaches only the player who wrote it, while they hold the seat they wrote from)."
        )
        return
    if author == asked.player.name:
        asked.answers.append("Your reply was not relayed: that press was your own.")
        return
    if not text.strip():
        asked.answers.append("Your reply was empty; nothing was relayed.")
        return
    shown = "" if press_mode(asked.config) == "anonymous" else seat_label(step.row, asked.player.name)
    _relay(
        asked,
        target,
        author=asked.player,
        shown=shown,
        addressees=[author],
        text=text.strip(),
        reply=True,
    )
    asked.answers.append("Your reply was relayed to the author of the press you answered.")


def absent_players(tick: Tick, row: GameRow) -> set[str]:
    """Seats that are not waited for: those who left, and those away."""
    return kicked(row) | who_is_away(tick.journal, row.id, tick.now)
