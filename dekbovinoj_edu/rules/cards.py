"""Playing cards as values: suits, colours, ranks, jokers and decks.

A :class:`Card` is a frozen value whose ``str()`` is the standard notation
(``K♣``, ``10♥``, ``JK``) and whose :meth:`Card.parse` reads it back:

>>> Card.parse("K♣")
Card.parse('K♣')
>>> str(Card.parse("10h"))
'10♥'
>>> Card.parse("JK").is_joker
True
>>> Card.parse("9♦").colour
<Colour.RED: 'red'>

Black cards are "positive" and red cards "negative"; every joker played swaps
that for all cards (the game's *parity*, ``flipped``):

>>> Card.parse("7♥").is_positive(flipped=False), Card.parse("7♥").is_positive(flipped=True)
(False, True)
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from functools import total_ordering

__all__ = [
    "JOKER",
    "RANK_NAMES",
    "Card",
    "CardParseError",
    "Colour",
    "Suit",
    "full_deck",
    "parse_cards",
    "shuffled_decks",
]


class Colour(Enum):
    """The printed colour of a card. Jokers have none that matters."""

    BLACK = "black"
    """Clubs and spades: "positive" while the parity is not flipped."""
    RED = "red"
    """Diamonds and hearts: "negative" while the parity is not flipped."""


class Suit(Enum):
    """The four suits, valued by their symbol."""

    CLUBS = "♣"
    """Clubs, black."""
    SPADES = "♠"
    """Spades, black."""
    DIAMONDS = "♦"
    """Diamonds, red."""
    HEARTS = "♥"
    """Hearts, red."""

    @property
    def symbol(self) -> str:
        """The suit symbol, as printed: ``♣ ♠ ♦ ♥``."""
        return self.value

    @property
    def letter(self) -> str:
        """The ASCII letter accepted on input: ``C S D H``."""
        return self.name[0]

    @property
    def colour(self) -> Colour:
        """Black for clubs and spades, red for diamonds and hearts.

        >>> Suit.HEARTS.colour
        <Colour.RED: 'red'>
        """
        return Colour.RED if self in (Suit.DIAMONDS, Suit.HEARTS) else Colour.BLACK

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from its symbol or letter (any case).

        >>> Suit.parse("h"), Suit.parse("♠")
        (<Suit.HEARTS: '♥'>, <Suit.SPADES: '♠'>)
        """
        found = _SUIT_BY_TEXT.get(text.strip().upper())
        if found is None:
            raise CardParseError(text, f"{text!r} is not a suit (use ♣ ♠ ♦ ♥ or C S D H)")
        return found


_SUIT_BY_TEXT: dict[str, Suit] = {}
for _suit in Suit:
    _SUIT_BY_TEXT[_suit.symbol] = _suit
    _SUIT_BY_TEXT[_suit.letter] = _suit
# The outlined symbols and variation selectors some keyboards produce.
_SUIT_BY_TEXT.update({"♧": Suit.CLUBS, "♤": Suit.SPADES, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS})

_SUIT_ORDER: dict[Suit, int] = {suit: index for index, suit in enumerate(Suit)}

RANK_NAMES: dict[int, str] = {1: "A", 11: "J", 12: "Q", 13: "K"}
"""How ranks with a face letter are printed (all others print as their number)."""

_RANK_BY_TEXT: dict[str, int] = {str(n): n for n in range(1, 14)}
_RANK_BY_TEXT.update({"A": 1, "J": 11, "Q": 12, "K": 13})

_JOKER_TEXTS = {"JK", "JOKER", "🃏", "★"}


class CardParseError(ValueError):
    """Text that is not a card. Carries the text and a stable ``code``.

    >>> try:
    ...     Card.parse("14♣")
    ... except CardParseError as error:
    ...     error.code, error.text
    ('card', '14♣')
    """

    code = "card"

    def __init__(self, text: str, message: str) -> None:
        super().__init__(message)
        self.text = text


@total_ordering
@dataclass(frozen=True)
class Card:
    """One playing card: a rank 1–13 and a suit, or a joker (rank 0, no suit).

    Equal cards compare equal and hash alike, so several decks simply hold
    equal values more than once.

    >>> Card(13, Suit.CLUBS) == Card.parse("k c")
    True
    >>> sorted({Card.parse("2♠"), Card.parse("A♥"), Card.parse("2♠")})
    [Card.parse('A♥'), Card.parse('2♠')]
    """

    rank: int
    """1 (ace) to 13 (king); 0 for a joker."""
    suit: Suit | None = None
    """The suit; ``None`` only for a joker."""

    def __post_init__(self) -> None:
        if self.suit is None:
            if self.rank != 0:
                raise CardParseError(str(self.rank), "a card other than a joker needs a suit")
        elif not 1 <= self.rank <= 13:
            raise CardParseError(str(self.rank), f"rank {self.rank} is not 1 to 13")

    @classmethod
    def joker(cls) -> Card:
        """The joker. (All jokers are equal: their colour does not matter.)

        >>> Card.joker()
        Card.parse('JK')
        """
        return cls(0, None)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card from its notation: ``K♣``, ``10♥``, ``a s``, ``3h``, ``JK``, ``🃏``.

        Full-width characters (from a Japanese keyboard) are read as their
        ASCII twins.

        >>> Card.parse("１０♦"), Card.parse("joker")
        (Card.parse('10♦'), Card.parse('JK'))
        """
        raw = text
        cleaned = unicodedata.normalize("NFKC", text).replace("\ufe0f", "").replace("\ufe0e", "")
        cleaned = "".join(cleaned.split()).upper()
        if cleaned in _JOKER_TEXTS:
            return cls.joker()
        if len(cleaned) < 2:
            raise CardParseError(raw, f"{raw!r} is not a card: write a rank and a suit, like K♣")
        rank_text, suit_text = cleaned[:-1], cleaned[-1]
        rank = _RANK_BY_TEXT.get(rank_text)
        if rank is None:
            raise CardParseError(raw, f"{raw!r} is not a card: the rank must be A, 2–10, J, Q or K")
        try:
            suit = Suit.parse(suit_text)
        except CardParseError:
            raise CardParseError(raw, f"{raw!r} is not a card: the suit must be ♣ ♠ ♦ ♥") from None
        return cls(rank, suit)

    @property
    def is_joker(self) -> bool:
        """True for a joker."""
        return self.suit is None

    @property
    def colour(self) -> Colour | None:
        """The printed colour; ``None`` for a joker."""
        return None if self.suit is None else self.suit.colour

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return self.colour is Colour.RED

    @property
    def rank_name(self) -> str:
        """The rank as printed: ``A``, ``2``…``10``, ``J``, ``Q``, ``K`` (``JK`` for a joker).

        >>> Card.parse("Q♥").rank_name
        'Q'
        """
        if self.is_joker:
            return "JK"
        return RANK_NAMES.get(self.rank, str(self.rank))

    def is_positive(self, flipped: bool = False) -> bool:
        """Whether the card counts as positive ("plus, times") under the parity.

        Black cards are positive, red ones negative; a flipped parity swaps them.

        >>> Card.parse("3♠").is_positive(), Card.parse("3♠").is_positive(flipped=True)
        (True, False)
        """
        if self.is_joker:
            raise ValueError("a joker is never a number")
        return (self.colour is Colour.BLACK) != flipped

    def signed_value(self, flipped: bool = False) -> int:
        """The card's value as the rules count it at level 1: ``+rank`` or ``−rank``.

        >>> Card.parse("7♦").signed_value(), Card.parse("7♦").signed_value(flipped=True)
        (-7, 7)
        """
        return self.rank if self.is_positive(flipped) else -self.rank

    @property
    def sort_key(self) -> tuple[int, int]:
        """The order of cards: by rank (jokers first), then suit (♣ ♠ ♦ ♥).

        >>> sorted(parse_cards("9♥ 9♦ A♠ JK"))
        [Card.parse('JK'), Card.parse('A♠'), Card.parse('9♦'), Card.parse('9♥')]
        """
        suit_index = -1 if self.suit is None else _SUIT_ORDER[self.suit]
        return (self.rank, suit_index)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.sort_key < other.sort_key

    def __str__(self) -> str:
        if self.suit is None:
            return "JK"
        return f"{self.rank_name}{self.suit.symbol}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def _repr_svg_(self) -> str:
        """The card drawn as SVG, for Jupyter (see :mod:`dekbovinoj_edu.drawing.cards`)."""
        from ..drawing.cards import card_svg

        return card_svg(self)


JOKER = Card.joker()
"""The joker card value."""


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas.

    >>> parse_cards("9♦ 3♥, 7h")
    (Card.parse('9♦'), Card.parse('3♥'), Card.parse('7♥'))
    >>> parse_cards("  ")
    ()
    """
    words = text.replace(",", " ").split()
    return tuple(Card.parse(word) for word in words)


def full_deck(jokers: int = 2) -> list[Card]:
    """One deck in a fixed order: 52 cards (suit by suit, ace to king) and its jokers.

    >>> deck = full_deck()
    >>> len(deck), deck[0], deck[-1]
    (54, Card.parse('A♣'), Card.parse('JK'))
    """
    cards = [Card(rank, suit) for suit in Suit for rank in range(1, 14)]
    return cards + [JOKER] * jokers


def shuffled_decks(rng: random.Random, decks: int = 1, jokers_per_deck: int = 2) -> list[Card]:
    """Several decks mixed and shuffled with the given random generator.

    The same seed gives the same order on every machine:

    >>> a = shuffled_decks(random.Random(7))
    >>> b = shuffled_decks(random.Random(7))
    >>> a == b, len(a)
    (True, 54)
    """
    cards: list[Card] = []
    for _ in range(decks):
        cards.extend(full_deck(jokers_per_deck))
    rng.shuffle(cards)
    return cards


def count_jokers(cards: Iterable[Card]) -> int:
    """How many jokers are among the cards.

    >>> count_jokers(parse_cards("JK 3♥ JK"))
    2
    """
    return sum(1 for card in cards if card.is_joker)
