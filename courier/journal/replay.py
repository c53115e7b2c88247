"""``courier replay``: re-run a game from its journal and check every round reproduces exactly.

Replay starts from the recorded setup and secret seed, re-parses every message's text at the state
it met, re-applies what took effect on receipt, re-computes the defaults and resolves again. Any
difference means the engine is not a pure function of the journal, which is a bug.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from courier.errors import UnknownGame
from courier.journal.interface import GameRow, Journal
from courier.silent_seats import played_by_bot, silent_seat
from engine import find_ruleset
from engine.core import Submission, event_to_json, rng_for, settle_silent


@dataclass(frozen=True)
class Mismatch:
    phase_key: str
    what: str


def replay_game(journal: Journal, game_id: str) -> tuple[int, list[Mismatch]]:
    """Returns the number of rounds checked and every mismatch found."""
    row = journal.game(game_id)
    if row is None:
        raise UnknownGame(f"no game {game_id!r} in the journal")
    ruleset = find_ruleset(row.ruleset)
    names, options = row.setup["players"], row.setup["options"]
    state = ruleset.setup(names, options, rng_for(row.seed, "setup"))
    problems: list[Mismatch] = []
    rounds = journal.rounds(game_id)
    for record in rounds:
        key = record["phase_key"]
        state = _receive(ruleset, state, row, key, journal, problems)
        _same(problems, key, "state before resolution", ruleset.to_json(state), record["state_before"])
        submissions = {p: Submission.from_json(s) for p, s in record["submissions"].items()}
        state = _silent_seats(ruleset, state, row, key, submissions, journal, problems)
        resolution = ruleset.resolve(state, submissions, rng_for(row.seed, key, "resolve"))
        _same(problems, key, "events", [event_to_json(e) for e in resolution.events], record["events"])
        _same(problems, key, "state after", ruleset.to_json(resolution.state), record["state_after"])
        state = ruleset.from_json(record["state_after"])
    _check_current(ruleset, state, row, journal, problems)
    return len(rounds), problems


def _receive(
    ruleset: Any, state: Any, row: GameRow, key: str, journal: Journal, problems: list[Mismatch]
) -> Any:
    """Re-apply a phase's acts as they were received: parse each message again (it must read the
    same) and apply what took effect on receipt; newcomers join where they joined, options change
    where the organiser changed them."""
    for act in journal.acts(row.id, key):
        if act.kind == "join":
            state, _ = ruleset.join(state, act.player, act.text, rng_for(row.seed, key, "join", act.player))
            continue
        if act.kind == "amend":  # the organiser changed an option mid-game (settings_changed.py)
            change = json.loads(act.text)
            state = ruleset.amend(state, change["option"], change["value"])
            continue
        again = ruleset.parse(state, act.player, act.text)
        _same(problems, key, f"parse of {act.player}'s message", again.to_json(), act.parsed)
        state, _ = ruleset.immediate(state, again)
    return state


def _silent_seats(
    ruleset: Any,
    state: Any,
    row: GameRow,
    key: str,
    submissions: dict[str, Submission],
    journal: Journal,
    problems: list[Mismatch],
) -> Any:
    """Make the silent seats' orders again, as the tick made them (in turn, where the game has them
    act on receipt), check each against the journal, and return the state resolution starts from."""
    wrote = journal.standing(row.id, key).keys()

    def again(state: Any, player: str) -> Submission:
        recorded = submissions.get(player)
        bot = recorded is not None and played_by_bot(recorded)
        return silent_seat(ruleset, state, player, seed=row.seed, phase_key=key, bot=bot)

    written = {p: s for p, s in submissions.items() if p in wrote}
    state, made = settle_silent(ruleset, state, written, again)
    for player in sorted(made.keys() | submissions.keys()):
        if player not in wrote:
            got = made[player].to_json() if player in made else None
            recorded = submissions[player].to_json() if player in submissions else None
            _same(problems, key, f"default for {player}", got, recorded)
    return state


def _check_current(
    ruleset: Any, state: Any, row: GameRow, journal: Journal, problems: list[Mismatch]
) -> None:
    """The open round: replaying its messages must give the state the journal holds now."""
    if row.finished:
        return
    state = _receive(ruleset, state, row, row.phase_key, journal, problems)
    _same(problems, row.phase_key, "current state", ruleset.to_json(state), row.state)


def _same(problems: list[Mismatch], key: str, what: str, got: Any, recorded: Any) -> None:
    if json.dumps(got, sort_keys=True) != json.dumps(recorded, sort_keys=True):
        problems.append(Mismatch(key, f"{what} differs from the journal"))
