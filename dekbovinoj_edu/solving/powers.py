"""Powers, roots and factorials of exact rationals, within the bounds the checker uses.

Every decision here goes through :mod:`dekbovinoj_edu.rules.limits`
(``power_fits``, ``factorial_fits``, ``root_fits``), the functions the
checker's :mod:`~dekbovinoj_edu.checking.evaluate` calls too, so the solver
computes a power, root or factorial exactly when the checker would. Only
rational results are kept (the solver's space, see
:mod:`dekbovinoj_edu.solving.search_general`).

>>> from dekbovinoj_edu.rules.limits import DEFAULT_LIMITS as L
>>> rational_power((4, 1), (1, 2), L), rational_power((2, 1), (-3, 1), L)
((2, 1), (1, 8))
>>> rational_power((0, 1), (0, 1), L) is None  # 0 ^ 0 is undefined (RULES.md)
True
>>> [(v, ops) for v, ops in closure((9, 1), True, True, L)]
[((9, 1), ''), ((3, 1), '√'), ((362880, 1), '!'), ((6, 1), '√!'), ((720, 1), '√!!')]
>>> sorted(preimages((6, 1), True, True, L))[:4]  # 3! = √36 = (√9)! = 6 ...
[((3, 1), '!'), ((6, 1), ''), ((9, 1), '√!'), ((36, 1), '√')]
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache

from ..checking.evaluate import root_size
from ..rules.limits import Limits, factorial_fits, log10_size, power_fits, root_fits
from .rational import ONE, ZERO, Q, root

__all__ = [
    "card_chains",
    "card_roots",
    "closure",
    "exponents_to",
    "factorial_value",
    "preimages",
    "rational_power",
    "root_exponents",
    "root_power",
    "square_root",
]

_MAX_CHAIN = 12
"""A bound on the length of a chain of roots and factorials that is searched backwards
(values repeat long before: every chain of a value ends in a cycle ``1 → 1``)."""


@lru_cache(maxsize=1 << 16)
def rational_power(base: Q, exponent: Q, limits: Limits) -> Q | None:
    """``base ^ exponent`` when the checker computes it and it is rational, else ``None``."""
    p, q = exponent
    if abs(p) > limits.max_exponent or q > limits.max_exponent:
        return None
    if base[0] == 0:
        return ZERO if p > 0 else None  # 0 ^ 0 undefined, 0 ^ −n divides by zero
    if p == 0:
        return ONE
    if q > 1 and base[0] < 0:
        return None
    if not power_fits(log10_size(*base), Fraction(p, q), limits):
        return None
    r = root(base, q) if q > 1 else base
    if r is None:
        return None
    n, d = r
    if p < 0:
        n, d, p = d, n, -p
        if d < 0:
            n, d = -n, -d
    return (n**p, d**p)


def square_root(x: Q, limits: Limits) -> Q | None:
    """``√x`` when the checker works it out and it is rational."""
    if x[0] < 0 or not root_fits(log10_size(*x), limits):
        return None
    return root(x, 2)


def factorial_value(x: Q, limits: Limits) -> Q | None:
    """``x!`` when the checker computes it."""
    if x[1] != 1 or not factorial_fits(x[0], limits):
        return None
    return (math.factorial(x[0]), 1)


def closure(x: Q, sqrt: bool, fact: bool, limits: Limits) -> list[tuple[Q, str]]:
    """Every value a chain of ``√`` and ``!`` (in any order, brackets between) makes of
    ``x``, each with one shortest chain (``"√!"``: first the root, then the factorial)."""
    found: dict[Q, str] = {x: ""}
    todo = [x]
    while todo:
        value = todo.pop(0)
        ops = found[value]
        for op, result in _steps(value, sqrt, fact, limits):
            if result is not None and result not in found:
                found[result] = ops + op
                todo.append(result)
    return list(found.items())


def _steps(x: Q, sqrt: bool, fact: bool, limits: Limits) -> Iterator[tuple[str, Q | None]]:
    if sqrt:
        yield "√", square_root(x, limits)
    if fact:
        yield "!", factorial_value(x, limits)


def card_chains(rank: int, sqrt: bool, fact: bool, limits: Limits) -> list[tuple[Q, str]]:
    """The values of a card under roots then factorials, ``(√…√r)!…!``: the brackets are
    notation, so a red card takes them after ``−`` and ``÷`` too (``÷ (√9♥)!``). A root
    after a factorial leaves nothing rational out: no factorial but ``1!`` is a square."""
    found: dict[Q, str] = {}
    value: Q | None = (rank, 1)
    roots = ""
    while value is not None and roots.count("√") <= _MAX_CHAIN:
        chain: Q | None = value
        bangs = ""
        while chain is not None and len(bangs) <= _MAX_CHAIN:
            found.setdefault(chain, roots + bangs)
            chain = factorial_value(chain, limits) if fact else None
            bangs += "!"
        nxt = square_root(value, limits) if sqrt else None
        if nxt == value:
            break
        value = nxt
        roots += "√"
    return list(found.items())


ROOT_DEPTH = 2
"""How many roots :func:`card_roots` puts over a card's chain (``√√3♦``, 3 to the 1/4)."""


def card_roots(rank: int, fact: bool, limits: Limits) -> list[tuple[Q, int, str]]:
    """The irrational values of a card under roots: ``(x, k, ops)`` for ``x ^ (1/2^k)``,
    ``x`` a value of :func:`card_chains` that is no square, ``k`` roots over it (at most
    :data:`ROOT_DEPTH`), ``ops`` the whole chain (``"!√"`` is ``√(3!)``, ``"√!√"`` is
    ``√((√9)!)``). A red card leads or divides with them where no bracket may stand (rule 3):
    ``−√10♦ ^ √4♣`` is −10 and ``÷ √2♥ ÷ √8♦`` divides by 4.

    >>> from dekbovinoj_edu.rules.limits import DEFAULT_LIMITS as L
    >>> [(x, k, ops) for x, k, ops in card_roots(3, True, L)][:4]
    [((3, 1), 1, '√'), ((3, 1), 2, '√√'), ((6, 1), 1, '!√'), ((6, 1), 2, '!√√')]
    """
    found: list[tuple[Q, int, str]] = []
    for x, ops in card_chains(rank, True, fact, limits):
        if square_root(x, limits) is not None or not root_fits(log10_size(*x), limits):
            continue  # a square's roots are chains of the card already
        found.extend((x, k, ops + "√" * k) for k in range(1, ROOT_DEPTH + 1))
    return found


@lru_cache(maxsize=1 << 16)
def root_power(x: Q, k: int, exponent: Q, limits: Limits) -> Q | None:
    """``(x ^ (1/2^k)) ^ exponent`` when it is rational and the checker computes it (an
    irrational base: ``x`` is no square), else ``None``.

    >>> from dekbovinoj_edu.rules.limits import DEFAULT_LIMITS as L
    >>> root_power((10, 1), 1, (2, 1), L), root_power((2, 1), 2, (-12, 1), L)
    ((10, 1), (1, 8))
    >>> root_power((10, 1), 1, (3, 1), L) is None  # 10 × √10
    True
    """
    p, q = exponent
    if p == 0 or abs(p) > limits.max_exponent or q > limits.max_exponent or x[0] <= 0:
        return None
    g = math.gcd(abs(p), q << k)
    p, q = p // g, (q << k) // g  # the value is x ^ (p/q)
    r = root(x, q)
    if r is None:
        return None
    n, d = r if p > 0 else (r[1], r[0])
    if abs(p) * log10_size(n, d) > math.log10(limits.max_magnitude) + 1:
        return None  # far too big: the checker would refuse it
    value = (n ** abs(p), d ** abs(p))
    return value if _checker_power(x, k, exponent, limits) else None


def _checker_power(x: Q, k: int, exponent: Q, limits: Limits) -> bool:
    """Whether the checker computes ``(√…√x) ^ exponent`` (``k`` roots): each root and the
    power within the limits, on the sizes the checker sees
    (:func:`~dekbovinoj_edu.checking.evaluate.root_size`; no sympy)."""
    base = Fraction(*x)
    if not all(root_fits(root_size(base, done), limits) for done in range(k)):
        return False
    return power_fits(root_size(base, k), Fraction(*exponent), limits)


@lru_cache(maxsize=1 << 16)
def root_exponents(x: Q, k: int, t: Q, limits: Limits) -> tuple[Q, ...]:
    """Every exponent ``e`` with ``(x ^ (1/2^k)) ^ e = t`` (as the checker computes it).

    >>> from dekbovinoj_edu.rules.limits import DEFAULT_LIMITS as L
    >>> root_exponents((10, 1), 1, (100, 1), L), root_exponents((10, 1), 1, (1, 100), L)
    (((4, 1),), ((-4, 1),))
    """
    whole = t[0] if t[1] == 1 else t[1] if t[0] == 1 else 1  # x ^ e is n or 1/n, n > 1
    if t[0] <= 0 or whole == 1 or x[1] != 1 or math.gcd(whole, x[0]) == 1:
        return ()
    ratio = _log_ratio(x, t)
    if ratio is None:
        return ()
    f = Fraction(ratio).limit_denominator(limits.max_exponent)  # x ^ f = t: e is f × 2^k
    candidates = {(e.numerator, e.denominator) for e in (f * (1 << k), -f * (1 << k))}
    return tuple(e for e in sorted(candidates) if root_power(x, k, e, limits) == t)


def preimages(t: Q, sqrt: bool, fact: bool, limits: Limits) -> list[tuple[Q, str]]:
    """Every ``x`` with a chain of ``√`` and ``!`` that takes ``x`` to ``t`` (the chain
    applied to ``x`` in order), each once: the inverse of :func:`closure`."""
    found: dict[Q, str] = {t: ""}
    todo = [t]
    while todo:
        value = todo.pop(0)
        ops = found[value]
        if len(ops) >= _MAX_CHAIN:
            continue
        before: list[tuple[str, Q]] = []
        if sqrt and value[0] >= 0:
            square = (value[0] * value[0], value[1] * value[1])
            if square_root(square, limits) == value:
                before.append(("√", square))
        if fact and value[1] == 1 and value[0] >= 1:
            n, f = 0, 1
            while f < value[0] and factorial_fits(n + 1, limits):
                n += 1
                f *= n
            for m in (0, 1) if value == ONE else (n,) if f == value[0] else ():
                before.append(("!", (m, 1)))
        for op, x in before:
            if x not in found:
                found[x] = op + ops
                todo.append(x)
    return list(found.items())


def exponents_to(base: Q, t: Q, limits: Limits) -> list[Q]:
    """Every exponent ``e`` with ``base ^ e = t`` (as the checker computes it), for a base
    other than 0, 1 and −1 (which have infinitely many or need no search)."""
    if base[0] == 0 or base in (ONE, (-1, 1)) or t[0] == 0:
        return []
    found: list[Q] = []
    ratio = _log_ratio(base, t)
    if ratio is None:
        return []
    e = Fraction(ratio).limit_denominator(limits.max_exponent)
    for candidate in {e, -e}:
        pair = (candidate.numerator, candidate.denominator)
        if rational_power(base, pair, limits) == t:
            found.append(pair)
    return found


def _log_ratio(base: Q, t: Q) -> float | None:
    """``log|t| / log|base|``, or ``None`` when ``|base| = 1``."""
    lb = math.log(abs(base[0])) - math.log(base[1])
    if lb == 0:
        return None
    return (math.log(abs(t[0])) - math.log(t[1])) / lb
