"""The tick's guards. ``each_game`` runs a step for every game so that a problem in one spares the
others. ``refuse_lost_journal`` checks before the tick touches the inbox: a journal that does not
know a game the sheet shows running was lost or swapped, and going on would restart that game from
round 1 (welcome mails again, every order already read gone). The tick refuses instead and the
organiser is told once."""

from __future__ import annotations

import logging
from collections.abc import Callable

from courier.backends.base import TransientError
from courier.state.context import NOT_A_GAMES_FAULT, OPERATOR_ERRORS, LoadedGame, Tick

log = logging.getLogger(__name__)


def each_game(tick: Tick, step: Callable[[Tick, LoadedGame], None]) -> None:
    """Run one step for every game; a problem in one game spares the others. A backend or config
    problem is the organiser's to fix; anything else is a bug in that game's code. Either way the
    game's failure is counted, and a game failing tick after tick is set aside (quarantine.py)."""
    for game_id, loaded in tick.games.items():
        if game_id in tick.failed_games:
            continue  # one failure a tick is enough: later steps would only repeat it
        try:
            step(tick, loaded)
        except OPERATOR_ERRORS as e:
            tick.problem(f"game {game_id}: {e}")
            tick.tell_organiser(game_id, loaded.organiser, f"game {game_id}: {e}")
            if not isinstance(e, TransientError):
                tick.failed_games[game_id] = str(e)
        except NOT_A_GAMES_FAULT:
            raise
        except Exception as e:  # a bug in one game's rules must not stop every other game
            log.debug("game %s: %s failed", game_id, step.__name__, exc_info=True)  # -vv: the traceback
            tick.problem(f"game {game_id}: {step.__name__} failed: {type(e).__name__}: {e}")
            tick.failed_games[game_id] = f"{type(e).__name__}: {e}"


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
