"""The scoring rule for one answer: accuracy and time together, and what it expects.

Math Garden (Klinkenberg, Straatemeier and van der Maas 2011; Maris and van
der Maas 2012) scores an answer by its accuracy *and* its speed, "high speed,
high stakes": with time limit ``d`` and time ``t``, a right answer scores
``1 − t/d`` and a wrong one ``−(1 − t/d)``. This module keeps the right answer's
score and gives a wrong answer the whole stake, ``−1``, whatever its time::

    S = 1 − min(t, d)/d    a right answer (a fast one scores more, one at the limit 0)
    S = −1                 a wrong answer

Why not Math Garden's score for a wrong answer: under it a *slow* wrong answer
to a puzzle that was too hard scores more than the rule expects, so it raises
the ability; here every wrong answer lowers it. Time beyond the limit counts as
the limit, so a puzzle left open for an hour scores like one answered at the
limit: the score stays within −1 and 1 and no outlier time can wreck a rating.

**The model behind the rule.** Like Maris and van der Maas, the rule comes with
the response model whose sufficient statistic it is: with ``δ`` the ability
minus the difficulty, an answer (right or wrong, and its time) has the
likelihood ``exp(δ S) / Z(δ)``, times spread uniformly over the limit when
``δ = 0``. Then

    Z(δ)    = A(δ) + e^−δ,           A(δ) = ∫₀¹ e^(δr) dr = (e^δ − 1)/δ
    P(right) = A(δ) / Z(δ)            (a half at δ = 0, rising with δ)
    E(S)    = (A′(δ) − e^−δ) / Z(δ)   the expected score, = d ln Z / dδ
    I(δ)    = Var(S)                  the information one answer gives

and the Elo update ``ability += K (S − E(S))`` (:mod:`.learner`) is the step of
gradient ascent on this likelihood: the rule, its expectation and the update
belong together.

>>> round(success_chance(0.0), 3), round(expected_score(0.0), 3)
(0.5, -0.25)
>>> success_chance(1.0) > success_chance(0.0) > success_chance(-1.0)
True
>>> score(True, seconds=2, limit=20), score(True, seconds=30, limit=20), score(False, 2, 20)
(0.9, 0.0, -1.0)
>>> round(margin_for(0.75), 2)   # ability minus difficulty for a 3-in-4 chance
0.72
"""

from __future__ import annotations

import math

__all__ = [
    "MAX_MARGIN",
    "expected_score",
    "information",
    "margin_for",
    "score",
    "success_chance",
]

MAX_MARGIN = 30.0
"""The largest ability-minus-difficulty the formulas take (beyond it, they are saturated)."""

_SERIES = 0.01
"""Below this ``|δ|`` the integrals are computed from their Taylor series (no cancellation)."""


def score(right: bool, seconds: float, limit: float) -> float:
    """The score of one answer: ``1 − min(t, d)/d`` when right, ``−1`` when wrong.

    A negative or not-a-number time counts as no time at all, an infinite one as the limit.

    >>> score(True, 0, 10), score(True, 5, 10), score(True, 3600, 10)
    (1.0, 0.5, 0.0)
    """
    if not right:
        return -1.0
    if not limit > 0:
        raise ValueError(f"a time limit is a positive number of seconds, not {limit!r}")
    if not seconds > 0:  # NaN and negative times included
        return 1.0
    return 1.0 - min(seconds, limit) / limit


def _clip(margin: float) -> float:
    return max(-MAX_MARGIN, min(MAX_MARGIN, margin))


def _moments(margin: float) -> tuple[float, float, float]:
    """``A(δ)``, ``A′(δ)`` and ``A″(δ)``: ∫₀¹ e^(δr) dr, ∫ r e^(δr) dr, ∫ r² e^(δr) dr."""
    d = _clip(margin)
    if abs(d) < _SERIES:
        return (
            1 + d / 2 + d * d / 6 + d**3 / 24,
            1 / 2 + d / 3 + d * d / 8 + d**3 / 30,
            1 / 3 + d / 4 + d * d / 10 + d**3 / 36,
        )
    e = math.exp(d)
    return (
        (e - 1) / d,
        (e * (d - 1) + 1) / (d * d),
        (e * (d * d - 2 * d + 2) - 2) / d**3,
    )


def success_chance(margin: float) -> float:
    """The chance of a right answer when the ability exceeds the difficulty by ``margin``.

    >>> round(success_chance(0.72), 2), round(success_chance(-3.0), 3)
    (0.75, 0.016)
    """
    right, _, _ = _moments(margin)
    return right / (right + math.exp(-_clip(margin)))


def expected_score(margin: float) -> float:
    """``E(S)``: the score the model expects at this margin, between −1 and 1.

    >>> -1 < expected_score(-5) < expected_score(0) < expected_score(5) < 1
    True
    """
    right, first, _ = _moments(margin)
    wrong = math.exp(-_clip(margin))
    return (first - wrong) / (right + wrong)


def information(margin: float) -> float:
    """``Var(S)``: how much one answer tells at this margin (most when it is uncertain).

    >>> information(0.5) > information(4.0) > 0
    True
    """
    right, first, second = _moments(margin)
    wrong = math.exp(-_clip(margin))
    total = right + wrong
    mean = (first - wrong) / total
    return max(0.0, (second + wrong) / total - mean * mean)


def margin_for(chance: float) -> float:
    """The margin (ability minus difficulty) at which the chance of a right answer is ``chance``.

    >>> abs(success_chance(margin_for(0.9)) - 0.9) < 1e-9
    True
    """
    if not 0.0 < chance < 1.0:
        raise ValueError(f"a chance of success is between 0 and 1, not {chance!r}")
    low, high = -MAX_MARGIN, MAX_MARGIN
    for _ in range(100):  # bisection: success_chance rises with the margin
        middle = (low + high) / 2
        if success_chance(middle) < chance:
            low = middle
        else:
            high = middle
    return (low + high) / 2
