"""Who plays what: nations for the monarchs (from the Role column, or dealt by the seed) and, in
court mode, the courts of courtiers."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from engine.core import fold
from engine.monarchs._board import NATIONS
from engine.monarchs._court import COURTIERS_PER_NATION, Court, deal_court


def read_role(role: str) -> tuple[bool, list[str]]:
    """``"Red"`` → (False, [red]); ``"red courtier, spy for blue"`` → (True, [red, blue])."""
    words = fold(role).replace(",", " ").replace(":", " ").split()
    nations = [_nation(w) for w in words if _nation(w)]
    courtier = any(w.startswith("court") for w in words)
    if not nations or len(nations) > (2 if courtier else 1):
        raise ValueError(f"role {role!r}: write a nation (red, green, blue), or “red courtier, spy for blue”")
    return courtier, [n for n in nations if n]


def _nation(word: str) -> str:
    return next((n for n in NATIONS if word in (n, n[0])), "")


def board_seats(players: Sequence[str], roles: Mapping[str, str], rng: random.Random) -> dict[str, str]:
    """Three monarchs: player → nation."""
    if len(players) != len(NATIONS):
        raise ValueError(f"board mode needs exactly 3 players (the monarchs), got {len(players)}")
    chosen = {p: read_role(roles[p])[1][0] for p in players if roles.get(p)}
    return _fill(players, chosen, rng)


def _fill(players: Sequence[str], chosen: dict[str, str], rng: random.Random) -> dict[str, str]:
    if len(set(chosen.values())) != len(chosen):
        raise ValueError("two monarchs have the same nation in the Role column")
    free = [n for n in NATIONS if n not in chosen.values()]
    rng.shuffle(free)
    return {**chosen, **{p: free.pop() for p in players if p not in chosen}}


def court_seats(
    players: Sequence[str], roles: Mapping[str, str], rng: random.Random
) -> tuple[dict[str, str], Court]:
    """Three monarchs and fifteen courtiers. Without roles the seed deals everything."""
    needed = len(NATIONS) * (1 + COURTIERS_PER_NATION)
    if len(players) != needed:
        raise ValueError(
            f"court mode needs {needed} players (3 monarchs, 5 courtiers each), got {len(players)}"
        )
    read = {p: read_role(roles[p]) for p in players if roles.get(p)}
    monarchs = {p: r[1][0] for p, r in read.items() if not r[0]}
    courtiers = {p: r[1][0] for p, r in read.items() if r[0]}
    fixed = {p: r[1][1] for p, r in read.items() if r[0] and len(r[1]) == 2}
    unseated = [p for p in players if p not in read]
    rng.shuffle(unseated)
    while len(monarchs) < len(NATIONS):
        monarchs[unseated.pop()] = ""
    monarchs = _fill(list(monarchs), {p: n for p, n in monarchs.items() if n}, rng)
    for nation in NATIONS:
        while sum(1 for n in courtiers.values() if n == nation) < COURTIERS_PER_NATION and unseated:
            courtiers[unseated.pop()] = nation
    return monarchs, deal_court(courtiers, fixed, rng)
