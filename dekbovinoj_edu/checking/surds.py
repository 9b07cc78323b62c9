"""Exact sums of rational multiples of square roots: ``1 + √2``, ``3×√2/2``, ``√2 + √3 − √10``.

A :class:`Surd` is an element of a multi-quadratic field Q(√2, √3, √5, …): a canonical
mapping from squarefree positive integers to nonzero fractions (``1`` holds the rational
part). The square roots of distinct squarefree integers are linearly independent over the
rationals, so two surds are equal exactly when their mappings are, and a surd is zero
exactly when its mapping is empty. The checker computes the values of level 3 with them
(:mod:`~dekbovinoj_edu.checking.evaluate`), and needs sympy only for the rare value outside
(``2^(1/3)``, a root that does not denest).

>>> two = Surd.root(Fraction(2))
>>> two, two * two * 5
(Surd({2: Fraction(1, 1)}), Surd({1: Fraction(10, 1)}))
>>> print(Surd.root(Fraction(8)) / two, (1 + two) ** 2, 1 / (1 + two))
2 2*sqrt(2) + 3 -1 + sqrt(2)
>>> (3 + Surd.root(Fraction(8))).sqrt() - two  # √(3 + √8) = 1 + √2
Surd({1: Fraction(1, 1)})
>>> (two + Surd.root(Fraction(3)) - Surd.root(Fraction(10))).sign()  # ≈ −0.016
-1

Every operation is exact; signs are decided by algebra, never by rounding. ``float()``
gives an approximation, for size estimates only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from types import MappingProxyType

__all__ = ["Surd"]

Rational = Fraction | int
"""What a surd may be combined with besides another surd."""

_TRIAL = 10_000
"""Square factors of a number are looked for by trial division by the primes up to this.
What is left then has no prime factor this small, so below ``_TRIAL ** 3`` it is a prime,
the square of one or the product of two: always known to be a square or squarefree."""


class Surd:
    """An exact number ``Σ c·√s``: squarefree ``s ≥ 1`` (``1`` for the rational part),
    nonzero fractions ``c``. Immutable and hashable; equal to a fraction or an int of the
    same value (with the same hash).

    >>> Surd({1: -1, 3: 2})
    Surd({1: Fraction(-1, 1), 3: Fraction(2, 1)})
    >>> str(Surd({1: -1, 3: 2})), Surd({2: 1}) == Surd({2: Fraction(2, 2)})
    ('-1 + 2*sqrt(3)', True)
    >>> Surd({4: 1})
    Traceback (most recent call last):
    ...
    ValueError: 4 is not a squarefree positive integer
    """

    __slots__ = ("_hash", "_terms")

    def __init__(self, terms: Mapping[int, Rational] | None = None) -> None:
        made: dict[int, Fraction] = {}
        for root, coefficient in (terms or {}).items():
            if not isinstance(root, int) or root < 1 or _squarefree(root) != (1, root):
                raise ValueError(f"{root} is not a squarefree positive integer")
            if coefficient:
                made[root] = Fraction(coefficient)
        self._terms = dict(sorted(made.items()))
        self._hash: int | None = None

    @classmethod
    def _made(cls, terms: dict[int, Fraction]) -> Surd:
        """A surd of canonical terms (squarefree roots), dropping zero coefficients."""
        made = cls.__new__(cls)
        made._terms = {root: c for root, c in sorted(terms.items()) if c}
        made._hash = None
        return made

    @classmethod
    def of(cls, value: Rational) -> Surd:
        """A rational as a surd.

        >>> Surd.of(Fraction(7, 2)).as_fraction()
        Fraction(7, 2)
        """
        return cls._made({1: Fraction(value)})

    @classmethod
    def root(cls, value: Rational) -> Surd | None:
        """``√value`` of a rational ``value ≥ 0``, exactly (``q·√s``); ``None`` for a negative
        value or one too big to split into a square and a squarefree part by trial division.

        >>> Surd.root(Fraction(8)), Surd.root(Fraction(2, 3)), Surd.root(-1), Surd.root(0)
        (Surd({2: Fraction(2, 1)}), Surd({6: Fraction(1, 3)}), None, Surd({}))
        """
        value = Fraction(value)
        if value <= 0:
            return cls() if value == 0 else None
        top = _squarefree(value.numerator)
        bottom = _squarefree(value.denominator)
        if top is None or bottom is None:
            return None
        # √(a²s / b²t) = a√s / (b√t) = a√(st) / (b·t), and √(st) = g·√(st/g²), g = gcd(s, t)
        (a, s), (b, t) = top, bottom
        g = math.gcd(s, t)
        return cls._made({(s // g) * (t // g): Fraction(a * g, b * t)})

    # ------------------------------------------------------------------ reading
    @property
    def terms(self) -> Mapping[int, Fraction]:
        """The mapping squarefree root → coefficient, smallest root first (read-only).

        >>> dict((1 + Surd.root(Fraction(12))).terms)
        {1: Fraction(1, 1), 3: Fraction(2, 1)}
        """
        return MappingProxyType(self._terms)

    def as_fraction(self) -> Fraction | None:
        """The value as a fraction when it is rational, else ``None``.

        >>> Surd.root(Fraction(9, 4)).as_fraction(), Surd.root(Fraction(2)).as_fraction()
        (Fraction(3, 2), None)
        """
        if not self._terms:
            return Fraction(0)
        if len(self._terms) == 1 and 1 in self._terms:
            return self._terms[1]
        return None

    def sign(self) -> int:
        """``-1``, ``0`` or ``1``, decided exactly.

        Split on a root ``b``: ``x = a + c·√b`` with ``a``, ``c`` free of ``√b``. When the
        signs of ``a`` and ``c`` agree (or ``a`` is 0) that is the sign; else ``a²`` is
        compared with ``c²·b``, a number free of ``√b`` (the same way, one root less).

        >>> root = Surd.root
        >>> (root(2) + root(3) - root(10)).sign(), (root(10) - root(2) - root(3)).sign()
        (-1, 1)
        >>> (root(2) * root(3) - root(6)).sign()
        0
        """
        rational = self.as_fraction()
        if rational is not None:
            return (rational > 0) - (rational < 0)
        b = self._splitter()
        a, c = self._split(b)
        sign_a, sign_c = a.sign(), c.sign()
        if sign_a == 0 or sign_a == sign_c:
            return sign_c
        return sign_a * (a * a - c * c * b).sign()  # a² − c²b is never 0: √b is irrational

    def __bool__(self) -> bool:
        return bool(self._terms)

    def __float__(self) -> float:
        """An approximation, good to about 15 digits even when terms cancel.

        >>> float((Surd.root(2) - 1) ** 40) > 0  # ≈ 5e-16, its terms ≈ 4e15 each
        True
        """
        center = Fraction(0)
        for bits in (64, 256, 1024, 4096):
            center, radius = self._bounds(bits)
            if abs(center) > radius * 2**60:
                break
        return float(center)

    def _bounds(self, bits: int) -> tuple[Fraction, Fraction]:
        """A rational near the value and how far from it the value may be (integers only)."""
        scale = 1 << bits
        center, radius = Fraction(0), Fraction(0)
        for root, c in self._terms.items():
            if root == 1:
                center += c
            else:
                center += c * Fraction(math.isqrt(root << (2 * bits)), scale)
                radius += abs(c) / scale
        return center, radius

    # --------------------------------------------------------------- arithmetic
    def __neg__(self) -> Surd:
        return Surd._made({root: -c for root, c in self._terms.items()})

    def __pos__(self) -> Surd:
        return self

    def __add__(self, other: Surd | Rational) -> Surd:
        given = _surd(other)
        if given is None:
            return NotImplemented
        terms = dict(self._terms)
        for root, c in given._terms.items():
            terms[root] = terms.get(root, 0) + c
        return Surd._made(terms)

    __radd__ = __add__

    def __sub__(self, other: Surd | Rational) -> Surd:
        given = _surd(other)
        if given is None:
            return NotImplemented
        return self + -given

    def __rsub__(self, other: Rational) -> Surd:
        return -self + other

    def __mul__(self, other: Surd | Rational) -> Surd:
        given = _surd(other)
        if given is None:
            return NotImplemented
        terms: dict[int, Fraction] = {}
        for s, a in self._terms.items():
            for t, b in given._terms.items():
                g = math.gcd(s, t)  # √s·√t = g·√(st/g²), and st/g² is squarefree
                root = (s // g) * (t // g)
                terms[root] = terms.get(root, 0) + a * b * g
        return Surd._made(terms)

    __rmul__ = __mul__

    def __truediv__(self, other: Surd | Rational) -> Surd:
        given = _surd(other)
        if given is None:
            return NotImplemented
        return self * given._inverse()

    def __rtruediv__(self, other: Rational) -> Surd:
        return Surd.of(other) * self._inverse()

    def _inverse(self) -> Surd:
        """``1/x``: times the conjugate ``a − c√b`` of ``x = a + c√b`` the root ``√b`` is
        gone (``a² − c²b``); root by root down to a rational."""
        rational = self.as_fraction()
        if rational is not None:
            if rational == 0:
                raise ZeroDivisionError("division of a surd by zero")
            return Surd.of(1 / rational)
        b = self._splitter()
        a, c = self._split(b)
        return (a - c * Surd._made({b: Fraction(1)})) * (a * a - c * c * b)._inverse()

    def __pow__(self, exponent: int) -> Surd:
        """A whole power, by repeated squaring (a negative one of the inverse).

        >>> print(Surd.root(2) ** 5, (1 + Surd.root(2)) ** -2)
        4*sqrt(2) 3 - 2*sqrt(2)
        """
        if not isinstance(exponent, int):
            return NotImplemented
        base = self if exponent >= 0 else self._inverse()
        result, n = Surd.of(1), abs(exponent)
        while n:
            if n & 1:
                result = result * base
            n >>= 1
            if n:
                base = base * base
        return result

    def sqrt(self) -> Surd | None:
        """The square root when it is a surd too (it denests), else ``None`` (also for a
        negative value).

        When a root exists it is ``√m·y`` with ``m`` a whole number and ``y`` in the field of
        ``x`` (its Galois group has order 2 at most). With ``x = a + c√b`` and ``y = u + v√b``,
        ``u``, ``v`` free of ``√b``: ``m(u² + bv²) = a`` and ``2muv = c``, so
        ``d = √(a² − c²b) = m(u² − bv²)`` lies in the field of ``a`` and ``c``, and
        ``√((a + d)/2) = √m·u``: roots in a field with one root less, down to a rational. The
        root found is squared back before it is returned.

        >>> print((3 + Surd.root(8)).sqrt(), (2 + Surd.root(3)).sqrt())
        1 + sqrt(2) sqrt(2)/2 + sqrt(6)/2
        >>> (1 + Surd.root(2)).sqrt() is None, (2 + Surd.root(2)).sqrt() is None
        (True, True)
        >>> (-Surd.root(2)).sqrt() is None
        True
        """
        rational = self.as_fraction()
        if rational is not None:
            return Surd.root(rational)
        if self.sign() < 0:
            return None
        b = self._splitter()
        a, c = self._split(b)
        d = (a * a - c * c * b).sqrt()
        if d is None or not set(d._terms) <= _spanned(a, c):
            return None
        for half in ((a + d) / 2, (a - d) / 2):
            u = half.sqrt()
            if not u:  # no root, or 0 (then c would be 0)
                continue
            root = u + c / (2 * u) * Surd._made({b: Fraction(1)})
            if root * root == self:
                return root if root.sign() > 0 else -root
        return None

    def _splitter(self) -> int:
        """A root ``b > 1`` of this surd that every other root is a multiple of or coprime to
        (a prime would do; this needs no factoring). The field splits on it as on a prime."""
        roots = [root for root in self._terms if root > 1]
        b = roots[0]
        shrunk = True
        while shrunk:
            shrunk = False
            for root in roots:
                g = math.gcd(b, root)
                if 1 < g < b:
                    b, shrunk = g, True
        return b

    def _split(self, b: int) -> tuple[Surd, Surd]:
        """``(a, c)`` with ``self = a + c·√b``, neither holding ``√b``."""
        free: dict[int, Fraction] = {}
        with_b: dict[int, Fraction] = {}
        for root, c in self._terms.items():
            if root % b:
                free[root] = c
            else:
                with_b[root // b] = c
        return Surd._made(free), Surd._made(with_b)

    # ------------------------------------------------------ comparing, printing
    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Surd, Fraction, int)):
            given = _surd(other)
            return given is not None and self._terms == given._terms
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            rational = self.as_fraction()
            found = hash(rational) if rational is not None else hash(frozenset(self._terms.items()))
            self._hash = found
        return self._hash

    def __repr__(self) -> str:
        inside = ", ".join(f"{root}: {c!r}" for root, c in self._terms.items())
        return f"Surd({{{inside}}})"

    def __str__(self) -> str:
        """As sympy prints the same number (``1 + sqrt(2)``, ``-sqrt(5) - 2*sqrt(7)/3``).

        sympy orders the terms of a sum of numbers by their values, smallest first, except
        that a positive rational and one negative term read ``q - …``.

        >>> print(Surd({1: Fraction(1, 3), 2: Fraction(-1, 2)}), Surd({2: 5, 3: 1}))
        1/3 - sqrt(2)/2 sqrt(3) + 5*sqrt(2)
        """
        if not self._terms:
            return "0"
        terms = sorted(self._terms.items(), key=lambda term: float(term[1]) * math.sqrt(term[0]))
        if len(terms) == 2 and terms[1][0] == 1 and terms[1][1] > 0 and terms[0][1] < 0:
            terms.reverse()  # a positive rational and a negative term: 1 - sqrt(2)
        text = ""
        for root, c in terms:
            if root == 1:
                shown = str(abs(c))
            else:
                factors = [] if abs(c.numerator) == 1 else [str(abs(c.numerator))]
                shown = "*".join([*factors, f"sqrt({root})"])
                if c.denominator != 1:
                    shown += f"/{c.denominator}"
            if not text:
                text = f"-{shown}" if c < 0 else shown
            else:
                text += f" - {shown}" if c < 0 else f" + {shown}"
        return text


def _spanned(*values: Surd) -> set[int]:
    """The roots of the field the values lie in: every product of their roots (squares out)."""
    found = {1}
    for value in values:
        for root in value._terms:
            if root not in found:
                found |= {(root // math.gcd(root, r)) * (r // math.gcd(root, r)) for r in found}
    return found


def _surd(value: object) -> Surd | None:
    if isinstance(value, Surd):
        return value
    if isinstance(value, (Fraction, int)):
        return Surd.of(value)
    return None


@cache
def _primes() -> tuple[int, ...]:
    """The primes up to :data:`_TRIAL` (a sieve, the first time they are needed)."""
    sieve = bytearray([1]) * (_TRIAL + 1)
    sieve[0:2] = b"\x00\x00"
    for n in range(2, math.isqrt(_TRIAL) + 1):
        if sieve[n]:
            sieve[n * n :: n] = bytearray(len(sieve[n * n :: n]))
    return tuple(n for n in range(_TRIAL + 1) if sieve[n])


def _squarefree(n: int) -> tuple[int, int] | None:
    """``(a, s)`` with ``n = a²·s`` and ``s`` squarefree, for ``n ≥ 1``; ``None`` when trial
    division cannot tell (a rest of ``_TRIAL ** 3`` or more without small prime factors).

    >>> _squarefree(72), _squarefree(1723), _squarefree(10_007 ** 2 * 6)
    ((6, 2), (1, 1723), (10007, 6))
    """
    square, free, rest = 1, 1, n
    for p in _primes():
        if p * p > rest:
            break
        if rest % p:
            continue
        count = 0
        while rest % p == 0:
            rest //= p
            count += 1
        square *= p ** (count // 2)
        free *= p ** (count % 2)
    else:
        if rest > 1:  # no prime factor up to _TRIAL: a prime, p², pq or worse
            root = math.isqrt(rest)
            if root * root == rest:
                return square * root, free
            if rest >= _TRIAL**3:
                return None
    return square, free * rest
