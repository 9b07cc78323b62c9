"""How hard a puzzle is: a difficulty measure fitted to how long people take to solve.

:func:`rate` reads the solver's figures about a puzzle's best answers
(:mod:`.features`) and weighs them with coefficients fitted to the mean solve
times of players of the 24 game (:mod:`.fitting`, kept in
``data/difficulty.json``). The :attr:`Rating.score` is the predicted time in
seconds: higher is harder. Its :attr:`~Rating.difficulty` is what
``deal(difficulty=...)`` asks for.

>>> peter = rate(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2))   # Peter's turn
>>> peter.cards, peter.difficulty.value
(6, 'medium')
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path

from ..rules.puzzle import Puzzle
from .features import ANSWERS_COUNTED, FEATURE_NAMES, Features, features

__all__ = [
    "ANSWERS_COUNTED",
    "CARD_WEIGHT",
    "COEFFICIENTS",
    "EASY_MAX",
    "JOKER_WEIGHT",
    "MEDIUM_MAX",
    "Difficulty",
    "Rating",
    "coefficients",
    "rate",
    "score_of",
]

COEFFICIENTS = Path(__file__).parent / "data" / "difficulty.json"
"""The fitted coefficients (written by ``python scripts/fit_difficulty.py``)."""

CARD_WEIGHT = 0.25
"""Added to ln(seconds) for each card the best answer takes beyond the 24 game's four (and
taken off for each card fewer). Every hand of the 24 game takes four cards, so this weight
cannot be fitted there: it is set by hand (each card more, about 1.3 times the time)."""
JOKER_WEIGHT = 0.5
"""Added to ln(seconds) when the best answer needs the joker played first (about 1.6 times
the time: seeing that the joker helps is a step of its own). Set by hand, like
:data:`CARD_WEIGHT`: the 24 game has no joker."""

EASY_MAX = 3.0
"""The highest score (predicted seconds) of an easy puzzle."""
MEDIUM_MAX = 10.0
"""The highest score of a medium puzzle; above it a puzzle is hard."""


class Difficulty(Enum):
    """How hard a puzzle is to solve well: a band of :attr:`Rating.score`."""

    EASY = "easy"
    """A score of at most :data:`EASY_MAX` seconds: a quick sum or product, several ways."""
    MEDIUM = "medium"
    """A score above :data:`EASY_MAX` and at most :data:`MEDIUM_MAX` seconds."""
    HARD = "hard"
    """A score above :data:`MEDIUM_MAX` seconds: big numbers, fractions, one way, the joker."""
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

    @classmethod
    def of(cls, score: float) -> Difficulty:
        """The band a score falls in.

        >>> Difficulty.of(2.0).value, Difficulty.of(3.5).value, Difficulty.of(40).value
        ('easy', 'medium', 'hard')
        """
        if score <= EASY_MAX:
            return cls.EASY
        if score <= MEDIUM_MAX:
            return cls.MEDIUM
        return cls.HARD


@cache
def coefficients() -> tuple[float, ...]:
    """The fitted intercept and the weights of :data:`~.features.FEATURE_NAMES`, in order."""
    fitted = json.loads(COEFFICIENTS.read_text(encoding="utf-8"))
    if tuple(fitted["features"]) != FEATURE_NAMES:
        raise ValueError(f"{COEFFICIENTS.name} was fitted to other features: refit it")
    return (fitted["intercept"], *(fitted["weights"][name] for name in FEATURE_NAMES))


def score_of(found: Features) -> float:
    """The predicted seconds to solve a puzzle with these features (see :class:`Rating`)."""
    weights = coefficients()
    fitted = weights[0] + sum(w * x for w, x in zip(weights[1:], found.vector(), strict=True))
    return math.exp(fitted + CARD_WEIGHT * (found.cards - 4) + JOKER_WEIGHT * found.joker)


@dataclass(frozen=True)
class Rating:
    """The solver's figures about a puzzle's best answers, the score and difficulty they give.

    The score is the time in seconds people are predicted to take to find a
    best answer::

        ln(score) = intercept + Σ weight × feature
                    + CARD_WEIGHT × (cards − 4) + JOKER_WEIGHT × joker

    The features (:class:`~.features.Features`) and their weights, fitted to
    681 hands of the 24 game: ln(distinct best answers) (−), every answer
    through a fraction (+), ln(the largest number along the way) (+), the
    nesting depth (+), a part that changes nothing such as ``× A`` (−), the
    number of different ranks (+), aces (−). On hands the fit never saw, the
    score's Spearman correlation with the players' mean time is 0.68 (10-fold
    cross-validation; ``python scripts/fit_difficulty.py``). The card and
    joker weights are set by hand (the 24 game always takes four cards and
    has no joker).

    The bands: **easy** up to :data:`EASY_MAX` (3 s), **medium** up to
    :data:`MEDIUM_MAX` (10 s), **hard** above. Of the recorded level-2 turns
    about a quarter are easy, half medium and a quarter hard
    (``benchmarks/bench_deal.py`` prints the shares).

    >>> r = rate(Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=2))   # Sofia's turn
    >>> r.cards, r.joker, r.answers, r.difficulty.value
    (2, True, 1, 'easy')
    """

    features: Features
    """The solver's figures the score is made of."""
    score: float
    """The predicted seconds to solve: higher is harder."""

    @property
    def cards(self) -> int:
        """How many cards the best answer takes."""
        return self.features.cards

    @property
    def answers(self) -> int:
        """How many distinct best answers there are, up to :data:`ANSWERS_COUNTED`."""
        return self.features.answers

    @property
    def joker(self) -> bool:
        """Whether the best answer plays the joker first."""
        return self.features.joker

    @property
    def difficulty(self) -> Difficulty:
        """Easy, medium or hard by the score."""
        return Difficulty.of(self.score)


def rate(puzzle: Puzzle) -> Rating | None:
    """The difficulty of a puzzle; ``None`` when the answer is "mu!".

    >>> rate(Puzzle.parse("5♠ | 8♥", level=1)) is None
    True
    >>> easy, hard = (Puzzle.parse(t, level=2) for t in ("| 5♣ 5♠", "6♣ 2♦ 7♥ | 9♠ 4♣"))
    >>> rate(easy).score < rate(hard).score
    True
    """
    found = features(puzzle)
    return None if found is None else Rating(found, score_of(found))
