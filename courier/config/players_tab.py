"""The Players tab, checked cell by cell: each problem is one line naming the cell to fix, so the
organiser's one mail says exactly what is wrong (a name with a line break would reach the Ledger; a
nickname that is another player's name would turn orders against one player into orders against
another)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from email.utils import getaddresses

from courier.errors import ConfigError
from courier.screenful import printable


def check_row(where: str, number: int, row: Mapping[str, str]) -> None:
    name, raw_email = row.get("name", ""), row.get("email", "")
    if not name.strip() or not raw_email.strip():
        raise ConfigError(f"{where}: Players!A{number}:B{number} needs a name and a mail address")
    if printable(name) != name or any(c in name for c in "\t\r\n"):
        raise ConfigError(
            f"{where}: Players!A{number}: the name {name!r} holds a line break, tab or control character"
        )
    if raw_email.strip().lower() != "bot" and not _one_address(raw_email):
        raise ConfigError(
            f"{where}: Players!B{number}: {raw_email!r} is not one mail address (like name@example.org)"
        )


def check_names(where: str, rows: Sequence[tuple[int, str, tuple[str, ...]]]) -> None:
    """(row number, name, nicknames) for each player: no name or nickname may name two players."""
    owner: dict[str, str] = {}
    for number, name, _nicks in rows:
        if name.casefold() in owner:
            raise ConfigError(f"{where}: Players!A{number}: two players are called {name!r}")
        owner[name.casefold()] = name
    for number, name, nicks in rows:
        for nick in nicks:
            other = owner.setdefault(nick.casefold(), name)
            if other != name:
                raise ConfigError(
                    f"{where}: Players!C{number}: the nickname {nick!r} of {name} already names {other};"
                    " an order naming it could not tell them apart"
                )


def _one_address(value: str) -> bool:
    found = [address for _name, address in getaddresses([value]) if address]
    if len(found) != 1:
        return False
    local, at, domain = found[0].rpartition("@")
    return bool(local and at and "." in domain and not any(c.isspace() for c in found[0]))
