"""Cards as data: the effect vocabulary, the card record, and the deck validator.

A deck is factions plus a draw pile of laws, motions and actions. Every card names one effect from
``EFFECTS`` (with an ``amount`` where the effect takes one), so an organiser can write a deck
without code. ``load_deck`` reads a deck from plain data (the parsed ``config/veneer/deck.toml``)
and rejects anything it does not know, naming the card and suggesting the likely intent.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

KINDS = ("faction", "law", "motion", "action")
FIELDS = ("name", "text", "effect", "amount")


@dataclass(frozen=True)
class EffectSpec:
    """What an effect means on each kind of card it may appear on."""

    kinds: tuple[str, ...]
    meaning: str
    amount: bool = False  # takes a whole-number ``amount`` (may be negative)
    targeted: bool = False  # as an action, it is played on another player


EFFECTS: dict[str, EffectSpec] = {
    "income": EffectSpec(("faction", "law"), "coins added to start-of-turn income", amount=True),
    "troop_price": EffectSpec(("faction", "law"), "change to the price of a troop (never below 1)", True),
    "veto_price": EffectSpec(("faction", "law"), "change to the price of a veto (never below 1)", True),
    "interception": EffectSpec(
        ("faction", "law"), "change to how many attackers one defender destroys (never below 1)", True
    ),
    "extra_vote": EffectSpec(("faction",), "extra votes this faction casts on every ballot", True),
    "peek": EffectSpec(("faction",), "sees, secretly, the next card of the deck at the start of its turns"),
    "reveal_target": EffectSpec(
        ("faction", "action"),
        "learns secretly one target of another player (a faction: a random player, at the start)",
        targeted=True,
    ),
    "secret_ballot": EffectSpec(("law",), "votes are secret: only the tally is announced"),
    "no_attacks": EffectSpec(("law",), "no attack may be declared"),
    "no_vetoes": EffectSpec(("law",), "no attack may be vetoed"),
    "forced_attack": EffectSpec(
        ("law", "motion"), "the active player must attack (a motion: this turn only)"
    ),
    "repeal": EffectSpec(("motion", "action"), "every law in force is repealed"),
    "break_alliances": EffectSpec(
        ("motion", "action"), "alliances are broken (a motion: all; an action: the target's)", targeted=True
    ),
    "coins": EffectSpec(
        ("faction", "motion", "action"),
        "coins gained (a faction: once, when chosen; a motion: by everyone; an action: by you)",
        True,
    ),
    "steal": EffectSpec(("action",), "coins taken from the target", amount=True, targeted=True),
    "burn": EffectSpec(("action",), "coins the target loses", amount=True, targeted=True),
    "destroy_troops": EffectSpec(
        ("motion", "action"),
        "troops destroyed, defenders first (a motion: everyone's; an action: the target's)",
        amount=True,
        targeted=True,
    ),
    "free_troops": EffectSpec(
        ("faction", "motion", "action"),
        "free defenders (a faction: once, when chosen; a motion: for everyone; an action: for you)",
        amount=True,
    ),
}


@dataclass(frozen=True)
class Card:
    name: str
    kind: str  # one of KINDS
    text: str  # one line for players
    effect: str  # a key of EFFECTS
    amount: int = 0

    @property
    def targeted(self) -> bool:
        """An action played on another player (``play Sabotage on Emmett``)."""
        return self.kind == "action" and EFFECTS[self.effect].targeted

    def entry(self) -> dict[str, Any]:
        """The card as an entry of its kind's list in a deck file (the kind is the list's name)."""
        entry: dict[str, Any] = {"name": self.name, "text": self.text, "effect": self.effect}
        return {**entry, "amount": self.amount} if self.amount else entry


@dataclass(frozen=True)
class Deck:
    factions: tuple[Card, ...]
    pile: tuple[Card, ...]  # laws, motions and actions, one copy each

    def card(self, name: str) -> Card:
        for card in (*self.factions, *self.pile):
            if card.name == name:
                return card
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """The deck in ``load_deck``'s format: one list of cards per kind."""
        return {kind: [c.entry() for c in self.of_kind(kind)] for kind in KINDS}

    def of_kind(self, kind: str) -> tuple[Card, ...]:
        return tuple(c for c in (*self.factions, *self.pile) if c.kind == kind)


class DeckError(ValueError):
    """A deck that cannot be played; ``problems`` says, card by card, what to fix."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def card_problems(card: Card) -> list[str]:
    """Why ``card`` is not playable (empty when it is), each naming the card and a hint."""
    where = f"{card.kind} “{card.name}”"
    if card.kind not in KINDS:
        return [f"{where}: unknown kind{_hint(card.kind, KINDS)}; kinds are {', '.join(KINDS)}"]
    if card.effect not in EFFECTS:
        return [f"{where}: unknown effect “{card.effect}”{_hint(card.effect, EFFECTS)}"]
    spec = EFFECTS[card.effect]
    problems = []
    if card.kind not in spec.kinds:
        problems.append(f"{where}: the effect “{card.effect}” works only on {' or '.join(spec.kinds)} cards")
    if spec.amount and card.amount == 0:
        problems.append(f"{where}: the effect “{card.effect}” needs a non-zero amount ({spec.meaning})")
    if not spec.amount and card.amount:
        problems.append(f"{where}: the effect “{card.effect}” takes no amount")
    if not card.name.strip() or not card.text.strip():
        problems.append(f"{where}: every card needs a name and a one-line text")
    return problems


def check_deck(deck: Deck) -> None:
    """Raise ``DeckError`` listing every problem of ``deck``."""
    problems = [p for card in (*deck.factions, *deck.pile) for p in card_problems(card)]
    names = [c.name.casefold() for c in (*deck.factions, *deck.pile)]
    problems += [
        f"two cards are called “{n}”; names must be distinct"
        for n in sorted(set(names))
        if names.count(n) > 1
    ]
    if len(deck.factions) < 1 or not deck.pile:
        problems.append("a deck needs at least one faction and one law, motion or action")
    if problems:
        raise DeckError(problems)


def load_deck(data: Mapping[str, Any]) -> Deck:
    """A deck from plain data: ``{"faction": [{name, text, effect, amount}], "law": [...], ...}``."""
    problems: list[str] = []
    cards: list[Card] = []
    for key, entries in data.items():
        if key not in KINDS:
            problems.append(f"unknown section [[{key}]]{_hint(key, KINDS)}; sections are {', '.join(KINDS)}")
            continue
        for entry in entries if isinstance(entries, list) else []:
            card = _card(key, entry, problems)
            if card is not None:
                cards.append(card)
    deck = Deck(
        tuple(c for c in cards if c.kind == "faction"), tuple(c for c in cards if c.kind != "faction")
    )
    try:
        check_deck(deck)
    except DeckError as e:
        problems += e.problems
    if problems:
        raise DeckError(problems)
    return deck


def _card(kind: str, entry: Any, problems: list[str]) -> Card | None:
    if not isinstance(entry, Mapping):
        problems.append(f"a [[{kind}]] entry must be a table with name, text and effect")
        return None
    unknown = sorted(set(entry) - set(FIELDS))
    name = str(entry.get("name", ""))
    if unknown:
        problems.append(f"{kind} “{name}”: unknown field {unknown[0]}{_hint(unknown[0], FIELDS)}")
    amount = entry.get("amount", 0)
    if not isinstance(amount, int) or isinstance(amount, bool):
        problems.append(f"{kind} “{name}”: amount must be a whole number, got {amount!r}")
        amount = 0
    return Card(name, kind, str(entry.get("text", "")), str(entry.get("effect", "")), amount)


def _hint(word: str, known: Any) -> str:
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.5)
    return f" (did you mean “{close[0]}”?)" if close else ""
