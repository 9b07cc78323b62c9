"""The bounds that keep every computation small, named in one place.

RULES.md, "Bounds": powers, factorials and roots are estimated before they are
computed, and anything whose result would exceed a bound is refused. A
:class:`Limits` value travels with each :class:`~dekbovinoj_edu.rules.levels.Level`,
so a house-rule level can loosen or tighten them.

>>> DEFAULT_LIMITS.max_chars, DEFAULT_LIMITS.max_magnitude
(200, 1000000)

The checker and the solver both decide with the functions below whether a
power, a factorial or a root may be computed, so they accept exactly the same
expressions (:mod:`dekbovinoj_edu.checking.evaluate` and
:mod:`dekbovinoj_edu.solving.powers`):

>>> two = log10_size(2)
>>> power_fits(two, Fraction(19), DEFAULT_LIMITS), power_fits(two, Fraction(20), DEFAULT_LIMITS)
(True, False)
>>> factorial_fits(9, DEFAULT_LIMITS), factorial_fits(10, DEFAULT_LIMITS)
(True, False)
>>> largest_factorial(DEFAULT_LIMITS)
9
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "DEFAULT_LIMITS",
    "MAX_CARDS",
    "MAX_CHARS",
    "MAX_DEAL_CARDS",
    "MAX_DEPTH",
    "MAX_EXPONENT",
    "MAX_FACTORIAL",
    "MAX_MAGNITUDE",
    "Limits",
    "factorial_fits",
    "largest_factorial",
    "log10_size",
    "power_fits",
    "root_fits",
]

MAX_CHARS = 200
"""Longest expression text read, in characters (after a trailing ``= 10`` is removed)."""
MAX_CARDS = 40
"""Most card numbers one expression may contain."""
MAX_DEAL_CARDS = 24
"""Most cards (pasture and barn, jokers included) a puzzle with more than ``+`` and ``−``
may hold when it comes from outside, as a code: no turn of the simulated games at levels 2
and 3 shows more than 21, and practice deals at most 12 usable cards. Sums (``+ −`` only)
are solved in polynomial time, so their puzzles may hold ``max_cards`` cards (a level-1
game's late turns reach 43). See :attr:`~dekbovinoj_edu.rules.levels.Level.most_cards`."""
MAX_DEPTH = 20
"""Deepest nesting of brackets, roots and factorials."""
MAX_MAGNITUDE = 10**6
"""Largest magnitude an intermediate power or factorial may reach (numerator and denominator)."""
MAX_EXPONENT = 64
"""Largest exponent (in magnitude) a power may have."""
MAX_FACTORIAL = 20
"""Largest number a factorial may be taken of; the result must also stay within
``MAX_MAGNITUDE`` (so with the default bounds ``9!`` is the largest)."""


@dataclass(frozen=True)
class Limits:
    """A set of bounds; see the module constants for what each means."""

    max_chars: int = MAX_CHARS
    max_cards: int = MAX_CARDS
    max_depth: int = MAX_DEPTH
    max_magnitude: int = MAX_MAGNITUDE
    max_exponent: int = MAX_EXPONENT
    max_factorial: int = MAX_FACTORIAL


DEFAULT_LIMITS = Limits()
"""The bounds of the three levels of the rules."""


def log10_size(numerator: int, denominator: int = 1) -> float:
    """How many orders of magnitude a rational is from 1: of its numerator or denominator.

    >>> log10_size(1000), log10_size(1, 100), log10_size(0)
    (3.0, 2.0, 0.0)
    """
    top = abs(numerator)
    return max(math.log10(top) if top else 0.0, math.log10(denominator))


def power_fits(base_size: float, exponent: Fraction, limits: Limits) -> bool:
    """Whether ``base ^ exponent`` may be computed: ``base_size`` is :func:`log10_size` of
    the base. The exponent's numerator and denominator are at most ``max_exponent``, and
    the result's numerator and denominator at most ``max_magnitude``."""
    p, q = exponent.numerator, exponent.denominator
    if abs(p) > limits.max_exponent or q > limits.max_exponent:
        return False
    # abs(p) / q is float(abs(exponent)), as Fraction × float computes it.
    return abs(p) / q * base_size <= math.log10(limits.max_magnitude)


def factorial_fits(n: int, limits: Limits) -> bool:
    """Whether ``n!`` may be computed: ``0 ≤ n ≤ max_factorial`` and ``n! ≤ max_magnitude``."""
    return 0 <= n <= limits.max_factorial and math.factorial(n) <= limits.max_magnitude


def largest_factorial(limits: Limits) -> int:
    """The largest ``n`` whose factorial :func:`factorial_fits`."""
    n = 0
    while factorial_fits(n + 1, limits):
        n += 1
    return n


def root_fits(size: float, limits: Limits) -> bool:
    """Whether a square root of a number of :func:`log10_size` ``size`` may be worked out:
    at most ``max_magnitude`` squared."""
    return size <= 2 * math.log10(limits.max_magnitude)
