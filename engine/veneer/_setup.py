"""A new game: the deck, three factions dealt to each player, secret targets, a shuffled pile."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import match_name
from engine.veneer._cards import Deck, check_deck, load_deck
from engine.veneer._default_deck import DEFAULT_DECK
from engine.veneer._state import MIN_PLAYERS, Seat, VeneerState, alphabetical, nicknames_of

DEALT = 3  # faction cards each player chooses from
TARGETS = 2  # players each player must eliminate


def new_game(players: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> VeneerState:
    if len(set(players)) != len(players) or len(players) < MIN_PLAYERS:
        raise ValueError(
            f"Veneer needs at least {MIN_PLAYERS} players with distinct names, got {list(players)}"
        )
    deck = load_deck(options["deck"]) if "deck" in options else DEFAULT_DECK
    check_deck(deck)
    fixed = _fixed_factions(deck, players, options.get("roles", {}))
    dealt = deal_factions(deck, [p for p in players if p not in fixed], rng, taken=set(fixed.values()))
    targets = deal_targets(players, rng)
    pile = [c.name for c in deck.pile]
    rng.shuffle(pile)
    seats = tuple(
        Seat(
            name=p,
            faction=fixed.get(p, ""),
            dealt=(fixed[p],) if p in fixed else dealt[p],
            targets=targets[p],
        )
        for p in players
    )
    nicknames = nicknames_of(options.get("nicknames", {}), tuple(players))
    return VeneerState(seats=seats, deck=deck, pile=tuple(pile), nicknames=nicknames)


def deal_factions(
    deck: Deck, players: Sequence[str], rng: random.Random, *, taken: set[str] | None = None
) -> dict[str, tuple[str, ...]]:
    """Three distinct factions each; from one shuffled deck when it is big enough, else each player
    draws from the full faction deck (factions may then repeat between players). ``taken``: the
    factions a Role column fixed, never dealt to anyone else while the deck has enough others."""
    names = [f.name for f in deck.factions if f.name not in (taken or set())]
    if len(names) < min(DEALT, len(deck.factions)):  # a tiny deck of one's own: share rather than fail
        names = [f.name for f in deck.factions]
    hand = min(DEALT, len(names))
    if len(names) >= hand * len(players):
        rng.shuffle(names)
        return {p: tuple(names[i * hand : (i + 1) * hand]) for i, p in enumerate(players)}
    return {p: tuple(rng.sample(names, hand)) for p in players}


def deal_targets(players: Sequence[str], rng: random.Random) -> dict[str, tuple[str, ...]]:
    """Uniformly at random among every assignment where each player targets 2 and is targeted by 2,
    never itself. Each player's two marks are shuffled onto the players' two aims each; a deal with
    a self-aim or the same pair twice is dealt again. Every valid assignment comes from the same
    number of shuffles (2^n orders of aims times 2^n orders of marks), so each is equally likely.
    A player's targets are listed alphabetically: the listing tells nothing about anyone else's."""
    while True:
        marks = [p for p in players for _ in range(TARGETS)]
        rng.shuffle(marks)
        dealt = {p: marks[TARGETS * i : TARGETS * (i + 1)] for i, p in enumerate(players)}
        if all(p not in aims and len(set(aims)) == TARGETS for p, aims in dealt.items()):
            return {p: alphabetical(aims) for p, aims in dealt.items()}


def _fixed_factions(deck: Deck, players: Sequence[str], roles: Mapping[str, str]) -> dict[str, str]:
    """A Role column naming a faction fixes it: that player skips the choice."""
    spellings = {f.name: f.name for f in deck.factions}
    fixed = {}
    for player, role in roles.items():
        if player not in players or not role:
            continue
        faction, suggestion = match_name(role, spellings)
        if faction is None:
            hint = f" (did you mean {suggestion}?)" if suggestion else ""
            raise ValueError(f"{player}'s role {role!r} is no faction of the deck{hint}")
        fixed[player] = faction
    return fixed
