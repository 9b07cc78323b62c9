"""How hard a puzzle is: the solver's figures for it, and the difficulty they give.

:func:`rate` asks the solver for a puzzle's best answers and reads off a
:class:`Rating`; its :attr:`~Rating.difficulty` is what ``deal(difficulty=...)``
asks for.

>>> rate(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)).cards   # Peter's turn
6
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from itertools import combinations

from ..rules.puzzle import Puzzle
from ..solving.solver import solve, solve_all

__all__ = [
    "ANSWERS_COUNTED",
    "EASY_MAX",
    "MEDIUM_MAX",
    "SHORT",
    "Difficulty",
    "Rating",
    "has_short_answer",
    "rate",
]


class Difficulty(Enum):
    """How hard a puzzle is to solve well, as :func:`rate` defines it."""

    EASY = "easy"
    """A score of at most :data:`EASY_MAX`: few cards, usually several ways."""
    MEDIUM = "medium"
    """A score above :data:`EASY_MAX` and at most :data:`MEDIUM_MAX`."""
    HARD = "hard"
    """A score above :data:`MEDIUM_MAX`: many cards, one way, or the joker needed."""
    ANY = "any"
    """Any puzzle with a dek bovinoj (only asked for, never rated)."""

    @classmethod
    def parse(cls, text: str | Difficulty) -> Difficulty:
        """A difficulty from its name, any case.

        >>> Difficulty.parse("Hard")
        <Difficulty.HARD: 'hard'>
        """
        if isinstance(text, Difficulty):
            return text
        try:
            return cls(text.strip().lower())
        except ValueError:
            names = ", ".join(member.value for member in cls)
            raise ValueError(f"there is no difficulty {text!r}: use one of {names}") from None


EASY_MAX = 4
"""The highest score of an easy puzzle."""
MEDIUM_MAX = 6
"""The highest score of a medium puzzle; above it a puzzle is hard."""
ANSWERS_COUNTED = 3
"""Best answers are counted up to this many (the score only asks whether there is one)."""
SHORT = 2
"""A "short" answer takes at most this many cards."""


@dataclass(frozen=True)
class Rating:
    """The solver's figures for a puzzle that has a dek bovinoj, and the difficulty they give.

    The score adds up what makes the best answer hard to find::

        score = cards + 2 × joker + 1 × (only one best answer) − 1 × short

    ``cards``: how many cards the best answer takes. ``joker``: the best
    answer needs the joker played first. ``answers``: how many distinct best
    answers there are (counted up to :data:`ANSWERS_COUNTED`). ``short``: a
    dek bovinoj of at most :data:`SHORT` cards exists without the joker
    (something to find quickly, even if it is not the best). Easy is a score
    of at most :data:`EASY_MAX`, medium at most :data:`MEDIUM_MAX`, hard
    above. Of the turns of the modelled games at level 2 about a quarter are
    easy, half medium and a quarter hard (``benchmarks/bench_deal.py`` prints
    the shares): at level 2 a player usually takes four to six cards.

    >>> r = rate(Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=2))   # Sofia's turn
    >>> r.cards, r.joker, r.short, r.score, r.difficulty.value
    (2, True, False, 5, 'medium')
    """

    cards: int
    """How many cards the best answer takes."""
    answers: int
    """How many distinct best answers there are, up to :data:`ANSWERS_COUNTED`."""
    joker: bool
    """Whether the best answer plays the joker first."""
    short: bool
    """Whether a dek bovinoj of at most :data:`SHORT` cards exists without the joker."""

    @property
    def score(self) -> int:
        """The difficulty score (see the class)."""
        return self.cards + 2 * self.joker + (self.answers == 1) - self.short

    @property
    def difficulty(self) -> Difficulty:
        """Easy, medium or hard by the score."""
        if self.score <= EASY_MAX:
            return Difficulty.EASY
        if self.score <= MEDIUM_MAX:
            return Difficulty.MEDIUM
        return Difficulty.HARD


def has_short_answer(puzzle: Puzzle, most: int = SHORT) -> bool:
    """Whether some ``most`` or fewer usable cards make a dek bovinoj, without the joker.

    >>> has_short_answer(Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=2))
    False
    >>> has_short_answer(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2))
    True
    """
    usable = puzzle.cards
    tried: set[tuple[tuple[int, bool], ...]] = set()
    for size in range(1, most + 1):
        for chosen in combinations(usable, size):
            # Cards of one rank and sign are interchangeable: ask the solver once.
            key = tuple(sorted((card.rank, card.is_positive(puzzle.flipped)) for card in chosen))
            if key in tried:
                continue
            tried.add(key)
            if solve(Puzzle((), chosen, puzzle.level, puzzle.flipped)) is not None:
                return True
    return False


def rate(puzzle: Puzzle) -> Rating | None:
    """The solver's figures and difficulty of a puzzle; ``None`` when the answer is "mu!".

    >>> rate(Puzzle.parse("5♠ | 8♥", level=1)) is None
    True
    """
    best = solve_all(puzzle, limit=ANSWERS_COUNTED)
    if not best:
        return None
    first = best[0]
    return Rating(len(first.cards), len(best), first.joker, has_short_answer(puzzle))
