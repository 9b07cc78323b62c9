"""The 104 cards of Корова 006 and their penalty points ("cow heads").

The original rules do not list the points; the project uses the classic
distribution (RULES.md, "Корова 006"): 55 is worth 7, the other multiples of
11 are worth 5, multiples of 10 are worth 3, the other multiples of 5 are
worth 2, and every other card is worth 1. A card is simply its number.

>>> penalty(55), penalty(44), penalty(30), penalty(15), penalty(7)
(7, 5, 3, 2, 1)
>>> sum(penalty(card) for card in DECK)
171
>>> points([55, 20, 13])
11
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "DECK",
    "DECK_POINTS",
    "HAND_SIZE",
    "HIGHEST",
    "LOSING_TOTAL",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "ROWS",
    "ROW_LIMIT",
    "NotACardError",
    "check_card",
    "penalty",
    "points",
]

HIGHEST = 104
"""The highest card; the cards are 1 to 104, each once."""
DECK: tuple[int, ...] = tuple(range(1, HIGHEST + 1))
"""Every card, lowest first."""
DECK_POINTS = 171
"""The penalty points of the whole deck (a test recounts them)."""
ROWS = 4
"""How many rows lie on the table."""
ROW_LIMIT = 5
"""The most cards a row holds: the sixth cow takes the row (rule 3)."""
HAND_SIZE = 10
"""Cards dealt to each player per round; a round is this many turns."""
LOSING_TOTAL = 66
"""The game ends after the round in which someone reaches this many points."""
MIN_PLAYERS = 2
"""The fewest players."""
MAX_PLAYERS = 10
"""The most players (10 hands of 10 and 4 rows use 104 cards exactly)."""


class NotACardError(ValueError):
    """A number that is not a card of the deck (cards are 1 to 104).

    >>> NotACardError(105).code
    'not-a-card'
    """

    code = "not-a-card"
    """A stable, machine-readable name of the failure."""

    def __init__(self, card: object) -> None:
        self.card = card
        """The refused value."""
        super().__init__(f"{card!r} is not a card: cards are 1 to {HIGHEST}")


def check_card(card: object) -> int:
    """The card itself, or :class:`NotACardError` for anything but an int from 1 to 104.

    >>> check_card(104)
    104
    >>> check_card(0)
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.korova.rules.cards.NotACardError: 0 is not a card: cards are 1 to 104
    """
    if isinstance(card, bool) or not isinstance(card, int) or not 1 <= card <= HIGHEST:
        raise NotACardError(card)
    return card


def penalty(card: int) -> int:
    """The penalty points ("cow heads") of a card.

    >>> [penalty(card) for card in (11, 22, 55, 66, 100, 105 - 1)]
    [5, 5, 7, 5, 3, 1]
    """
    check_card(card)
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


_WORTH: dict[int, int] = {card: penalty(card) for card in DECK}


def points(cards: Iterable[int]) -> int:
    """The penalty points of some cards together (a row, a penalty pile)."""
    total = 0
    for card in cards:
        worth = _WORTH.get(card) if not isinstance(card, bool) else None
        if worth is None:
            raise NotACardError(card)
        total += worth
    return total
