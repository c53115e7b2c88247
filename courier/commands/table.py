"""Every command, organiser's and player's, as one spec in one table (``COMMANDS``). Adding a
command is one entry here, its reader in ``syntax.py`` and its apply function in ``organiser.py``
or ``players.py``; from the table come the mail reader (``first_verb``, ``parse_commands``), the
``help`` answers, the verb lists the tick routes mail by, and the CLI's organiser commands
(``courier.tools.cli`` builds its subcommands and their journalled line from ``CommandSpec.cli``).

A mail is a command mail when its first line starts with a command word (after a greeting or a
"please"); a line that reads as no command makes the whole mail a mistake, answered with what was
wrong, and nothing changes. A ``guarded`` command (it changes who holds a seat, or ends the game)
needs more than a From line when given by mail: ``confirm.py`` says how."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from email.utils import parseaddr
from typing import Any, Literal

from courier.commands import checks, confirm, organiser, players
from courier.commands.players import Asked
from courier.commands.step import Refused, Step
from courier.commands.syntax import (
    Command,
    CommandError,
    Reader,
    command_word,
    read_away,
    read_bare,
    read_bot,
    read_change,
    read_confirm,
    read_extend,
    read_kick,
    read_message,
    read_press,
    read_replace,
    read_resign,
    read_resume,
    read_rollback,
)
from engine.core import fold
from engine.reading import GREETINGS

Who = Literal["organiser", "player"]
ORGANISER: Who = "organiser"
PLAYER: Who = "player"

OrganiserApply = Callable[[Step, Command], str]
PlayerApply = Callable[[Asked, Command], str]


@dataclass(frozen=True)
class CliArgument:
    """One argument of an organiser's command on the CLI, after the game's id (argparse's terms)."""

    name: str  # "player" (positional) or "--until" (an option)
    help: str
    dest: str = ""  # where an option's value goes when not under its own name: --as → new_name
    optional: bool = False  # a positional that may be left out
    required: bool = False  # an option that must be given


@dataclass(frozen=True)
class Cli:
    """An organiser's command on the CLI: ``courier VERB GAME ARGUMENTS…``, journalled as the line
    the organiser could have mailed (``courier extend g1 24h`` → "extend 24h")."""

    arguments: tuple[CliArgument, ...]
    line: Callable[[Mapping[str, Any]], str]  # the parsed arguments → that line


@dataclass(frozen=True)
class CommandSpec:
    """One command: whose it is, how its line reads, how it applies, how it is explained."""

    verb: str
    who: Who  # whose list it is in (and whose `help` shows it)
    read: Reader
    syntax: str  # the line `help` shows
    help: str  # what it does, in one line (the CLI's help for the organiser's)
    organiser: OrganiserApply | None = None  # how it applies when the organiser gives it
    player: PlayerApply | None = None  # how it applies when a player gives it
    cli: Cli | None = None  # the organiser's only
    rest_of_mail: bool = False  # its text goes on over the following lines (so it comes last)
    # An organiser's command a player may give too, of their own seat: the line a player's `help` shows.
    player_syntax: str = ""
    # What can be checked at once, before the tick applies it (``checks.py``): the CLI refuses then.
    check: checks.Check | None = None
    # It changes who holds a seat or ends the game: by mail it waits for a confirmation code mailed
    # to the registered address (the organiser's skips it with a trusted pass or organiser_secret).
    guarded: bool = False
    # It only reads (`status`, `help`, `rules`): answered after the game ends too, when orders and
    # seat changes get "The game is over".
    after_end: bool = False


def _organiser_help(step: Step, command: Command) -> str:
    return organiser_commands()


def organiser_commands() -> str:
    """The organiser's commands as `help` lists them, in one line."""
    return "the organiser's commands, one a line: " + "; ".join(syntax_lines(ORGANISER)) + "."


def _player_help(asked: Asked, command: Command) -> str:
    row = asked.step.row
    ruleset = asked.config.ruleset
    asked.more.extend(
        [
            "Orders: one a line, in the form below (it is filled in from your own position).",
            "Commands, each on a line of its own at the top of a mail:",
            *(f"  {_named(line, asked)}" for line in syntax_lines(PLAYER)),
        ]
    )
    if not row.finished:
        asked.block = ruleset.order_template(ruleset.from_json(row.state), asked.player.name)
    return "how to play by mail"


def _named(line: str, asked: Asked) -> str:
    """A syntax line with its NAMEs replaced by the other players at this table, in seating order,
    so an example never names someone of another game (Truce's Barney in Diplomacy)."""
    others = [p.name for p in asked.config.players if p.name != asked.player.name]
    one, two = [*others, "NAME", "NAME"][:2]
    return line.replace("NAME, NAME", f"{one}, {two}").replace("NAME", one)


def _player_rules(asked: Asked, command: Command) -> str:
    """The game's whole rules for its players (``templates/<game>/rules.txt.j2``)."""
    ruleset = asked.config.ruleset
    text = asked.step.tick.mailer.rules(ruleset.name)
    asked.more.extend(text.splitlines() or [f"{ruleset.title} has no rules text here: ask the organiser."])
    return f"the rules of {ruleset.title}"


def _organiser_confirm(step: Step, command: Command) -> str:
    address = parseaddr(step.loaded.organiser)[1]
    text = confirm.take(step, command.text, who=ORGANISER, address=address)
    return "confirmed. " + " ".join(apply_organiser(step, c) for c in read_commands(text).commands)


def _player_confirm(asked: Asked, command: Command) -> str:
    text = confirm.take(asked.step, command.text, who=asked.player.name, address=asked.player.email)
    return "confirmed. " + " ".join(apply_player(asked, c) for c in read_commands(text).commands)


def _until(values: Mapping[str, Any]) -> str:
    return f" until {values['until']}" if values.get("until") else ""


def _extend_line(values: Mapping[str, Any]) -> str:
    if values.get("until"):
        return f"extend{_until(values)}"
    return f"extend {values.get('duration') or ''}".strip()


def _replace_line(values: Mapping[str, Any]) -> str:
    new_name = f" as {values['new_name']}" if values.get("new_name") else ""
    return f"replace {values['player']} with {values['address']}{new_name}"


_UNTIL = CliArgument("--until", "a time in the game's zone: '2026-12-28 20:00'")
_PLAYER = CliArgument("player", "the player's name")

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "pause",
        ORGANISER,
        read_bare("pause", "game"),
        check=checks.not_paused,
        syntax="pause",
        help="pause a game: no deadline passes, no reminder goes",
        organiser=organiser.pause,
        cli=Cli((), lambda values: "pause"),
    ),
    CommandSpec(
        "resume",
        ORGANISER,
        read_resume,
        check=checks.paused,
        syntax="resume  (or: resume until 2026-12-28 20:00)",
        help="resume a paused game with a fresh deadline (or --until WHEN)",
        organiser=organiser.resume,
        cli=Cli((_UNTIL,), lambda values: f"resume{_until(values)}"),
    ),
    CommandSpec(
        "extend",
        ORGANISER,
        read_extend,
        check=checks.not_paused,
        syntax="extend 24h  (or: extend until 2026-12-28 20:00)",
        help="move the current deadline: by a duration (24h) or --until WHEN",
        organiser=organiser.extend,
        cli=Cli((CliArgument("duration", "e.g. 24h, 2d, 1d 12h", optional=True), _UNTIL), _extend_line),
    ),
    CommandSpec(
        "process",
        ORGANISER,
        read_bare("process", "now", "the round now"),
        check=checks.not_paused,
        syntax="process now",
        help="resolve the current round at the next tick, before its deadline",
        organiser=organiser.process,
        cli=Cli((), lambda values: "process now"),
    ),
    CommandSpec(
        "rollback",
        ORGANISER,
        read_rollback,
        check=checks.rollback,
        syntax="rollback to round 3  (or a phase, e.g. rollback to S1902M)",
        help="restore the game as it was before round N was resolved (--to N)",
        organiser=organiser.rollback,
        cli=Cli(
            (CliArgument("--to", "a round number or a phase key", dest="round", required=True),),
            lambda values: f"rollback to round {values['round']}",
        ),
    ),
    CommandSpec(
        "replace",
        ORGANISER,
        read_replace,
        check=checks.replace,
        syntax="replace Darcy with emmett@example.org  (or: … as Emmett)",
        help="hand a player's seat to a substitute: PLAYER ADDRESS [--as NAME]",
        organiser=organiser.replace,
        guarded=True,
        cli=Cli(
            (
                _PLAYER,
                CliArgument("address", "the substitute's mail address"),
                CliArgument("--as", "the substitute's own name", dest="new_name"),
            ),
            _replace_line,
        ),
    ),
    CommandSpec(
        "change",
        ORGANISER,
        read_change,
        check=checks.change,
        syntax="change address of Darcy to darcy@new.example.org",
        player_syntax="change address to your.new@example.org  (then: confirm CODE, with the code we mail"
        " to your old address)",
        help="a player's new mail address: the same player goes on in the seat; nobody else is told",
        organiser=organiser.change_address,
        player=players.change_address,
        guarded=True,
        cli=Cli(
            (_PLAYER, CliArgument("address", "the player's new mail address")),
            lambda values: f"change address of {values['player']} to {values['address']}",
        ),
    ),
    CommandSpec(
        "kick",
        ORGANISER,
        read_kick,
        check=checks.kick,
        syntax="kick Darcy",
        help="take a player out: the seat plays the game's default for absent players",
        organiser=organiser.kick,
        guarded=True,
        cli=Cli((_PLAYER,), lambda values: f"kick {values['player']}"),
    ),
    CommandSpec(
        "bot",
        ORGANISER,
        read_bot,
        check=checks.bot,
        syntax="bot Darcy  (the game's bot plays the seat from the next deadline)",
        help="give a player's seat to the game's bot (it plays from the next deadline)",
        organiser=organiser.bot,
        guarded=True,
        cli=Cli((_PLAYER,), lambda values: f"bot {values['player']}"),
    ),
    CommandSpec(
        "end",
        ORGANISER,
        read_bare("end", "game", "the game"),
        check=checks.running,
        syntax="end game",
        help="end the game now: a final report to all with the ranking so far",
        organiser=organiser.end,
        guarded=True,
        cli=Cli((), lambda values: "end game"),
    ),
    CommandSpec(
        "message",
        ORGANISER,
        read_message,
        check=checks.running,
        syntax="message all: the text, which may go on over the following lines",
        help="send a notice from the organiser to every player",
        organiser=organiser.message,
        rest_of_mail=True,
        cli=Cli(
            (CliArgument("text", "the notice, in quotes"),), lambda values: f"message all: {values['text']}"
        ),
    ),
    CommandSpec(
        "status",
        PLAYER,
        read_bare("status"),
        syntax="status",
        help="where you stand: the phase, the deadline, your orders so far",
        player=players.status,
        after_end=True,
    ),
    CommandSpec(
        "help",
        PLAYER,
        read_bare("help"),
        syntax="help",
        help="how to play by mail: the order form from your own position, and these commands",
        player=_player_help,
        organiser=_organiser_help,  # the organiser's commands, to the organiser
        after_end=True,
    ),
    CommandSpec(
        "rules",
        PLAYER,
        read_bare("rules"),
        syntax="rules",
        help="the whole rules of this game as Courier plays them (every welcome carries a summary)",
        player=_player_rules,
        after_end=True,
    ),
    CommandSpec(
        "resign",
        PLAYER,
        read_resign,
        syntax="resign  (then: confirm CODE, with the code our answer gives)",
        help="leave the game (once confirmed): the seat plays the game's default from then on",
        player=players.resign,
        guarded=True,
    ),
    CommandSpec(
        "confirm",
        PLAYER,
        read_confirm,
        syntax="confirm K7P2QX  (the code mailed to you when a command needs confirming)",
        help="do what waits for this code: a command that changes who holds a seat or ends the game",
        player=_player_confirm,
        organiser=_organiser_confirm,  # the organiser's guarded commands wait for a code too
    ),
    CommandSpec(
        "away",
        PLAYER,
        read_away,
        syntax="away until 2026-12-01",
        help="away until a date: the seat plays the default meanwhile, or the deadline waits",
        player=players.away,
    ),
    CommandSpec(
        "press",
        PLAYER,
        read_press,
        syntax="press to NAME: …   press to NAME, NAME: …   press to all: …",  # `help`: the table's names
        help="a message to other players, relayed by the arbiter as the game's press setting allows",
        player=players.press,
        rest_of_mail=True,
    ),
)
_BY_VERB = {spec.verb: spec for spec in COMMANDS}


def verbs(who: Who) -> tuple[str, ...]:
    """The organiser's verbs that only the organiser gives; every verb a player may give."""
    if who == ORGANISER:
        return tuple(spec.verb for spec in COMMANDS if spec.who == who and spec.player is None)
    return tuple(spec.verb for spec in COMMANDS if spec.who == who or spec.player_syntax)


def syntax_lines(who: Who) -> tuple[str, ...]:
    """What `help` shows of this kind of command, one line each."""
    if who == ORGANISER:
        return tuple(spec.syntax for spec in COMMANDS if spec.who == who)
    return tuple(
        spec.syntax if spec.who == who else spec.player_syntax for spec in COMMANDS if spec.verb in verbs(who)
    )


def find_command(verb: str) -> CommandSpec | None:
    return _BY_VERB.get(verb)


def guarded(commands: list[Command]) -> list[Command]:
    """The commands of a mail that need more than its From line."""
    return [c for c in commands if _BY_VERB[c.verb].guarded]


def apply_organiser(step: Step, command: Command) -> str:
    """One command as the organiser gave it: its answer line (a refusal changes nothing)."""
    apply = _BY_VERB[command.verb].organiser
    if apply is None:
        return _answered(command, Refused(f"`{command.verb}` is a player's command, not the organiser's"))
    return _answered(command, lambda: apply(step, command))


def apply_player(asked: Asked, command: Command) -> str:
    """One command as a player gave it: its answer line (a refusal changes nothing)."""
    apply = _BY_VERB[command.verb].player
    if apply is None:
        return _answered(command, Refused(f"`{command.verb}` is the organiser's command"))
    return _answered(command, lambda: apply(asked, command))


def _answered(command: Command, apply: Callable[[], str] | Refused) -> str:
    echo = _echo(command)
    try:
        if isinstance(apply, Refused):
            raise apply
        return f"{echo}: {apply()}"
    except Refused as e:
        return f"{echo}: refused, {e}. Nothing changed."


def _echo(command: Command) -> str:
    """The command as the answer repeats it: a command whose text is the rest of the mail (press)
    is echoed without its text, which follows a colon ("press to Germany", not "press to Germany:
    Let's be friends.: sent to Gerd.")."""
    spec = _BY_VERB.get(command.verb)
    if spec is not None and spec.rest_of_mail:
        return command.line.split(":", 1)[0].strip()
    return command.line


ORGANISER_VERBS = verbs(ORGANISER)
PLAYER_VERBS = verbs(PLAYER)


# "Hi Courier, pause…", "Please pause the game", "Could you kick Darcy, please?": the command is
# read from the words after a greeting (engine.reading's GREETINGS, as players' orders are) and
# without the politeness around it.
_GREETING = re.compile(r"^\s*([^\W\d_]+)\b[^,:;.!?\n]*[,:;.!?]+\s*")
_PLEASE = re.compile(r"^(?:please|pls|kindly|(?:could|can|would|will)\s+you(?:\s+please)?)\b[\s,]*", re.I)
_THANKS = re.compile(r"[\s,]*\b(?:please|pls|thanks|thank\s+you)\b[\s.!?…]*$", re.I)
_CLOSE = 0.8  # how near a word must be to a command word to be read as a misspelling of it (as orders)


def plain_line(line: str) -> str:
    """A line without the greeting before its command and the courtesy around it; "" for a line
    that is only a greeting or a closing ("Hi Courier,", "Thanks!", "Best wishes")."""
    line = line.strip()
    greeting = _GREETING.match(line)
    if greeting and fold(greeting.group(1)) in GREETINGS:
        line = line[greeting.end() :]
    elif line.split() and fold(line.split()[0].strip(",.!")) in GREETINGS:
        return ""  # a greeting without punctuation ("Thanks", "Hi Courier") holds no command
    return _THANKS.sub("", _PLEASE.sub("", line)).strip()


def first_verb(text: str) -> str | None:
    """The command word a mail starts with, if it starts with one (any case), after a greeting."""
    for line in text.splitlines():
        if plain := plain_line(line):
            word = command_word(plain)[0]
            return word if word in _BY_VERB else None
    return None


def answered_after_end(text: str) -> bool:
    """Whether a mail holds commands that only read (`status`, `rules`, `help`) and nothing else a
    finished game would refuse: such a mail is answered after the end."""
    reading = read_commands(text)
    return (
        first_verb(text) is not None
        and bool(reading.commands)
        and not reading.problems
        and all(_BY_VERB[c.verb].after_end for c in reading.commands)
    )


@dataclass(frozen=True)
class Reading:
    """A mail read as commands, as forgivingly as orders are read (engine.reading): a line that starts
    with a command word (or a near misspelling of one) is a command, and one that does not read is a
    problem of that line alone; any other line (a question, an apology, a signature) is no command
    attempt and is skipped."""

    commands: list[Command]
    problems: list[str]  # each command line that does not read: what was wrong with it
    skipped: list[str]  # the lines that are no command, as written

    def no_command(self) -> str:
        """Why a mail with no command in it does nothing."""
        if self.problems:
            return self.problems[0]
        known = ", ".join(ORGANISER_VERBS + PLAYER_VERBS)
        said = f"“{self.skipped[0]}” is no command; " if self.skipped else "your mail holds no command; "
        return f"{said}the commands are {known} (write `help` for more)"


def read_commands(text: str) -> Reading:
    """Every command of a mail, in order, with what could not be read. ``message all:`` and
    ``press to …:`` take the rest of the mail as their text. A greeting before the commands is
    skipped; a closing after them ends the mail (a signature follows)."""
    lines = text.splitlines()
    commands: list[Command] = []
    problems: list[str] = []
    skipped: list[str] = []
    for number, raw in enumerate(lines):
        line = plain_line(raw)
        if not line:
            if (commands or problems) and raw.strip():
                break  # "Thanks, / Jo" after the commands: the rest is a signature
            continue
        try:
            command = _parse_line(line)
        except CommandError as e:
            problems.append(str(e))
            continue
        if command is None:
            skipped.append(raw.strip())
            continue
        if _BY_VERB[command.verb].rest_of_mail:
            rest = "\n".join(lines[number + 1 :]).strip()
            text_all = "\n".join(t for t in (command.text, rest) if t)
            if not text_all:
                problems.append(f"“{line}”: nothing to send; write the text after the colon")
                break
            commands.append(Command(**{**command.__dict__, "text": text_all}))
            break
        commands.append(command)
    return Reading(commands, problems, skipped)


def parse_commands(text: str) -> list[Command]:
    """Every command of a mail, strictly: raises CommandError on the first command line that does not
    read, or when the mail holds no command (lines that are no command attempt are skipped)."""
    reading = read_commands(text)
    if reading.problems or not reading.commands:
        raise CommandError(reading.no_command())
    return reading.commands


def _parse_line(line: str) -> Command | None:
    """The command a line gives; None for a line that is no command attempt."""
    verb, rest = command_word(line)
    spec = _BY_VERB.get(verb)
    if spec is None:
        near = difflib.get_close_matches(verb, list(_BY_VERB), 1, _CLOSE) if len(verb) > 3 else []
        if near:
            raise CommandError(f"“{line}” is no command; did you mean `{near[0]}`?")
        return None
    return spec.read(line, rest)
