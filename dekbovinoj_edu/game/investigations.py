"""The lessons' investigations of the game: what a card laid on "mu!" leaves the next player
(lesson 5), and how often a level has a dek bovinoj and how many cards its best answers take
(lesson 6).

They count with the solver, through the game's one door to it (:mod:`.oracle`), so that a
lesson imports them and not the solver: the pupils' version of a lesson counts without a line
that would hand a pupil every exercise's answer.

>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> stuck = Puzzle.parse("Q♥ 2♦ | 3♥ 9♣ 5♠", level=1)
>>> len(unseen_cards(stuck)), [chances(stuck, card) for card in stuck.barn]
(49, [6, 10, 7])
>>> from dekbovinoj_edu.rules.cards import parse_cards
>>> from dekbovinoj_edu.rules.levels import LEVELS
>>> measure(LEVELS[1], [(parse_cards("4♣ 2♠"), parse_cards("4♠ 6♣ 9♥"))])
     1:   1 of 1 hands, 3.0 cards on average
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..rules.cards import Card, full_deck
from ..rules.levels import Level
from ..rules.puzzle import Puzzle
from .oracle import best, possible

__all__ = ["Measure", "chances", "measure", "unseen_cards"]


def unseen_cards(turn: Puzzle) -> list[Card]:
    """The cards of a deck of 54 we cannot see: not on the pasture, not in our barn."""
    cards = full_deck()
    for card in (*turn.pasture, *turn.barn):
        cards.remove(card)
    return cards


def chances(turn: Puzzle, card: Card) -> int | None:
    """Of the cards we cannot see, how many would give the next player a dek bovinoj after we
    lay ``card`` (one of our barn) on the pasture, if that were the one card in their barn.

    ``None``: the pasture alone would then make 10 (a present for the next player).
    """
    after = (*turn.pasture, card)
    if possible(Puzzle(after, (), turn.level)):
        return None
    return sum(possible(Puzzle(after, (other,), turn.level)) for other in unseen_cards(turn))


@dataclass(frozen=True, repr=False)
class Measure:
    """How a level does on a set of hands: shown as the line the lesson prints."""

    level: str
    """The level's name."""
    found: int
    """How many hands have a dek bovinoj."""
    hands: int
    """How many hands were tried (with a dek bovinoj or without)."""
    cards: float
    """How many cards the best dek bovinoj takes, on average over the hands that have one."""

    def __repr__(self) -> str:
        return (
            f"{self.level:>6}: {self.found:3} of {self.hands} hands, "
            f"{self.cards:.1f} cards on average"
        )

    __str__ = __repr__


def measure(level: Level, turns: Iterable[tuple[Sequence[Card], Sequence[Card]]]) -> Measure:
    """How many of ``turns`` (pasture and barn) have a dek bovinoj at ``level``, and how many
    cards the best one takes on average: every hand counts, with a dek bovinoj or without."""
    hands = [Puzzle(tuple(pasture), tuple(barn), level) for pasture, barn in turns]
    sizes = [found.size for found in map(best, hands) if found is not None]
    return Measure(level.name, len(sizes), len(hands), sum(sizes) / max(len(sizes), 1))
