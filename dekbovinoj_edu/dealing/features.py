"""What makes a puzzle hard for people: features the solver can compute from the best answers.

:func:`features` reads a puzzle's best answers (:func:`~.solving.solver.normal_forms`)
and returns :class:`Features`: how many distinct answers there are, whether
every one passes through a fraction, how big the numbers along the way get,
how deeply the brackets nest, whether some part of an answer does nothing
(``× A``, a bracket worth 0 added), how many different ranks and how many aces
the cards hold, how many cards the answer takes and whether the joker is
needed. :mod:`.rating` weighs them with coefficients fitted to how long
people took to solve hands of the 24 game (:mod:`.fitting`).

>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> f = features(Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2))   # Peter's turn
>>> f.answers, f.cards, f.all_fractions, f.largest, f.depth, f.joker
(22, 6, False, Fraction(10, 1), 2, False)
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..rules.cards import Card
from ..rules.puzzle import Puzzle
from ..solving.normal_form import (
    Neg,
    Node,
    Num,
    Product,
    Sum,
    cards_of,
    value,
)
from ..solving.solver import Solution, normal_forms
from .answer_facts import parts_of, passes_through_fraction

__all__ = ["ANSWERS_COUNTED", "FEATURE_NAMES", "Features", "answer_depth", "features", "idles"]

ANSWERS_COUNTED = 25
"""Distinct best answers are counted up to this many: a 24-game hand has at most 21, and
listing more costs time (the listing grows with the count) for a small change of score."""

FEATURE_NAMES: tuple[str, ...] = (
    "log_answers",
    "all_fractions",
    "log_largest",
    "depth",
    "idle",
    "ranks",
    "aces",
)
"""The fitted features, in the order of the coefficients (see :meth:`Features.vector`)."""


def _nodes(node: Node) -> Iterator[Node]:
    yield node
    for child in parts_of(node):
        yield from _nodes(child)


def answer_depth(node: Node) -> int:
    """How deeply sums and products nest: 0 for one card, 1 for a plain sum, 2 for ``a + b × c``.

    >>> from dekbovinoj_edu.solving.normal_form import Num, Sum, Product
    >>> answer_depth(Num(10)), answer_depth(Sum(((Num(3), False), (Num(7), False))))
    (0, 1)
    """
    parts = parts_of(node)
    if isinstance(node, Neg):  # a sign is no level of brackets
        return answer_depth(node.inner)
    return 1 + max(answer_depth(child) for child in parts) if parts else 0


def idles(node: Node) -> int:
    """Parts of an answer that change nothing: a factor worth 1, a term worth 0.

    >>> from dekbovinoj_edu.solving.normal_form import Num, Product
    >>> idles(Product(((Num(10), False), (Num(1), True))))   # 10 ÷ A
    1
    """
    found = 0
    if isinstance(node, Product):
        found += sum(1 for child, _ in node.factors if _exact(child) == 1)
    elif isinstance(node, Sum):
        found += sum(1 for child, _ in node.terms if _exact(child) == 0)
    return found + sum(idles(child) for child in parts_of(node))


def _exact(node: Node) -> Fraction | None:
    """A part's exact value, or ``None`` for an irrational one (a root in ``−√12♦ × √3♣``)."""
    try:
        return value(node)
    except ValueError:
        return None


def _largest(node: Node) -> Fraction:
    """The largest size (absolute value) of the answer or of a part of it, among those with a
    rational value (the search's steps are rational, but for two roots under a red card)."""
    parts = (part for part in _nodes(node) if not isinstance(part, Num) or part is node)
    sizes = [abs(found) for part in parts if (found := _exact(part)) is not None]
    return max(sizes, default=Fraction(0))


@dataclass(frozen=True)
class Features:
    """The solver's figures about a puzzle's best answers that say how hard it is to find one."""

    answers: int
    """How many distinct best answers there are (up to :data:`ANSWERS_COUNTED`)."""
    all_fractions: bool
    """Whether every best answer passes through a fraction."""
    largest: Fraction
    """The smallest, over the best answers, of the largest number along the way."""
    depth: int
    """The smallest, over the best answers, of how deeply brackets nest."""
    idle: bool
    """Whether some best answer has a part that changes nothing (``× A``, ``+ (3 − 3)``)."""
    ranks: int
    """The fewest different ranks among the cards of a best answer."""
    aces: int
    """The most aces among the cards of a best answer."""
    cards: int
    """How many cards the best answer takes."""
    joker: bool
    """Whether the best answer needs the joker played first."""

    def vector(self) -> tuple[float, ...]:
        """The fitted features as numbers, in the order of :data:`FEATURE_NAMES`."""
        return (
            math.log(self.answers),
            float(self.all_fractions),
            math.log(max(float(self.largest), 1.0)),
            float(self.depth),
            float(self.idle),
            float(self.ranks),
            float(self.aces),
        )


def _ranks(cards: Sequence[Card]) -> set[int]:
    return {card.rank for card in cards}


def features_of(answers: Sequence[Solution]) -> Features:
    """The features of a puzzle from its best answers (at least one)."""
    trees = [answer.tree for answer in answers if answer.tree is not None]
    return Features(
        answers=len(answers),
        all_fractions=all(passes_through_fraction(tree) for tree in trees),
        largest=min(_largest(tree) for tree in trees),
        depth=min(answer_depth(tree) for tree in trees),
        idle=any(idles(tree) for tree in trees),
        ranks=min(len(_ranks(cards_of(tree))) for tree in trees),
        aces=max(sum(1 for card in cards_of(tree) if card.rank == 1) for tree in trees),
        cards=answers[0].size,
        joker=answers[0].joker,
    )


def features(puzzle: Puzzle) -> Features | None:
    """The features of a puzzle's best answers; ``None`` when the answer is "mu!"."""
    answers = normal_forms(puzzle, limit=ANSWERS_COUNTED)
    return features_of(answers) if answers else None
