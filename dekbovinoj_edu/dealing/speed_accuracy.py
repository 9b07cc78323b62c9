"""The scoring rule for one answer: accuracy first, time a small bonus, and what it expects.

Math Garden (Klinkenberg, Straatemeier and van der Maas 2011; Maris and van
der Maas 2012) scores an answer by its accuracy *and* its speed, "high speed,
high stakes": with time limit ``d`` and time ``t``, a right answer scores
``1 − t/d`` and a wrong one ``−(1 − t/d)``. Children cannot see that clock here,
and a child's right answer takes several times an adult's, so this rule puts
accuracy first and gives time a small bonus, :data:`TIME_WEIGHT` (``w``) of a point::

    S = 1 − w × min(t, d)/d    a right answer (between 1 − w, at the limit, and 1)
    S = −1                     a wrong answer

A slow right answer still scores far above any wrong one, so "slow but right" is
never taken for "weak" (with ``w = 1`` the rule would be Math Garden's for a right
answer, where one at the limit scores 0, like a guess). Time beyond the limit
counts as the limit: the score stays within −1 and 1 and no outlier time can
wreck a rating.

**The model behind the rule.** Like Maris and van der Maas, the rule comes with
the response model whose sufficient statistic it is: with ``δ`` the ability
minus the difficulty, an answer (right or wrong, and its time) has the
likelihood ``exp(δ S) / Z(δ)``, times spread uniformly over the limit when
``δ = 0``. With ``M_k(δ) = ∫₀¹ S(u)^k e^(δ S(u)) du`` over the share ``u`` of the
limit taken, ``S(u) = 1 − w u``:

    Z(δ)    = M₀(δ) + e^−δ
    P(right) = M₀(δ) / Z(δ)             (a half at δ = 0, rising with δ)
    E(S)    = (M₁(δ) − e^−δ) / Z(δ)     the expected score, = d ln Z / dδ
    I(δ)    = Var(S)                    the information one answer gives

and the Elo update ``ability += K (S − E(S))`` (:mod:`.learner`) is the step of
gradient ascent on this likelihood: the rule, its expectation and the update
belong together. As ``w`` shrinks, ``P(right)`` tends to the logistic curve of ``2δ``.

>>> round(success_chance(0.0), 3), round(expected_score(0.0), 3)
(0.5, -0.05)
>>> success_chance(1.0) > success_chance(0.0) > success_chance(-1.0)
True
>>> score(True, seconds=2, limit=20), score(True, seconds=30, limit=20), score(False, 2, 20)
(0.98, 0.8, -1.0)
>>> round(margin_for(0.75), 2)   # ability minus difficulty for a 3-in-4 chance
0.58
"""

from __future__ import annotations

import math

__all__ = [
    "MAX_MARGIN",
    "TIME_WEIGHT",
    "expected_score",
    "information",
    "margin_for",
    "score",
    "success_chance",
]

MAX_MARGIN = 30.0
"""The largest ability-minus-difficulty the formulas take (beyond it, they are saturated)."""

TIME_WEIGHT = 0.2
"""The most a right answer's time takes off its score: one at the limit scores ``1 − w``.
Accuracy first: children's times, several times an adult's and spread widely, move the
ability little (with 1, the whole point, a child's right answers at 65 % of an adult's limit
lowered the ability a quarter of the time; issue 39)."""

_SERIES = 0.05
"""Below this ``|δ w|`` the integrals are computed from their Taylor series (no cancellation)."""
_TERMS = 8
"""Terms of that series (the first left out is below 10⁻¹⁴)."""


def score(right: bool, seconds: float, limit: float) -> float:
    """The score of one answer: ``1 − w min(t, d)/d`` when right, ``−1`` when wrong.

    A negative or not-a-number time counts as no time at all, an infinite one as the limit.

    >>> score(True, 0, 10), score(True, 5, 10), score(True, 3600, 10)
    (1.0, 0.9, 0.8)
    """
    if not right:
        return -1.0
    if not limit > 0:
        raise ValueError(f"a time limit is a positive number of seconds, not {limit!r}")
    if not seconds > 0:  # NaN and negative times included
        return 1.0
    return 1.0 - TIME_WEIGHT * min(seconds, limit) / limit


def _clip(margin: float) -> float:
    return max(-MAX_MARGIN, min(MAX_MARGIN, margin))


def _tilted(y: float) -> tuple[float, float, float]:
    """``h_j(y) = ∫₋₁⁰ t^j e^(y t) dt`` for j = 0, 1, 2 (the series near 0: no cancellation)."""
    if abs(y) < _SERIES:
        terms = [(y**n / math.factorial(n), (-1) ** n) for n in range(_TERMS)]
        return (
            sum(c * sign / (n + 1) for n, (c, sign) in enumerate(terms)),
            sum(-c * sign / (n + 2) for n, (c, sign) in enumerate(terms)),
            sum(c * sign / (n + 3) for n, (c, sign) in enumerate(terms)),
        )
    e = math.exp(-y)
    return (
        (1 - e) / y,
        -1 / y**2 + e * (1 / y + 1 / y**2),
        2 / y**3 - e * (1 / y + 2 / y**2 + 2 / y**3),
    )


def _moments(margin: float) -> tuple[float, float, float, float]:
    """``M₀``, ``M₁``, ``M₂`` and the wrong answer's ``e^−δ``, all divided by ``e^δ`` (so
    nothing overflows within :data:`MAX_MARGIN`)."""
    d = _clip(margin)
    w = TIME_WEIGHT
    h0, h1, h2 = _tilted(d * w)
    g0, g1, g2 = h0, w * h1, w * w * h2  # ∫ x^j e^(δx) dx / w over x = S − 1 in [−w, 0]
    return g0, g0 + g1, g0 + 2 * g1 + g2, math.exp(-2 * d)


def success_chance(margin: float) -> float:
    """The chance of a right answer when the ability exceeds the difficulty by ``margin``.

    >>> round(success_chance(0.58), 2), round(success_chance(-3.0), 3)
    (0.75, 0.003)
    """
    right, _, _, wrong = _moments(margin)
    return right / (right + wrong)


def expected_score(margin: float) -> float:
    """``E(S)``: the score the model expects at this margin, between −1 and 1.

    >>> -1 < expected_score(-5) < expected_score(0) < expected_score(5) < 1
    True
    """
    right, first, _, wrong = _moments(margin)
    return (first - wrong) / (right + wrong)


def information(margin: float) -> float:
    """``Var(S)``: how much one answer tells at this margin (most when it is uncertain).

    >>> information(0.5) > information(4.0) > 0
    True
    """
    right, first, second, wrong = _moments(margin)
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
