"""The default Veneer deck as data (the seed names no cards). ``config/veneer/deck.toml`` holds the
same cards in the organiser-editable format; a test keeps the two identical."""

from __future__ import annotations

from engine.veneer._cards import Card, Deck


def _cards(kind: str, rows: list[tuple[str, str, str, int]]) -> tuple[Card, ...]:
    return tuple(Card(name, kind, text, effect, amount) for name, text, effect, amount in rows)


FACTIONS = _cards(
    "faction",
    [
        ("Merchants", "You gain 1 extra coin at the start of each of your turns.", "income", 1),
        ("Smiths", "Your troops cost 1 coin less.", "troop_price", -1),
        ("Diplomats", "Your vetoes cost 1 coin less.", "veto_price", -1),
        (
            "Wardens",
            "When you are attacked, each defender destroys 3 attackers instead of 2.",
            "interception",
            1,
        ),
        (
            "Oracles",
            "At the start of each of your turns you secretly see the next card of the deck.",
            "peek",
            0,
        ),
        (
            "Spymasters",
            "At the start of the game you secretly learn one target of another player.",
            "reveal_target",
            0,
        ),
        ("Senators", "Your vote counts twice.", "extra_vote", 1),
        ("Bankers", "You start with 3 extra coins.", "coins", 3),
        ("Landlords", "You start with 2 extra coins.", "coins", 2),
        ("Garrison", "You start with 2 extra defenders.", "free_troops", 2),
        ("Militia", "You start with 1 extra defender.", "free_troops", 1),
        ("Envoys", "Your vetoes cost 2 coins less.", "veto_price", -2),
        ("Guilds", "You gain 1 extra coin at the start of each of your turns.", "income", 1),
        ("Armourers", "Your troops cost 1 coin less.", "troop_price", -1),
        (
            "Sentinels",
            "When you are attacked, each defender destroys 3 attackers instead of 2.",
            "interception",
            1,
        ),
        (
            "Seers",
            "At the start of each of your turns you secretly see the next card of the deck.",
            "peek",
            0,
        ),
        (
            "Informers",
            "At the start of the game you secretly learn one target of another player.",
            "reveal_target",
            0,
        ),
        ("Tribunes", "Your vote counts twice.", "extra_vote", 1),
    ],
)

LAWS = _cards(
    "law",
    [
        ("Tithe", "Everyone gains 1 extra coin at the start of their turn.", "income", 1),
        ("Austerity", "Everyone gains 1 coin less at the start of their turn.", "income", -1),
        ("Conscription Act", "Troops cost 1 coin less.", "troop_price", -1),
        ("War Tax", "Troops cost 1 coin more.", "troop_price", 1),
        ("Secret Ballot", "Votes are secret: only the tally is announced.", "secret_ballot", 0),
        ("Martial Law", "Every player must attack on their turn.", "forced_attack", 0),
        ("Ceasefire", "No attacks may be declared.", "no_attacks", 0),
        ("Fortification Act", "Each defender destroys 1 more attacker.", "interception", 1),
        ("Sovereignty Act", "Attacks may not be vetoed.", "no_vetoes", 0),
        ("Arbitration Fee", "Vetoes cost 2 coins more.", "veto_price", 2),
    ],
)

MOTIONS = _cards(
    "motion",
    [
        ("Repeal", "Every law in force is repealed.", "repeal", 0),
        ("Dissolution", "Every alliance is broken.", "break_alliances", 0),
        ("Stimulus", "Every player gains 1 coin.", "coins", 1),
        ("Levy", "Every player loses 1 coin.", "coins", -1),
        ("Call to Arms", "Every player gains 1 free defender.", "free_troops", 1),
        ("Disarmament", "Every player loses 1 troop, defenders first.", "destroy_troops", 1),
        ("Declaration of War", "The active player must attack this turn.", "forced_attack", 0),
    ],
)

ACTIONS = _cards(
    "action",
    [
        ("Windfall", "Gain 2 coins.", "coins", 2),
        ("Pickpocket", "Take 1 coin from a player.", "steal", 1),
        ("Arson", "A player loses 1 coin.", "burn", 1),
        ("Sabotage", "Destroy 2 of a player's troops, defenders first.", "destroy_troops", 2),
        ("Conscripts", "Gain 2 free defenders.", "free_troops", 2),
        ("Spyglass", "Learn secretly one of a player's targets.", "reveal_target", 0),
        ("Scandal", "Break every alliance of a player.", "break_alliances", 0),
        ("Bribery", "Every law in force is repealed.", "repeal", 0),
    ],
)

DEFAULT_DECK = Deck(factions=FACTIONS, pile=LAWS + MOTIONS + ACTIONS)
