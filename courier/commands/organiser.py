"""The organiser's commands as they apply, one function per verb (``table.py`` says which verb is
which): at the next tick, in one transaction with its mail (``run.py``): players told, a public line
in History, a confirmation to the organiser. Given by mail from the organiser's address or by CLI
(journalled as an input row, so ``replay`` sees the game as it was played). A command that cannot
apply raises ``Refused`` with its reason and changes nothing."""

from __future__ import annotations

import dataclasses
import json
import re
from datetime import datetime
from typing import Any

from courier.commands import checks
from courier.commands.checks import probe_of_step
from courier.commands.step import Refused, Step, leave_seat, move_seat, status_lines
from courier.commands.syntax import Command, until_time
from courier.config.game import BOT_DOMAIN, GameConfig, Player
from courier.state.control import control, kicked, round_key, seat_label, with_seats
from courier.state.history import forget_undone
from courier.state.newcomers import participants, players_of
from engine.core import Amendable, Outcome, Ranked, Ruleset, fold


def pause(step: Step, command: Command) -> str:
    step.running()
    if control(step.tick.journal, step.row.id).get("paused"):
        raise Refused("the game is paused already")
    step.save(deadline=None)
    step.control(paused=True)
    cancelled = _cancel_process(step)
    step.tell_all(
        "The organiser has paused the game: no deadline passes and no reminder goes until it resumes."
        " Orders you send meanwhile still count."
    )
    step.history("Paused by the organiser")
    return f"done. No deadline passes until you `resume`.{cancelled}"


def resume(step: Step, command: Command) -> str:
    step.running()
    if not control(step.tick.journal, step.row.id).get("paused"):
        raise Refused("the game is not paused")
    deadline = _until(step, command) or step.loaded.config.schedule.next_deadline(step.tick.now, _kind(step))
    step.save(deadline=deadline)
    step.control(paused=False)
    cancelled = _cancel_process(step)
    step.tell_all(f"The game resumes. The deadline for {step.phase_label()} is {step.when(deadline)}.")
    step.history(f"Resumed; deadline {step.when(deadline)}")
    return f"done. The deadline is {step.when(deadline)}.{cancelled}"


def extend(step: Step, command: Command) -> str:
    step.running()
    current = step.row.deadline
    if current is None:
        raise Refused("the game is paused; `resume until …` sets its deadline")
    deadline = _until(step, command)
    if deadline is None:
        assert command.duration is not None
        deadline = current + command.duration
    if deadline <= current:
        raise Refused(f"the deadline is {step.when(current)} already; extend moves it later")
    step.save(deadline=deadline)
    cancelled = _cancel_process(step)
    step.tell_all(f"The organiser moved the deadline for {step.phase_label()} to {step.when(deadline)}.")
    step.history(f"Deadline extended to {step.when(deadline)}")
    return f"done. The deadline is {step.when(deadline)}.{cancelled}"


def process(step: Step, command: Command) -> str:
    step.running()
    if control(step.tick.journal, step.row.id).get("paused"):
        raise Refused("the game is paused; `resume` it first")
    step.control(process=step.row.phase_key)
    step.history(f"{step.phase_label()} resolved early at the organiser's word")
    return f"done. {step.phase_label()} is resolved at this tick."


def _cancel_process(step: Step) -> str:
    """The later word wins: a `pause`, `resume` or `extend` after `process now` cancels it, so the
    round resolves at the deadline the players are told (or, paused, at none). A `process now`
    given after them resolves the round at the next tick, as asked."""
    if control(step.tick.journal, step.row.id).get("process") != step.row.phase_key:
        return ""
    step.control(process=None)
    then = "its deadline" if step.row.deadline else "the deadline `resume` gives it"
    return f" The `process now` given earlier is cancelled: the round resolves at {then}."


def rollback(step: Step, command: Command) -> str:
    rounds = step.tick.journal.rounds(step.row.id)
    keys = [r["phase_key"] for r in rounds]
    wanted = command.round
    if wanted.isdigit() and 1 <= int(wanted) <= len(rounds):
        index = int(wanted) - 1
    elif wanted.casefold() in (k.casefold() for k in keys):
        index = [k.casefold() for k in keys].index(wanted.casefold())
    else:
        done = f"rounds 1 to {len(rounds)} ({', '.join(keys)})" if rounds else "none yet"
        raise Refused(f"round {wanted} has not been resolved; resolved so far: {done}")
    record = rounds[index]
    journal, game = step.tick.journal, step.row.id
    later = [*keys[index + 1 :], *([step.row.phase_key] if step.row.phase_key not in keys else [])]
    undone_joins = {a.player for k in later for a in journal.acts(game, k) if a.kind == "join"}
    if undone_joins:  # a newcomer who joined in an undone phase joins again at the next tick
        joined = [p for p in step.row.setup.get("joined", []) if p not in undone_joins]
        step.db.set_setup(game, {**step.row.setup, "joined": joined})
        step.row = dataclasses.replace(step.row, setup={**step.row.setup, "joined": joined})
    step.db.void_submissions(game, later)
    step.db.undo_rounds(game, keys[index:], at=step.tick.now)
    forget_undone(step.tick, step.db, game, kept=index)  # History no longer lists what was undone
    ruleset = step.loaded.config.ruleset
    state = ruleset.from_json(record["state_before"])
    paused = control(journal, game).get("paused")
    kind = ruleset.phase(state).kind
    deadline = None if paused else step.loaded.config.schedule.next_deadline(step.tick.now, kind)
    step.save(
        state=record["state_before"],
        phase_key=record["phase_key"],
        opened_at=step.tick.now,
        deadline=deadline,
        finished=False,
    )
    step.control(epoch=control(journal, game).get("epoch", 0) + 1, process=None)
    label = step.phase_label()
    told = f" You may change them until {step.when(deadline)}." if deadline else ""
    step.tell_all(
        f"The organiser rolled the game back to before {label} was resolved. The orders that stood"
        f" for {label} then stand again; what happened since is undone.{told}"
    )
    step.history(f"Rolled back to before {label} was resolved")
    return f"done. {label} is open again" + (f" until {step.when(deadline)}." if deadline else " (paused).")


def replace(step: Step, command: Command) -> str:
    checks.replace(probe_of_step(step), command)  # what the CLI checked at once holds still
    seat = step.seat(command.name)
    config = step.loaded.config
    _name_is_free(step, seat, command.new_name)
    old = next(p for p in config.players if p.name == seat)
    seats = {**step.row.setup.get("seats", {}), seat: {"email": command.email, "name": command.new_name}}
    back = sorted(kicked(step.row) - {seat})  # a seat left empty is filled again
    setup = {**step.row.setup, "seats": seats, "kicked": back}
    step.db.set_setup(step.row.id, setup)
    step.row = dataclasses.replace(step.row, setup=setup)
    step.loaded.config = new_config = with_seats(config, step.row)
    _names_in_orders(step, new_config)
    _holders(step, new_config)
    label = seat_label(step.row, seat)
    goodbye = f"Your seat {seat} has been handed to a substitute; you will get no more mail from this game."
    _farewell(step, config, old, "You have been replaced", goodbye)
    _welcome_substitute(step, new_config, seat)
    # Not the seat's label, which would name the seat twice ("Tur's seat … by Tom (for Tur)").
    who = f"{command.new_name}, a substitute" if command.new_name else "a substitute"
    step.tell_all(f"{seat}'s seat is now played by {who}.", besides=seat)  # his welcome tells him
    step.history(f"Substitute: {label} takes over {seat}'s seat", label=step.phase_label())
    return f"done. {label} plays {seat} from now on; the old address no longer counts."


def _names_in_orders(step: Step, config: GameConfig) -> None:
    """Orders name the seat by the substitute's own name too, where the game reads nicknames in
    orders (an amendable ``nicknames`` option): journalled as an amendment, so `replay` makes it."""
    ruleset = config.ruleset
    if not isinstance(ruleset, Amendable) or "nicknames" not in ruleset.amendable_options:
        return
    seated = players_of(step.row.setup)
    value = {p.name: list(p.nicknames) for p in config.players if p.nicknames and p.name in seated}
    _amend(step, config, "nicknames", value)


def _holders(step: Step, config: GameConfig) -> None:
    """Events name a seat by its holder's label ("Cyrus (for Cy Land)", ``seat_label``), where the
    game keeps such names in its state (an amendable ``holders`` option: Talossa's plan lines)."""
    ruleset = config.ruleset
    if not isinstance(ruleset, Amendable) or "holders" not in ruleset.amendable_options:
        return
    labels = {seat: seat_label(step.row, seat) for seat in players_of(step.row.setup)}
    _amend(step, config, "holders", {seat: label for seat, label in labels.items() if label != seat})


def _amend(step: Step, config: GameConfig, option: str, value: Any) -> None:
    """An option of the running game changed by a command, journalled as an amendment so `replay`
    makes it too."""
    ruleset = config.ruleset
    assert isinstance(ruleset, Amendable)
    state = ruleset.amend(ruleset.from_json(step.row.state), option, value)
    step.db.add_submission(
        game=step.row.id,
        phase_key=step.row.phase_key,
        player="organiser",
        input_id=0,
        received_at=step.tick.now,
        text=json.dumps({"option": option, "value": value}),
        parsed={},
        standing={},
        kind="amend",
    )
    step.save(state=ruleset.to_json(state))


def _name_is_free(step: Step, seat: str, name: str) -> None:
    """A substitute's own name must not be another seat's name, nickname or substitute's name: two
    seats answering to one name would make the Players tab Courier writes read as a mistake."""
    wanted = name.strip().casefold()
    for player in (*step.loaded.config.players, *participants(step.loaded.config, step.row)):
        names = {player.name, *player.nicknames, seat_label(step.row, player.name)}
        if player.name != seat and wanted in {n.casefold() for n in names}:
            raise Refused(
                f"{name} is the name of another seat ({player.name}); give the substitute another name"
            )


def _farewell(step: Step, config: GameConfig, old: Player, topic: str, text: str) -> None:
    """The last mail to an address that no longer plays its seat."""
    message = step.tick.mailer.answer(
        config, to=old.email, name=old.greeted, topic=topic, lines=[text], key=f"{step.key}/old"
    )
    step.tick.queue(step.db, key=f"{step.key}/old", message=message, game=step.row.id, kind="answer")


def _welcome_substitute(step: Step, config: GameConfig, seat: str) -> None:

    player = next(p for p in config.players if p.name == seat)
    state = config.ruleset.from_json(step.row.state)
    key = f"{step.key}/welcome"
    welcome = step.tick.mailer.welcome(
        config, player, state, step.row, step.row.seed, key=key, took_over=seat
    )
    step.tick.queue(step.db, key=key, message=welcome, game=step.row.id, kind="welcome")
    lines, block = status_lines(step.tick, config, step.row, player)
    lines = [f"You take over the seat of {seat}, with its history. Where it stands:", *lines]
    status = step.tick.mailer.answer(
        config,
        to=player.email,
        name=player.greeted,
        topic="Your position",
        lines=lines,
        block=block,
        key=f"{key}/status",
    )
    step.tick.queue(step.db, key=f"{key}/status", message=status, game=step.row.id, kind="answer")


def bot(step: Step, command: Command) -> str:
    """The game's bot takes the seat, as `Email` = `bot` in the Players tab would: the player's mail
    stops counting and they get no more mail; the bot plays it from the next deadline."""
    checks.bot(probe_of_step(step), command)
    seat = step.seat(command.name)
    config = step.loaded.config
    old = next(p for p in config.players if p.name == seat)
    address = f"{re.sub(r'[^a-z0-9]+', '-', fold(seat)).strip('-') or 'seat'}@{BOT_DOMAIN}"
    seats = {**step.row.setup.get("seats", {}), seat: {"email": address, "name": ""}}
    setup = {**step.row.setup, "seats": seats, "kicked": sorted(kicked(step.row) - {seat})}
    step.db.set_setup(step.row.id, setup)
    step.row = dataclasses.replace(step.row, setup=setup)
    step.loaded.config = with_seats(config, step.row)
    goodbye = f"The organiser has given your seat {seat} to the game's bot; this game will mail you no more."
    _farewell(step, config, old, "The bot plays your seat", goodbye)
    step.tell_all(f"{seat}'s seat is now played by the game's bot.")
    step.history(f"The bot plays {seat}'s seat")
    return f"done. The bot plays {seat} from the next deadline; the old address no longer counts."


def change_address(step: Step, command: Command) -> str:
    checks.change(probe_of_step(step), command)
    seat = step.seat(command.name)
    move_seat(step, seat, command.email)
    return f"done. {seat} plays from {command.email} from now on; the old address no longer counts."


def kick(step: Step, command: Command) -> str:
    checks.kick(probe_of_step(step), command)
    seat = step.seat(command.name)
    leave_seat(step, seat, by="the organiser")
    return f"done. {seat}'s seat plays the game's default for absent players from now on."


def end(step: Step, command: Command) -> str:
    """One mail to each player with the standings as they are (the game's own, ``final_standings``),
    no results (no round was resolved) and no order form; the game is over from now on."""
    step.running()
    config = step.loaded.config
    ruleset = config.ruleset
    state = ruleset.from_json(step.row.state)
    outcome = final_standings(ruleset, state)
    prefix = round_key(step.tick.journal, step.row)
    step.save(deadline=None, finished=True)
    for player in participants(config, step.row):
        key = f"{prefix}/ended/{player.name}"
        message = step.tick.mailer.ended(config, player, row=step.row, state=state, outcome=outcome, key=key)
        step.tick.queue(step.db, key=key, message=message, game=step.row.id, kind="game_over")
    step.history("Game ended by the organiser")
    leaders = ", ".join(outcome.winners) or "nobody"
    return f"done. Everybody has the final standings; first: {leaders}."


def final_standings(ruleset: Ruleset, state: Any) -> Outcome:
    """The game's outcome if it has one; else its standings as it stands (``Ranked``); else, for a
    game without them, the Ledger's order with nobody named winner."""
    outcome = ruleset.outcome(state)
    if outcome is not None:
        return outcome
    if isinstance(ruleset, Ranked):
        return ruleset.standings(state)
    ranking = tuple((str(r["Player"]),) for r in ruleset.ledger(state) if r.get("Player"))
    return Outcome(ranking, (), "the game has no standings of its own: in the Ledger's order")


def message(step: Step, command: Command) -> str:
    step.running()
    step.tell_all(f"A message from the organiser:\n\n{command.text}")
    step.history("The organiser wrote to every player")
    return "done. Every player has your message."


def _until(step: Step, command: Command) -> datetime | None:
    if not command.until:
        return None
    when = until_time(command.until, step.loaded.config.schedule.timezone)
    if when <= step.tick.now:
        raise Refused(f"{command.until} has passed already")
    return when


def _kind(step: Step) -> str:
    ruleset = step.loaded.config.ruleset
    return ruleset.phase(ruleset.from_json(step.row.state)).kind
