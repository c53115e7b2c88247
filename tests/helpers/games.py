"""Every game seated for the tick, by name: the rooms' tests run one check on each game
(a lost journal, an outage, a crash). Each game's seats live in its own helpers module."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import BASE_CONFIG, PLAYERS, Table, address
from tests.helpers import diplomacy, monarchs, startrek, talossa, veneer
from tests.helpers.clock import at

START, LATER, NEXT_DAY = at(0, 8, 5), at(0, 9, 5), at(1, 9, 5)


def truce(root: Path) -> Table:
    return Table(root, BASE_CONFIG, [{"name": n, "email": address(n)} for n in PLAYERS])


GAMES: dict[str, Callable[[Path], Table]] = {
    "truce": truce,
    "diplomacy": diplomacy.table,
    "startrek": startrek.table,
    "monarchs": monarchs.table,
    "talossa": talossa.table,
    "veneer": veneer.table,
}
