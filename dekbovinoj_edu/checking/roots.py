"""Whole roots of whole numbers, exactly: the checker's and the solver's one way to take them.

>>> whole_root(1_000_000, 3), whole_root(1_000_001, 3), whole_root(0, 2)
(100, None, 0)
>>> whole_root(3**400, 4) == 3**100  # beyond a float's precision: Newton's method on integers
True
"""

from __future__ import annotations

__all__ = ["whole_root"]

FLOAT_EXACT = 2**52
"""Below this a float's ``n ** (1 / k)`` is within one of the true root."""


def whole_root(n: int, k: int) -> int | None:
    """The ``k``-th root (``k ≥ 1``) of a whole ``n ≥ 0`` when it is whole, else ``None``."""
    if n < FLOAT_EXACT:  # the fast way, for every value within the game's bounds
        guess = round(n ** (1.0 / k))
        for candidate in (guess - 1, guess, guess + 1):
            if candidate >= 0 and candidate**k == n:
                return candidate
        return None
    root = 1 << -(-n.bit_length() // k)  # at least the root
    while True:
        better = ((k - 1) * root + n // root ** (k - 1)) // k
        if better >= root:
            break
        root = better
    return root if root**k == n else None
