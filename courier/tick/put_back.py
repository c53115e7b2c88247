"""A journal put back from an older copy (``courier restore``, or a plain ``cp``) has forgotten the
mail read since its last tick: the inbox shows that mail read, so a plain tick would never see it,
and the rounds due meanwhile would resolve as if those players had sent nothing. The file beside the
journal (courier/journal/seen.py) remembers the deployment's last tick; while the journal's own is
older, a tick reads no mail and resolves nothing, says which command reads that mail again, and each
organiser is told once. ``courier tick --reread-since`` with a time no later than the journal's last
tick is that command; the tick goes on and the file follows the journal from then on."""

from __future__ import annotations

from courier.journal.meta import LAST_TICK
from courier.journal.seen import last_seen, note_seen, reread_since
from courier.state.context import Tick


def refuse_put_back_journal(tick: Tick) -> bool:
    """True (and each game's organiser told once) when the tick must stop before reading any mail."""
    seen, own = last_seen(tick.deployment.journal_path), LAST_TICK.get(tick.journal)
    if seen is None or own is None or own >= seen:
        return False
    if tick.reread_since is not None and tick.reread_since <= own:
        return False  # the operator's step: the mail the journal forgot is read again this tick
    since = reread_since(own)
    problem = (
        f"the journal {tick.journal.path} was put back from a copy: its last tick was {since}, but"
        f" Courier ran until {reread_since(seen)}, and the mail read since then is not in it. Nothing"
        f" was read or resolved. Read that mail again: courier tick --reread-since {since}"
    )
    tick.problem(problem)
    for game_id, loaded in tick.games.items():
        tick.tell_organiser(game_id, loaded.organiser, problem)
    return True


def remember_last_tick(tick: Tick) -> None:
    """After the tick recorded its time in the journal: the file beside it follows."""
    note_seen(tick.journal, tick.deployment.journal_path)
