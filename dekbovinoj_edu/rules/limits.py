"""The bounds that keep every computation small, named in one place.

RULES.md, "Bounds": powers, factorials and roots are estimated before they are
computed, and anything whose result would exceed a bound is refused. A
:class:`Limits` value travels with each :class:`~dekbovinoj_edu.rules.levels.Level`,
so a house-rule level can loosen or tighten them.

>>> DEFAULT_LIMITS.max_chars, DEFAULT_LIMITS.max_magnitude
(200, 1000000)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "DEFAULT_LIMITS",
    "MAX_CARDS",
    "MAX_CHARS",
    "MAX_DEPTH",
    "MAX_EXPONENT",
    "MAX_FACTORIAL",
    "MAX_MAGNITUDE",
    "Limits",
]

MAX_CHARS = 200
"""Longest expression text read, in characters (after a trailing ``= 10`` is removed)."""
MAX_CARDS = 40
"""Most card numbers one expression may contain."""
MAX_DEPTH = 20
"""Deepest nesting of brackets, roots and factorials."""
MAX_MAGNITUDE = 10**6
"""Largest magnitude an intermediate power or factorial may reach."""
MAX_EXPONENT = 64
"""Largest exponent (in magnitude) a power may have."""
MAX_FACTORIAL = 20
"""Largest number a factorial may be taken of."""


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
