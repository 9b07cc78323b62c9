"""The state of a game: where every card is, whose turn it is, the parity.

:class:`GameState` is the plain, mutable record the engine changes move by
move; :func:`deal` sets it up as RULES.md says (shuffle, three cards to each
player and five to the starter, the rest is the farm). The farm is kept top
first: ``farm[0]`` is the next card drawn.

>>> import random
>>> state = deal(players=3, level=LEVELS[2], rng=random.Random(1))
>>> [len(barn) for barn in state.barns], len(state.farm), state.turn
([5, 3, 3], 43, 0)
>>> state.card_count() == state.dealt_count()
True
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..rules.cards import Card, Suit, full_deck, parse_cards
from ..rules.levels import LEVELS, Level, Op
from ..rules.limits import Limits

__all__ = [
    "BARN_SIZE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "OPENING_CARDS",
    "PLAYERS_PER_DECK",
    "STARTER_BARN_SIZE",
    "GameState",
    "card_key",
    "deal",
    "default_decks",
    "level_from_dict",
    "level_to_dict",
]

MIN_PLAYERS = 2
"""Fewest players (RULES.md: 2 to 8)."""
MAX_PLAYERS = 8
"""Most players."""
PLAYERS_PER_DECK = 4
"""Up to this many players share one deck; more players mix two decks."""
BARN_SIZE = 3
"""Cards each player draws back to at the end of every turn (and is dealt)."""
STARTER_BARN_SIZE = 5
"""Cards dealt to the starter."""
OPENING_CARDS = 2
"""Cards the starter lays on the pasture in the opening."""


_SUIT_ORDER = {suit: index for index, suit in enumerate(Suit)}


def card_key(card: Card) -> tuple[int, int]:
    """A sort key for cards: by rank, then suit (♣ ♠ ♦ ♥); jokers first.

    >>> sorted(parse_cards("3♥ 3♣ JK A♦"), key=card_key)
    [Card.parse('JK'), Card.parse('A♦'), Card.parse('3♣'), Card.parse('3♥')]
    """
    return (card.rank, -1 if card.suit is None else _SUIT_ORDER[card.suit])


def default_decks(players: int) -> int:
    """How many decks the rules use for this many players: one up to four, else two.

    >>> default_decks(4), default_decks(5)
    (1, 2)
    """
    return 1 if players <= PLAYERS_PER_DECK else 2


@dataclass
class GameState:
    """Every card's place and the turn; the engine's whole mutable state."""

    level: Level
    """The level played."""
    deck: tuple[Card, ...]
    """All cards dealt, in the order of the shuffled deck (top first)."""
    farm: list[Card]
    """The cards not yet drawn, top first."""
    barns: list[list[Card]]
    """Each seat's barn."""
    pasture: list[Card] = field(default_factory=list)
    """The cards everyone sees, in the order laid."""
    haystacks: list[list[Card]] = field(default_factory=list)
    """Each seat's cards taken with dek bovinoj."""
    laid_aside: list[Card] = field(default_factory=list)
    """Jokers played: they count for nobody."""
    flipped: bool = False
    """The parity: ``True`` when an odd number of jokers has been played."""
    starter: int = 0
    """The seat that opened."""
    turn: int = 0
    """The seat whose turn it is."""
    opened: bool = False
    """Whether the starter's opening has been played."""
    joker_this_turn: bool = False
    """Whether the player whose turn it is has already played a joker."""
    over: bool = False
    """Whether the game has ended."""

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.barns)

    def card_count(self) -> Counter[Card]:
        """Every card the game holds, wherever it is (for the no-card-lost invariant)."""
        count: Counter[Card] = Counter(self.farm)
        count.update(self.pasture)
        count.update(self.laid_aside)
        for cards in (*self.barns, *self.haystacks):
            count.update(cards)
        return count

    def dealt_count(self) -> Counter[Card]:
        """The cards the game started with."""
        return Counter(self.deck)

    def broken_invariants(self) -> list[str]:
        """What is wrong with the state, if anything (empty when every invariant holds).

        No card created or lost (farm, barns, pasture, haystacks and laid-aside
        jokers together are the cards dealt), no barn above its limit (three;
        five for the starter before the opening, and for a starter left with
        only jokers by an opening that could not lay two cards), no joker
        on the pasture or in a haystack, only jokers laid aside.

        >>> state = deal(players=2, level=LEVELS[1], rng=random.Random(3))
        >>> state.broken_invariants()
        []
        >>> state.pasture.append(state.farm[0])
        >>> state.broken_invariants()
        ['cards created or lost']
        """
        broken = []
        if self.card_count() != self.dealt_count():
            broken.append("cards created or lost")
        for seat, barn in enumerate(self.barns):
            limit = BARN_SIZE
            if seat == self.starter and (
                not self.opened or sum(not card.is_joker for card in barn) == 0
            ):
                # Before the opening; or after an opening that could not lay two
                # cards, when only jokers are left (they are played all at once).
                limit = STARTER_BARN_SIZE
            if len(barn) > limit:
                broken.append(f"seat {seat} holds {len(barn)} cards")
        if any(card.is_joker for card in self.pasture):
            broken.append("a joker on the pasture")
        if any(card.is_joker for stack in self.haystacks for card in stack):
            broken.append("a joker in a haystack")
        if not all(card.is_joker for card in self.laid_aside):
            broken.append("a card laid aside that is not a joker")
        return broken

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (cards as text)."""

        def text(cards: Sequence[Card]) -> str:
            return " ".join(map(str, cards))

        return {
            "level": level_to_dict(self.level),
            "deck": text(self.deck),
            "farm": text(self.farm),
            "barns": [text(barn) for barn in self.barns],
            "pasture": text(self.pasture),
            "haystacks": [text(stack) for stack in self.haystacks],
            "laid_aside": text(self.laid_aside),
            "flipped": self.flipped,
            "starter": self.starter,
            "turn": self.turn,
            "opened": self.opened,
            "joker_this_turn": self.joker_this_turn,
            "over": self.over,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """The state :meth:`to_dict` described.

        >>> state = deal(players=2, level=LEVELS[1], rng=random.Random(3))
        >>> GameState.from_dict(state.to_dict()) == state
        True
        """
        return cls(
            level=level_from_dict(data["level"]),
            deck=parse_cards(data["deck"]),
            farm=list(parse_cards(data["farm"])),
            barns=[list(parse_cards(barn)) for barn in data["barns"]],
            pasture=list(parse_cards(data["pasture"])),
            haystacks=[list(parse_cards(stack)) for stack in data["haystacks"]],
            laid_aside=list(parse_cards(data["laid_aside"])),
            flipped=bool(data["flipped"]),
            starter=int(data["starter"]),
            turn=int(data["turn"]),
            opened=bool(data["opened"]),
            joker_this_turn=bool(data["joker_this_turn"]),
            over=bool(data["over"]),
        )


def deal(
    players: int,
    level: Level,
    rng: random.Random | None = None,
    decks: int | None = None,
    jokers_per_deck: int = 2,
    starter: int = 0,
    deck: Sequence[Card] | None = None,
) -> GameState:
    """Shuffle and deal: five cards to the starter, then three to each next seat.

    ``deck`` stacks the deck instead of shuffling (top first), for replaying a
    real game or building the rules' example; otherwise ``decks`` decks (by
    default :func:`default_decks`) with ``jokers_per_deck`` jokers each are
    shuffled with ``rng``.

    >>> stacked = parse_cards("9♦ 3♥ 4♠ 6♠ 8♣  Q♠ JK 7♥  K♣ 2♣ 3♠  5♥")
    >>> state = deal(players=3, level=LEVELS[2], deck=stacked)
    >>> [" ".join(map(str, barn)) for barn in state.barns], state.farm
    (['9♦ 3♥ 4♠ 6♠ 8♣', 'Q♠ JK 7♥', 'K♣ 2♣ 3♠'], [Card.parse('5♥')])
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(
            f"Dek Bovinoj is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
        )
    if not 0 <= starter < players:
        raise ValueError(f"there is no seat {starter} among {players} players")
    if deck is None:
        decks = default_decks(players) if decks is None else decks
        if decks < 1 or jokers_per_deck < 0:
            raise ValueError("a game needs at least one deck and no negative number of jokers")
        cards: list[Card] = []
        for _ in range(decks):
            cards.extend(full_deck(jokers_per_deck))
        (rng or random.Random()).shuffle(cards)
    else:
        cards = list(deck)
    needed = STARTER_BARN_SIZE + BARN_SIZE * (players - 1)
    if len(cards) < needed:
        raise ValueError(
            f"{players} players need at least {needed} cards, the deck has {len(cards)}"
        )
    barns: list[list[Card]] = [[] for _ in range(players)]
    position = 0
    for offset in range(players):
        seat = (starter + offset) % players
        size = STARTER_BARN_SIZE if offset == 0 else BARN_SIZE
        barns[seat] = cards[position : position + size]
        position += size
    return GameState(
        level=level,
        deck=tuple(cards),
        farm=cards[position:],
        barns=barns,
        haystacks=[[] for _ in range(players)],
        starter=starter,
        turn=starter,
    )


def level_to_dict(level: Level) -> int | dict[str, Any]:
    """A level for JSON: its number for the rules' levels, else every field.

    >>> level_to_dict(LEVELS[2])
    2
    >>> level_from_dict(level_to_dict(dataclasses.replace(LEVELS[2], target=24))).target
    24
    """
    if level.number is not None:
        return level.number
    return {
        "name": level.name,
        "operations": sorted(op.symbol for op in level.operations),
        "brackets": level.brackets,
        "colour_rule": level.colour_rule,
        "target": level.target,
        "limits": dataclasses.asdict(level.limits),
    }


def level_from_dict(data: int | dict[str, Any]) -> Level:
    """The level :func:`level_to_dict` described."""
    if isinstance(data, int):
        return LEVELS[data]
    return Level(
        name=data["name"],
        operations=frozenset(Op(symbol) for symbol in data["operations"]),
        brackets=bool(data["brackets"]),
        colour_rule=bool(data["colour_rule"]),
        target=int(data["target"]),
        limits=Limits(**data["limits"]),
    )
