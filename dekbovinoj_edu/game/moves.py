"""The moves of a game of Dek Bovinoj, as small frozen records.

A turn of RULES.md ("The game") is one of these, played on the
:class:`~dekbovinoj_edu.game.engine.Game` with ``game.play(move)``:

* :class:`Opening`: the starter's first turn, two cards on the pasture and "mu!".
* :class:`Joker`: play one joker from the barn (the colours swap). It is the
  first half of a turn: the same player then plays a :class:`DekBovinoj` or a
  :class:`Mu`. One joker per turn.
* :class:`DekBovinoj`: an expression that makes the target; the cards it uses
  go to the player's haystack.
* :class:`Mu`: "mu!", one card of the barn (not a joker) laid on the pasture.

:func:`parse_move` reads what a person types in a terminal:

>>> parse_move("mu 7h")
Mu(card=Card.parse('7♥'))
>>> parse_move("joker"), parse_move("JK"), parse_move("joker!")
(Joker(), Joker(), Joker())
>>> parse_move("13*2+3-9-3-7")
DekBovinoj(expression='13*2+3-9-3-7')
>>> parse_move("9♦ 3♥")  # only meaningful for the opening
Opening(cards=(Card.parse('9♦'), Card.parse('3♥')))
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.cards import Card, CardParseError, parse_cards

__all__ = [
    "AnyDekBovinoj",
    "DekBovinoj",
    "Joker",
    "Move",
    "Mu",
    "Opening",
    "parse_move",
    "typed",
]


@dataclass(frozen=True)
class Opening:
    """The starter's first turn: two cards of the barn on the pasture, then "mu!".

    >>> str(Opening(parse_cards("9♦ 3♥")))
    'open 9♦ 3♥'
    """

    cards: tuple[Card, ...]
    """The cards laid (two, unless the starter holds fewer than two that are not jokers)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(self.cards))

    def __str__(self) -> str:
        return "open " + " ".join(map(str, self.cards))


@dataclass(frozen=True)
class Joker:
    """Play one joker from the barn: every card's colour swaps for the rest of the game.

    Only the first half of a turn; a :class:`DekBovinoj` or :class:`Mu` follows.

    >>> str(Joker())
    'joker'
    """

    def __str__(self) -> str:
        return "joker"


@dataclass(frozen=True)
class DekBovinoj:
    """A dek bovinoj: an expression in the checker's syntax that makes the target.

    >>> str(DekBovinoj("7 + 3"))
    '7 + 3'
    """

    expression: str
    """What the player wrote, e.g. ``"13*2+3-9-3-7"`` (a trailing ``= 10`` is fine)."""

    def __str__(self) -> str:
        return self.expression


@dataclass(frozen=True)
class Mu:
    """ "mu!": lay one card of the barn (never a joker) on the pasture.

    >>> str(Mu(Card.parse("7♥")))
    'mu 7♥'
    """

    card: Card
    """The card laid."""

    def __str__(self) -> str:
        return f"mu {self.card}"


@dataclass(frozen=True)
class AnyDekBovinoj:
    """What :meth:`Game.legal_moves` lists for dek bovinoj: any expression over these cards.

    The expressions cannot all be listed, so the list names the kind and the
    cards an expression may use (pasture first, then the barn, no jokers).
    It is a description, not a move: play a :class:`DekBovinoj` instead.
    Whether a dek bovinoj exists at all is for the solver to say.

    >>> str(AnyDekBovinoj(parse_cards("9♦ 3♥ 7♥")))
    'dek bovinoj with 9♦ 3♥ 7♥'
    """

    cards: tuple[Card, ...]
    """The cards a dek bovinoj expression may use."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(self.cards))

    def __str__(self) -> str:
        return "dek bovinoj with " + " ".join(map(str, self.cards))


Move = Opening | Joker | DekBovinoj | Mu
"""Any move that :meth:`Game.play` accepts."""

_JOKER_WORDS = {"joker", "jk", "🃏", "ĵokero", "jokero", "ジョーカー"}
_MU_WORDS = {"mu", "mu!", "moo", "moo!", "モー", "モー！", "muu"}


def parse_move(text: str) -> Move:
    """Read a move as a person types it: ``mu CARD``, ``joker``, cards, or an expression.

    ``mu`` without a card is read as ``Mu`` of no particular card only by the
    terminal game (which knows the barn); here it is an error. Text that is
    a list of cards is an :class:`Opening`; anything else is a
    :class:`DekBovinoj` expression for the checker to judge.

    >>> parse_move("  MU  q s ")
    Mu(card=Card.parse('Q♠'))
    >>> parse_move("mu")
    Traceback (most recent call last):
    ...
    ValueError: Say which card to lay, like: mu 7♥
    """
    stripped = text.strip()
    words = stripped.split(maxsplit=1)
    if not words:
        raise ValueError("Type an expression, 'mu CARD' or 'joker'.")
    if stripped.lower().rstrip("!！") in _JOKER_WORDS:
        return Joker()
    if words[0].lower() in _MU_WORDS:
        if len(words) == 1:
            raise ValueError("Say which card to lay, like: mu 7♥")
        return Mu(Card.parse(words[1]))
    if any(ch.isspace() for ch in stripped) or "," in stripped:
        try:
            cards = parse_cards(stripped)
        except CardParseError:
            pass
        else:
            if cards and not any(card.is_joker for card in cards):
                return Opening(cards)
    return DekBovinoj(stripped)


def typed(move: Move) -> str:
    """A move as a person types it in the terminal game: what :func:`parse_move` reads back.

    >>> moves = [Opening(parse_cards("9♦ 3♥")), Joker(), DekBovinoj("7 + 3"), Mu(Card.parse("7♥"))]
    >>> [typed(move) for move in moves]
    ['9♦ 3♥', 'joker', '7 + 3', 'mu 7♥']
    >>> all(parse_move(typed(move)) == move for move in moves)
    True
    """
    if isinstance(move, Opening):
        return " ".join(map(str, move.cards))
    return str(move)
