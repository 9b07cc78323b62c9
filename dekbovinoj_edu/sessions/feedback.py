"""What a session says back: an answer, a "mu!" or a hint came to this, and the score so far.

The practice session, the game table and Корова 006's practice all answer a
student with a :class:`Feedback` and keep a :class:`Score`; the views show
both the same way.

>>> Feedback(FeedbackKind.MU_RIGHT, "Right: mu!").good
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..checking.checker import Verdict
    from ..rules.cards import Card

__all__ = ["UNREADABLE_CODES", "Feedback", "FeedbackKind", "Score", "move_rank"]

UNREADABLE_CODES = frozenset({"empty", "syntax", "too-long"})
"""Checker codes for input that could not be read: these cost nothing."""


def move_rank(cards: Sequence[Card], pasture: Sequence[Card], joker: bool) -> tuple[int, int, bool]:
    """A move's place in RULES.md's order of best moves: cards, then pasture cards, then no joker.

    The same order as the solver's ``Solution.rank``, so an answer can be compared with the best
    one. A card that lies both on the pasture and in the barn (two decks) counts as a pasture card.

    >>> from dekbovinoj_edu.rules.cards import parse_cards
    >>> pasture = parse_cards("2♥ 8♦")
    >>> move_rank(parse_cards("4♣ 6♠"), pasture, False), move_rank(pasture, pasture, True)
    ((2, 0, True), (2, 2, False))
    """
    left = Counter(pasture)
    from_pasture = 0
    for card in cards:
        if left[card] > 0:
            left[card] -= 1
            from_pasture += 1
    return (len(cards), from_pasture, not joker)


class FeedbackKind(Enum):
    """What an answer, a "mu!" or a hint came to."""

    SOLVED = "solved"
    """A dek bovinoj: the cards are taken."""
    MISTAKE = "mistake"
    """A readable expression the checker refused (the colour rule, a card not there…)."""
    UNREADABLE = "unreadable"
    """Input that could not be read: no penalty, try again."""
    MU_RIGHT = "mu-right"
    """A right "mu!": there is no dek bovinoj."""
    MU_WRONG = "mu-wrong"
    """A "mu!" although a dek bovinoj existed: the feedback shows what was missed."""
    HINT = "hint"
    """One step of help."""
    DONT_KNOW = "dont-know"
    """ "I don't know": the puzzle ends, not solved, and the best answer is shown (no
    penalty: the learner model scores it apart, :attr:`~..dealing.learner.Outcome.DONT_KNOW`)."""
    DONE = "done"
    """The puzzle is over; ask for a new one."""


@dataclass(frozen=True)
class Feedback:
    """What the session says after an action, in the session's language."""

    kind: FeedbackKind
    """What happened."""
    message: str
    """A short sentence for a child."""
    verdict: Verdict | None = None
    """The checker's verdict, for a submitted answer."""
    taken: int = 0
    """Cards taken by the answer (0 when none)."""
    best: int = 0
    """Cards the best answer takes (0 when there is none)."""

    @property
    def good(self) -> bool:
        """True for a dek bovinoj and for a right "mu!"."""
        return self.kind in (FeedbackKind.SOLVED, FeedbackKind.MU_RIGHT)


@dataclass
class Score:
    """The score of a session: puzzles solved, cards taken against the best, streak.

    >>> Score(solved=2, cards_taken=9, cards_possible=10, streak=2).percent
    90
    """

    puzzles: int = 0
    """Puzzles finished: solved, or ended by a "mu!"."""
    solved: int = 0
    """Puzzles solved: a dek bovinoj, or a right "mu!"."""
    cards_taken: int = 0
    """Cards taken in all answers."""
    cards_possible: int = 0
    """Cards the best answers would have taken."""
    streak: int = 0
    """Puzzles solved in a row, without a mistake."""
    best_streak: int = 0
    """The longest streak so far."""

    @property
    def percent(self) -> int:
        """Cards taken as a whole percentage of the best possible (100 when none was)."""
        if self.cards_possible == 0:
            return 100
        return round(100 * self.cards_taken / self.cards_possible)
