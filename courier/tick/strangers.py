"""Mail from an address no player has (issue 29). Strangers get no answer, ever (backscatter), but a
mail that looks like a registered player's from another address (its From name is a player's name
or nickname, or its subject carries a game's tag) is told to that game's organiser, in their next
mail or digest (courier/state/news.py): a player who moved can be given `change address`."""

from __future__ import annotations

from courier import screenful
from courier.journal.interface import Input
from courier.mail.incoming import Letter
from courier.state.context import LoadedGame, Tick
from courier.state.news import ORGANISER, hold
from engine.core import fold


def settle_stranger(tick: Tick, item: Input, letter: Letter) -> None:
    """The mail is settled as ignored; the organisers of the games it may belong to hear of it."""
    told = [
        (loaded, seat) for loaded in tick.games.values() if (seat := _claimed(loaded, letter)) is not None
    ]
    note = f"{letter.sender} plays in no game"
    with tick.journal.transaction() as db:
        db.settle_input(item.id, status="ignored", note=note)
        for loaded, seat in told:
            line = _line(letter, seat)
            hold(
                db,
                tick.journal,
                game=loaded.config.id,
                to=loaded.organiser,
                name=ORGANISER,
                lines=[line],
                now=tick.now,
            )


def _claimed(loaded: LoadedGame, letter: Letter) -> str | None:
    """The seat whose player the mail seems to be from (``""``: the game's tag alone), or None."""
    said = fold(letter.sender_name)
    if said:
        for player in loaded.config.players:
            names = {fold(n) for n in (player.name, player.own_name, *player.nicknames) if n}
            if said in names or said.split()[0] in names or fold(player.name).split()[0] == said:
                return player.name
    return "" if loaded.config.id in letter.tags else None


def _line(letter: Letter, seat: str) -> str:
    who = (
        f"{letter.sender} (“{screenful.shorten(letter.sender_name, 40)}”)"
        if letter.sender_name
        else letter.sender
    )
    subject = screenful.shorten(letter.subject, 60)
    line = f"A mail from {who}, “{subject}”, was not used and not answered: that address plays in no game."
    if seat:
        line += f" If it is {seat}'s new address, `change address of {seat} to {letter.sender}`."
    return line
