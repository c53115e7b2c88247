"""Mail in a player's name that was not used because it may not be theirs (the receiving server saw
DKIM or DMARC fail, or the player's secret was missing): the player hears of it in one mail per tick
that lists the attempts, not one mail per attempt, so 500 forged mails make one mail, not 500.

Each attempt is noted in the journal (``IN_YOUR_NAME``) in the transaction that settles its input,
and ``tell_in_your_name`` queues the one mail and forgets the notes in one transaction: a killed tick
neither loses the notice nor sends it twice. A single attempt's mail is the error reply it always
was. The mail counts to the player's mail budget (courier/state/budgets.py) like any reply.
"""

from __future__ import annotations

import logging
from datetime import UTC

from courier import screenful
from courier.config.game import GameConfig, Player
from courier.journal.interface import Input
from courier.journal.meta import IN_YOUR_NAME, Attempt, Attempts
from courier.mail.incoming import Letter
from courier.state.context import OPERATOR_ERRORS, LoadedGame, Tick
from courier.state.news import ORGANISER, hold

log = logging.getLogger(__name__)

SHOWN = 20  # attempts listed one by one in the mail


def refuse_in_your_name(tick: Tick, item: Input, letter: Letter, loaded: LoadedGame, reason: str) -> None:
    """Settle the mail as not used and note the attempt for the player's one mail."""
    player = loaded.config.player_by_email(letter.sender)
    assert player is not None
    game, name = loaded.config.id, f"{loaded.config.id}/{player.email}"
    noted = IN_YOUR_NAME.get(tick.journal, name) or Attempts(
        game=game, address=player.email, count=0, shown=[]
    )
    attempt = Attempt(
        input_id=item.id,
        message_id=letter.message_id,
        subject=letter.subject,
        reason=reason,
        at=item.received_at.astimezone(UTC).isoformat(),
    )
    shown = [*noted["shown"], attempt][:SHOWN]
    subject = screenful.shorten(letter.subject, 60)
    told = f"A mail in {player.name}'s name, “{subject}”, was refused: {reason} {player.name} is told."
    with tick.journal.transaction() as db:
        db.settle_input(item.id, status="ignored", game=game, player=player.name, note=reason)
        # The organiser hears of it too, in their next mail or digest (courier/state/news.py).
        hold(db, tick.journal, game=game, to=loaded.organiser, name=ORGANISER, lines=[told], now=tick.now)
        IN_YOUR_NAME.put(
            db, name, Attempts(game=game, address=player.email, count=noted["count"] + 1, shown=shown)
        )


def tell_in_your_name(tick: Tick) -> None:
    """One mail to each player whose name was used in vain since the last one."""
    for name, noted in IN_YOUR_NAME.every(tick.journal).items():
        loaded = tick.games.get(noted["game"])
        player = loaded.config.player_by_email(noted["address"]) if loaded else None
        if loaded is None or player is None:
            continue  # the game's config did not load, or the seat changed hands: the notes wait
        try:
            _tell(tick, name, noted, loaded.config, player)
        except OPERATOR_ERRORS as e:  # an organiser's broken template: the notes wait for the fix
            tick.problem(f"game {noted['game']}: telling {player.name} of mail in their name: {e}")


def _tell(tick: Tick, name: str, noted: Attempts, config: GameConfig, player: Player) -> None:
    first, single = noted["shown"][0], noted["count"] == 1
    key = f"error/{first['input_id']}"  # a single attempt's reply, as it always was
    message = tick.mailer.error(
        config,
        player,
        reason=first["reason"] if single else _listing(noted),
        subject=first["subject"] if single else "",
        in_reply_to=(first["message_id"] or None) if single else None,
        key=key,
    )
    with tick.journal.transaction() as db, tick.caused_by(player.email):
        tick.queue(db, key=key, message=message, game=config.id, kind="error")
        IN_YOUR_NAME.delete(db, name)
    log.info("%s: told %s of %d mails not used", config.id, player.name, noted["count"])


def _listing(noted: Attempts) -> str:
    lines = [
        f"{noted['count']} messages from your address were not used. If you did not send them, "
        "someone is writing in your name; nothing changed in any game because of them:"
    ]
    for attempt in noted["shown"]:
        subject = screenful.shorten(attempt["subject"], 60)
        lines.append(f"- {attempt['at'][:16].replace('T', ' ')} UTC “{subject}”: {attempt['reason']}")
    more = noted["count"] - len(noted["shown"])
    if more:
        lines.append(f"…and {more} more.")
    return "\n".join(lines)
