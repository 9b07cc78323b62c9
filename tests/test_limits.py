"""One set of bounds: the checker and the solver decide every power, root and factorial alike.

Both read :mod:`dekbovinoj_edu.rules.limits` (``power_fits``, ``factorial_fits``,
``root_fits``): the checker in :mod:`~dekbovinoj_edu.checking.evaluate`, the solver
in :mod:`~dekbovinoj_edu.solving.powers`. These tests compute the same
operations both ways.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from dekbovinoj_edu import Limits, Puzzle, VerdictCode, check, solve
from dekbovinoj_edu.checking.errors import CheckError
from dekbovinoj_edu.checking.evaluate import evaluate
from dekbovinoj_edu.checking.expression import (
    BinaryNode,
    CardNode,
    FactorialNode,
    SignNode,
    SqrtNode,
)
from dekbovinoj_edu.rules.levels import Op
from dekbovinoj_edu.rules.limits import DEFAULT_LIMITS
from dekbovinoj_edu.solving.powers import factorial_value, rational_power, square_root


def number(x: Fraction) -> BinaryNode | CardNode | SignNode:
    """A checker tree worth exactly ``x``."""
    top: BinaryNode | CardNode = CardNode(abs(x.numerator))
    if x.denominator != 1:
        top = BinaryNode(Op.DIV, top, CardNode(x.denominator))
    return SignNode(Op.SUB, top) if x < 0 else top


def checker_value(tree, limits: Limits) -> Fraction | None:
    """The checker's value when it computes one and it is rational, else ``None``."""
    try:
        value = evaluate(tree, limits)
    except CheckError:
        return None
    return value if isinstance(value, Fraction) else None


BASES = [
    Fraction(n, d) for n in (-13, -8, -2, -1, 0, 1, 2, 3, 4, 9, 10, 27, 64, 1000) for d in (1, 4)
]
EXPONENTS = [
    Fraction(n, d) for n in (-65, -20, -3, -1, 0, 1, 2, 3, 6, 19, 20, 64, 65) for d in (1, 2, 3)
]


@pytest.mark.parametrize("limits", [DEFAULT_LIMITS, Limits(max_magnitude=10**4, max_exponent=6)])
def test_powers_are_computed_by_both_or_by_neither(limits: Limits) -> None:
    for base in BASES:
        for exponent in EXPONENTS:
            tree = BinaryNode(Op.POW, number(base), number(exponent))
            theirs = checker_value(tree, limits)
            mine = rational_power(
                (base.numerator, base.denominator),
                (exponent.numerator, exponent.denominator),
                limits,
            )
            assert (None if mine is None else Fraction(*mine)) == theirs, (base, exponent)


@pytest.mark.parametrize(
    "limits", [DEFAULT_LIMITS, Limits(max_factorial=5), Limits(max_magnitude=10**8)]
)
def test_factorials_are_computed_by_both_or_by_neither(limits: Limits) -> None:
    for n in range(0, 25):
        theirs = checker_value(FactorialNode(CardNode(n)), limits)
        mine = factorial_value((n, 1), limits)
        assert (None if mine is None else Fraction(*mine)) == theirs, n


def test_roots_are_computed_by_both_or_by_neither() -> None:
    for x in [
        Fraction(0),
        Fraction(9, 4),
        Fraction(2),
        Fraction(10**12),
        Fraction(10**12 + 2 * 10**6 + 1),
    ]:
        theirs = checker_value(SqrtNode(number(x)), DEFAULT_LIMITS)
        mine = square_root((x.numerator, x.denominator), DEFAULT_LIMITS)
        assert (None if mine is None else Fraction(*mine)) == theirs, x


def test_a_factorial_beyond_the_largest_magnitude_is_too_big() -> None:
    """K! ÷ Q! − 3 = 10, but 13! is far beyond 10⁶: refused, and the solver never uses it."""
    puzzle = Puzzle.parse("K♣ Q♦ 3♦", level=3)
    verdict = check(puzzle, "K! ÷ Q! − 3")
    assert verdict.code is VerdictCode.TOO_BIG
    assert "9!" in verdict.sentence
    best = solve(puzzle)
    assert best is not None and check(puzzle, best.expression).ok


def test_nine_factorial_is_the_largest_and_is_allowed() -> None:
    puzzle = Puzzle.parse("9♣ 8♦ 2♣", level=3)
    assert check(puzzle, "9! ÷ 8! + 2 − 1").code is VerdictCode.NO_SUCH_CARD  # no ace: 9 + 2 − 1
    assert check(puzzle, "9! ÷ 8! + 2 × 2").code is VerdictCode.CARD_REUSED
    assert check(Puzzle.parse("9♣ 8♦ A♣", level=3), "9! ÷ 8! + A").ok


def test_zero_to_the_power_zero_is_undefined() -> None:
    """RULES.md (the package's summary): 0⁰ has no value; x⁰ = 1 for any other x."""
    puzzle = Puzzle.parse("K♣ K♦ 5♣ 5♦ 10♣", level=3)
    assert check(puzzle, "(K − K) ^ (5 − 5) × 10").code is VerdictCode.UNDEFINED
    assert check(Puzzle.parse("K♣ K♦ 10♣ 3♣", level=3), "3 ^ (K − K) × 10").ok
    assert rational_power((0, 1), (0, 1), DEFAULT_LIMITS) is None
    assert rational_power((3, 1), (0, 1), DEFAULT_LIMITS) == (1, 1)
