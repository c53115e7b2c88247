"""News that waits (issue 29): a gift, an absence, a seat that left, a newcomer, and what the organiser
should hear (a resignation, a mail from an unknown address signed with a player's name, a forged mail
refused). Such news is no reason for a mail of its own: it waits in the journal (``NEWS``) for the
next mail that goes to that address anyway (a round's report, a receipt, a reminder, the organiser's
report of the round), or goes as one digest once the game's ``news_every`` (Config, default
``DEFAULT_EVERY``) has passed since the first line waited; ``news_every = 0`` sends it at the tick
that made it. A rule that needs a player told at once (a deadline moved) does not come here.

Crash rules: the lines are held in the transaction that makes them, and dropped in the transaction
that queues the mail carrying them, so a killed tick neither loses news nor tells it twice.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from courier.config.game import GameConfig
from courier.config.schedule import parse_duration
from courier.journal.interface import Journal, Transaction
from courier.journal.meta import NEWS, NewsHeld
from courier.state.context import LoadedGame, Tick
from courier.state.control import kicked

log = logging.getLogger(__name__)

DEFAULT_EVERY = "4h"
SHOWN = 30  # lines listed one by one; the rest are counted (a flood makes one short mail)
ORGANISER = ""  # the ``name`` of the organiser's news


def news_every(config: GameConfig) -> timedelta:
    """The game's ``news_every``: how long news may wait for a mail going anyway (0: not at all)."""
    text = config.commands.get("news_every", "").strip() or DEFAULT_EVERY
    return timedelta(0) if text in ("0", "none", "no") else parse_duration(text)


def _name(game: str, to: str, name: str) -> str:
    """The journal's name of one address's news: a player's, or the organiser's (who may also play)."""
    return f"{game}/organiser/{to.lower()}" if name == ORGANISER else f"{game}/{to.lower()}"


def hold(
    db: Transaction,
    journal: Journal,
    *,
    game: str,
    to: str,
    name: str,
    lines: Sequence[str],
    now: datetime,
    cap: int | None = SHOWN,
) -> None:
    """Keep ``lines`` for ``to``, the seat ``name``'s address or the organiser's (``ORGANISER``), in
    ``db``'s transaction, the one that made the news. ``cap``: how many lines are kept one by one
    (the rest counted); None for news nobody outside can make more of (a round's results)."""
    if not lines:
        return
    key = _name(game, to, name)
    held = NEWS.get(journal, key) or NewsHeld(
        game=game, to=to, name=name, since=now.isoformat(), lines=[], count=0
    )
    room = len(lines) if cap is None else max(0, cap - len(held["lines"]))  # what is kept stays
    shown = [*held["lines"], *lines[:room]]
    NEWS.put(db, key, NewsHeld(**{**held, "name": name, "lines": shown, "count": held["count"] + len(lines)}))


def waiting(journal: Journal, game: str, to: str, name: str) -> list[str]:
    """The lines waiting for ``to``: put them in the mail, and ``drop`` them where it is queued."""
    held = NEWS.get(journal, _name(game, to, name))
    return [] if held is None else _listed(held)


def drop(db: Transaction, journal: Journal, game: str, to: str, name: str) -> None:
    """The news for ``to`` went in a mail queued in ``db``'s transaction."""
    if NEWS.get(journal, _name(game, to, name)) is not None:
        NEWS.delete(db, _name(game, to, name))


def _listed(held: NewsHeld) -> list[str]:
    more = held["count"] - len(held["lines"])
    return [*held["lines"], *([f"…and {more} more."] if more > 0 else [])]


def deliver_news(tick: Tick, loaded: LoadedGame) -> None:
    """One digest to each address of the game whose news has waited ``news_every`` (a step of the
    tick, after the rounds and reminders, whose mail carried what it could)."""
    config = loaded.config
    every = news_every(config)
    for key, held in NEWS.every(tick.journal).items():
        if held["game"] != config.id or datetime.fromisoformat(held["since"]) + every > tick.now:
            continue
        _digest(tick, loaded, key, held)


def _digest(tick: Tick, loaded: LoadedGame, key: str, held: NewsHeld) -> None:
    config = loaded.config
    view = tick.view(config.id)
    mail_key = f"news/{key}/{held['since']}"
    lines = _listed(held)
    if held["name"] == ORGANISER:
        message = tick.mailer.answer(
            config, to=held["to"], name="organiser", topic="News of the game", lines=lines, key=mail_key
        )
        kind = "organiser"
    else:
        player = next((p for p in config.players if p.name == held["name"]), None)
        if (
            view is None
            or player is None
            or player.name in kicked(view.row)
            or player.email != held["to"].lower()
        ):
            with tick.journal.transaction() as db:  # the seat left or changed hands: not theirs now
                NEWS.delete(db, key)
            return
        message = tick.mailer.digest(
            config, player, row=view.row, state=view.state, lines=lines, key=mail_key
        )
        kind = "notice"
    with tick.journal.transaction() as db:
        tick.queue(db, key=mail_key, message=message, game=config.id, kind=kind)
        NEWS.delete(db, key)
    log.info("%s: news for %s (%d lines)", config.id, held["name"] or "the organiser", held["count"])
