"""Exact rationals as integer pairs ``(numerator, denominator)``, for the solver's inner loop.

Python's :class:`fractions.Fraction` is exact but slow to create; the solver
adds and multiplies millions of small numbers, so it keeps them as reduced
pairs with a positive denominator instead.

>>> add((1, 2), (1, 3)), mul((2, 3), (-3, 4)), div((1, 2), (-1, 4))
((5, 6), (-1, 2), (-2, 1))
>>> power((2, 3), 3, 1000), power((2, 1), 30, 10**6)
((8, 27), None)
>>> root((9, 4), 2), root((-8, 1), 3), root((2, 1), 2)
((3, 2), (-2, 1), None)
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..checking.roots import whole_root

__all__ = [
    "ONE",
    "ZERO",
    "Q",
    "add",
    "div",
    "factorial_of",
    "from_fraction",
    "mul",
    "neg",
    "power",
    "q",
    "root",
    "sub",
    "to_fraction",
]

Q = tuple[int, int]
"""A rational ``(numerator, denominator)``: reduced, denominator positive."""

ZERO: Q = (0, 1)
ONE: Q = (1, 1)


def q(n: int, d: int = 1) -> Q:
    """The reduced pair of ``n / d`` (``d`` not zero).

    >>> q(6, -4)
    (-3, 2)
    """
    if d < 0:
        n, d = -n, -d
    g = math.gcd(n, d)
    return (n // g, d // g) if g > 1 else (n, d)


def add(a: Q, b: Q) -> Q:
    """``a + b``."""
    if a[1] == 1 and b[1] == 1:
        return (a[0] + b[0], 1)
    return q(a[0] * b[1] + b[0] * a[1], a[1] * b[1])


def sub(a: Q, b: Q) -> Q:
    """``a − b``."""
    if a[1] == 1 and b[1] == 1:
        return (a[0] - b[0], 1)
    return q(a[0] * b[1] - b[0] * a[1], a[1] * b[1])


def neg(a: Q) -> Q:
    """``−a``."""
    return (-a[0], a[1])


def mul(a: Q, b: Q) -> Q:
    """``a × b``."""
    if a[1] == 1 and b[1] == 1:
        return (a[0] * b[0], 1)
    return q(a[0] * b[0], a[1] * b[1])


def div(a: Q, b: Q) -> Q:
    """``a ÷ b`` (``b`` not zero)."""
    return q(a[0] * b[1], a[1] * b[0])


def power(base: Q, exponent: int, bound: int) -> Q | None:
    """``base ^ exponent`` when numerator and denominator stay within ``bound``, else ``None``.

    The size is estimated before anything is computed; ``0`` to a power
    below 1 is ``None`` too.
    """
    n, d = base
    if exponent < 0:
        if n == 0:
            return None
        n, d, exponent = d, n, -exponent
        if d < 0:
            n, d = -n, -d
    if exponent == 0:
        return None if n == 0 else (1, 1)
    limit_bits = bound.bit_length()
    for part in (n, d):
        if abs(part) > 1 and (abs(part).bit_length() - 1) * exponent > limit_bits:
            return None
    n, d = n**exponent, d**exponent
    if abs(n) > bound or d > bound:
        return None
    return (n, d)


def root(x: Q, k: int) -> Q | None:
    """The real ``k``-th root of ``x`` when it is rational (``k ≥ 1``); for even ``k`` the
    non-negative one. ``None`` when there is none."""
    n, d = x
    if n < 0 and k % 2 == 0:
        return None
    rn, rd = whole_root(abs(n), k), whole_root(d, k)
    if rn is None or rd is None:
        return None
    return (-rn if n < 0 else rn, rd)


def factorial_of(x: Q, max_n: int) -> int | None:
    """The ``n`` (0 or 3 to ``max_n``) with ``n! = x``, or ``None``.

    >>> factorial_of((24, 1), 20), factorial_of((1, 1), 20), factorial_of((5, 1), 20)
    (4, 0, None)
    """
    n, d = x
    if d != 1 or n < 1:
        return None
    if n == 1:
        return 0
    f, i = 2, 2
    while f < n and i < max_n:
        i += 1
        f *= i
    return i if f == n and i >= 3 else None


def to_fraction(x: Q) -> Fraction:
    """The pair as a :class:`~fractions.Fraction`."""
    return Fraction(x[0], x[1])


def from_fraction(x: Fraction | int) -> Q:
    """A :class:`~fractions.Fraction` (or int) as a pair."""
    x = Fraction(x)
    return (x.numerator, x.denominator)
