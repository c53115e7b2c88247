"""A new game: the deck, three factions dealt to each player, secret targets, a shuffled pile."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import match_name
from engine.veneer._cards import Deck, check_deck, load_deck
from engine.veneer._default_deck import DEFAULT_DECK
from engine.veneer._state import MIN_PLAYERS, Seat, VeneerState

DEALT = 3  # faction cards each player chooses from


def new_game(players: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> VeneerState:
    if len(set(players)) != len(players) or len(players) < MIN_PLAYERS:
        raise ValueError(
            f"Veneer needs at least {MIN_PLAYERS} players with distinct names, got {list(players)}"
        )
    deck = load_deck(options["deck"]) if "deck" in options else DEFAULT_DECK
    check_deck(deck)
    fixed = _fixed_factions(deck, players, options.get("roles", {}))
    dealt = deal_factions(deck, players, rng)
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
    return VeneerState(seats=seats, deck=deck, pile=tuple(pile))


def deal_factions(deck: Deck, players: Sequence[str], rng: random.Random) -> dict[str, tuple[str, ...]]:
    """Three distinct factions each; from one shuffled deck when it is big enough, else each player
    draws from the full faction deck (factions may then repeat between players)."""
    names = [f.name for f in deck.factions]
    hand = min(DEALT, len(names))
    if len(names) >= hand * len(players):
        rng.shuffle(names)
        return {p: tuple(names[i * hand : (i + 1) * hand]) for i, p in enumerate(players)}
    return {p: tuple(rng.sample(names, hand)) for p in players}


def deal_targets(players: Sequence[str], rng: random.Random) -> dict[str, tuple[str, ...]]:
    """Seated in a random circle, each targets the next two: everyone targets 2 and is targeted by
    2, never itself (with 3 players, both others)."""
    circle = list(players)
    rng.shuffle(circle)
    n = len(circle)
    return {p: (circle[(i + 1) % n], circle[(i + 2) % n]) for i, p in enumerate(circle)}


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
