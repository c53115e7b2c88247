"""Players who appear in the Players tab after their game began. A game that takes newcomers
(an optional ``join(state, player, role, rng)``, e.g. Talossan RISK: "joins are accepted until the
last free land is conquered") lets them in; the join is journalled like a message so replay applies it
at the same point. Other games keep them out with a clear answer when they write."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import timedelta
from typing import Any

from courier.config.game import GameConfig, Player
from courier.journal.interface import GameRow
from courier.state.context import LoadedGame, Tick
from courier.state.history import add_history_lines, history_lines
from courier.state.news import hold, news_every
from engine.core import Joinable, rng_for

log = logging.getLogger(__name__)


def players_of(row_setup: dict[str, Any]) -> set[str]:
    """Everyone in the game: those dealt in at the start and those who joined since."""
    return set(row_setup["players"]) | set(row_setup.get("joined", []))


def participants(config: GameConfig, row: GameRow) -> list[Player]:
    """The Players rows that are in the game (a row added later may not be, a seat that left is not):
    who gets its mail."""
    playing = players_of(row.setup) - set(row.setup.get("kicked", []))
    return [p for p in config.players if p.name in playing]


def admit_newcomers(tick: Tick, loaded: LoadedGame) -> None:
    config = loaded.config
    ruleset = config.ruleset
    view = tick.view(config.id)
    if not isinstance(ruleset, Joinable) or view is None or view.row.finished:
        return
    row = view.row
    for player in config.players:
        if player.name in players_of(row.setup):
            continue
        state = config.ruleset.from_json(row.state)
        try:
            state, events = ruleset.join(
                state, player.name, player.role, rng_for(row.seed, row.phase_key, "join", player.name)
            )
        except ValueError as e:  # e.g. no free land left: the organiser decides what to do
            tick.tell_organiser(
                config.id, loaded.organiser, f"game {config.id}: {player.name} cannot join: {e}"
            )
            continue
        setup = {**row.setup, "joined": [*row.setup.get("joined", []), player.name]}
        with tick.journal.transaction() as db:
            db.add_submission(
                game=row.id,
                phase_key=row.phase_key,
                player=player.name,
                input_id=0,
                received_at=tick.now,
                text=player.role,
                parsed={},
                standing={},
                kind="join",
            )
            db.set_state(row.id, config.ruleset.to_json(state))
            label = ruleset.phase(ruleset.from_json(row.state)).label  # the round they joined in
            add_history_lines(tick, db, row.id, label, history_lines(tick, ruleset, events))
            db.set_setup(row.id, setup)
            welcome = tick.mailer.welcome(config, player, state, replace(row, setup=setup), row.seed)
            tick.queue(
                db, key=f"{row.id}/welcome/{player.name}", message=welcome, game=row.id, kind="welcome"
            )
            for recipient in participants(config, replace(row, setup=setup)):
                if news_every(config) > timedelta(0):  # waits for a mail going anyway (news.py)
                    lines = [] if recipient.bot else tick.mailer.news_lines(config, events, recipient.name)
                    hold(
                        db,
                        tick.journal,
                        game=row.id,
                        to=recipient.email,
                        name=recipient.name,
                        lines=lines,
                        now=tick.now,
                    )
                    continue
                key = f"{row.id}/join/{player.name}/{recipient.name}"
                notice = tick.mailer.notice(config, recipient, row=row, events=events, key=key, state=state)
                if notice is not None:
                    tick.queue(db, key=key, message=notice, game=row.id, kind="notice")
        log.info("%s: %s joined in %s", row.id, player.name, row.phase_key)
        tick.forget(config.id)
        view = tick.view(config.id)
        assert view is not None
        row = view.row
