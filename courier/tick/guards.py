"""Checks a tick makes before it touches the inbox: a journal that does not know a game the sheet shows
running was lost or swapped, and going on would restart that game from round 1 (welcome mails again,
every order already read gone). The tick refuses instead and the organiser is told once."""

from __future__ import annotations

from courier.state.context import Tick


def lost_games(tick: Tick) -> list[str]:
    """Games whose Ledger says they are running but of which the journal knows nothing."""
    if tick.new_journal:
        return []
    return [
        game_id
        for game_id, loaded in tick.games.items()
        if loaded.snapshot.running_game == game_id and tick.view(game_id) is None
    ]


def refuse_lost_journal(tick: Tick) -> bool:
    """True (and each game's organiser told) when the tick must stop before reading any mail."""
    lost = lost_games(tick)
    for game_id in lost:
        problem = (
            f"game {game_id} is running (its Ledger says so) but the journal {tick.journal.path} has no"
            " record of it: the journal was lost or replaced. Nothing was read or resolved. Put back a"
            " copy with `courier restore BACKUP`, or start every game over with `courier tick --new-journal`"
        )
        tick.problem(problem)
        tick.tell_organiser(game_id, tick.games[game_id].organiser, problem)
    return bool(lost)
