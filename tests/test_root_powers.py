"""The solver's powers of a card's nested roots against the checker's own evaluation.

:func:`~dekbovinoj_edu.solving.powers.root_power` decides without sympy (so that the static
site's solver does not fetch it) whether the checker computes ``(√…√x) ^ e`` and what it is.
Here the checker's :func:`~dekbovinoj_edu.checking.evaluate.apply` (with sympy for the roots
that are no surds) does the same, root by root, for every irrational root of every card's
chains and every exponent the limits allow whose value could be rational: they must agree, on
the value and on every refusal (a power just inside and just outside the limit included).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from dekbovinoj_edu.checking.errors import CheckError
from dekbovinoj_edu.checking.evaluate import _log10_size, apply, root_size
from dekbovinoj_edu.rules.levels import LEVELS, Op
from dekbovinoj_edu.rules.limits import DEFAULT_LIMITS, Limits
from dekbovinoj_edu.solving.powers import ROOT_DEPTH, card_roots, root_power
from dekbovinoj_edu.solving.rational import Q, root

LIMITS = LEVELS[3].limits


def checker_value(x: Q, k: int, exponent: Q, limits: Limits) -> Q | None:
    """The checker's value of the power, root by root, when it is rational."""
    try:
        value = apply(Op.SQRT, (Fraction(*x),), limits)
        for _ in range(k - 1):
            value = apply(Op.SQRT, (value,), limits)
        value = apply(Op.POW, (value, Fraction(*exponent)), limits)
    except CheckError:
        return None
    return (value.numerator, value.denominator) if isinstance(value, Fraction) else None


def candidates(x: Q, k: int, limits: Limits) -> list[Q]:
    """Every exponent p/q within the limits for which ``x ^ (p / (q·2^k))`` could be
    rational (its root of the reduced denominator exists)."""
    found = []
    for q in range(1, limits.max_exponent + 1):
        for p in range(-limits.max_exponent, limits.max_exponent + 1):
            if p == 0 or Fraction(p, q).denominator != q:
                continue
            reduced = Fraction(p, q << k)
            if root(x, reduced.denominator) is not None:
                found.append((p, q))
    return found


def roots_of_cards(limits: Limits) -> list[tuple[Q, int]]:
    return sorted({(x, k) for rank in range(14) for x, k, _ in card_roots(rank, True, limits)})


@pytest.mark.parametrize("limits", [LIMITS, Limits(max_magnitude=10**4)], ids=["level 3", "small"])
def test_every_power_of_a_cards_nested_root_is_the_checkers(limits: Limits) -> None:
    tried = rational = refused = 0
    for x, k in roots_of_cards(limits):
        assert k <= ROOT_DEPTH
        for exponent in candidates(x, k, limits):
            tried += 1
            ours = root_power(x, k, exponent, limits)
            assert ours == checker_value(x, k, exponent, limits), (x, k, exponent)
            if ours is None:
                refused += 1
            else:
                rational += 1
    assert tried > 100 and rational > 20 and refused > 5, (tried, rational, refused)


def test_a_power_at_the_limit_is_decided_as_the_checker_does() -> None:
    """√√10 ^ 24 is 10^6, the largest value there is: inside or out on a float's last digit."""
    ten = (10, 1)
    assert root_power(ten, 2, (24, 1), DEFAULT_LIMITS) == checker_value(
        ten, 2, (24, 1), DEFAULT_LIMITS
    )
    assert root_power(ten, 2, (28, 1), DEFAULT_LIMITS) is None  # 10^7


@pytest.mark.parametrize(
    "x", [Fraction(2), Fraction(10), Fraction(7, 3), Fraction(3628800), Fraction(81, 16)]
)
def test_the_size_of_a_nested_root_is_the_one_the_checker_sees(x: Fraction) -> None:
    value = x
    for k in range(5):
        assert root_size(x, k) == _log10_size(value), (x, k)
        value = apply(Op.SQRT, (value,), Limits(max_magnitude=10**40))
