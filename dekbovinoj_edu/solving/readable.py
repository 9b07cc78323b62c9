"""Answers for people: when two answers are one, and which one a person reads first.

Two best answers are *one answer* when they differ only by the order of a
commutative operation (the normal form, :func:`~.normal_form.normalize`, sorts
terms and factors) or by a part that changes nothing: a factor (or divisor) worth
1 (``× A♥``, ``÷ A♥``, ``^ A♥``, ``× (3 − 2)``), a term worth 0, or a root or
factorial that leaves its number as it is (``√1``, ``1!``, ``2!``). The cards of
such a part still count; which operation joins them does not:

>>> from .normal_form import Num, Power, Product
>>> eight, one = Num(8), Num(1)
>>> same = [Product(((eight, False), (one, False))), Product(((eight, False), (one, True))),
...         Power(eight, one), Product(((Num(1, unary="!"), False), (eight, False)))]
>>> len({answer_key(node) for node in same})
1
>>> answer_key(Power(eight, Num(2))) == answer_key(Product(((eight, False), (Num(2), False))))
False

Among the best answers (the same cards), the *simplest* comes first, by
:func:`simplicity`, in this order:

1. the fewest level-3 operations (``√``, ``!``, ``^``): a level-2 answer first;
2. the fewest roots inside roots (``√√16``, ``√(3! − √4)``);
3. the fewest negative or fractional exponents (``x ^ (−1)``, ``1 ^ (2/11)``): a root or a
   factorial reads before them;
4. the smallest intermediate value (the largest numerator or denominator any step
   reaches: ``3! + 4`` before ``√((3! + 4) ^ 2)``);
5. the shortest text, then the text itself (so the order is the same on every run).

>>> from .normal_form import Sum, Wrap
>>> plain = Sum(((Num(8), False), (Num(3, unary="!"), False), (Num(4), True)))
>>> nested = Sum(((Num(3, unary="!"), False), (Wrap("√", Wrap("√", Power(Num(4), Num(8)))), False)))
>>> simplicity(plain, "8 + 3! − 4") < simplicity(nested, "3! + √√(4 ^ 8)")
True
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from functools import lru_cache

from .normal_form import Binary, Neg, Node, Num, Power, Product, Sum, Wrap, nums_of, value

__all__ = ["answer_key", "simplicity"]

_NO_OP = {"√": (1,), "!": (1, 2)}
"""The numbers a root or a factorial leaves as they are."""


@lru_cache(maxsize=65_536)
def _value(node: Node) -> Fraction | None:
    """The exact value of a part, or ``None`` when it is not rational (or not computed)."""
    try:
        return value(node)
    except (ValueError, ZeroDivisionError):
        return None


def _leaves(node: Node) -> list[tuple[int, bool]]:
    """The cards of a part as (rank, written negative), left to right."""
    return [(num.rank, num.negative) for num in nums_of(node)]


def _marks(rank: int, unary: str) -> str:
    """A card's roots and factorials without those that change nothing (``2!``, ``√1``)."""
    kept, current = "", Fraction(rank)
    for mark in unary:
        if current in _NO_OP[mark]:
            continue
        kept += mark
        try:
            current = value(Num(rank, unary=kept))
        except ValueError:
            current = Fraction(-1)  # irrational from here on: nothing more is a no-op
    return kept


def answer_key(node: Node) -> Hashable:
    """A key equal for two normal forms that a person reads as the same answer (see the
    module text). Where a part that changes nothing stands does not matter either:
    ``(3 + 4) ÷ A♥ + 3`` and ``3 + 4 + 3 ÷ A♥`` are one answer.

    >>> seven = Sum(((Num(3), False), (Num(4), False)))
    >>> left = Sum(((Product(((seven, False), (Num(1), True))), False), (Num(3), False)))
    >>> three_by_one = Product(((Num(3), False), (Num(1), True)))
    >>> right = Sum(((Num(3), False), (Num(4), False), (three_by_one, False)))
    >>> answer_key(left) == answer_key(right)
    True
    """
    aside: list[tuple[int, bool]] = []
    return _key(node, aside), tuple(sorted(aside))


def _key(node: Node, aside: list[tuple[int, bool]]) -> Hashable:
    """A part's key; the cards of its parts that change nothing go ``aside``."""
    if isinstance(node, Num):
        return ("n", node.rank, node.negative, _marks(node.rank, node.unary))
    if isinstance(node, Wrap):
        inner = _value(node.inner)
        if inner is not None and inner in _NO_OP[node.op]:
            return _key(node.inner, aside)
        return ("w", node.op, _key(node.inner, aside))
    if isinstance(node, Neg):
        return ("m", _key(node.inner, aside))
    if isinstance(node, Binary):
        return ("b", node.op.symbol, _key(node.left, aside), _key(node.right, aside))
    if isinstance(node, Sum):
        terms: list[tuple[bool, Hashable]] = []
        for child, minus in node.terms:
            if _value(child) == 0:
                aside.extend(_leaves(child))
            else:
                _join(terms, minus, _key(child, aside), "s")
        if len(terms) == 1 and not terms[0][0]:
            return terms[0][1]
        return ("s", tuple(sorted(terms, key=repr)))
    factors: list[tuple[bool, Hashable]] = []
    _collect(node, False, factors, aside, top=True)
    if len(factors) == 1 and not factors[0][0]:
        return factors[0][1]
    return ("p", tuple(sorted(factors, key=repr)))


def _collect(
    node: Node,
    divide: bool,
    factors: list[tuple[bool, Hashable]],
    aside: list[tuple[int, bool]],
    top: bool = False,
) -> None:
    """The factors of a product (or power) as keys, the cards of factors worth 1 aside."""
    if isinstance(node, Product):
        for child, inverted in node.factors:
            _collect(child, inverted != divide, factors, aside)
    elif not top and _value(node) == 1:
        aside.extend(_leaves(node))
    elif isinstance(node, Power) and _value(node.exponent) == 1:
        _collect(node.base, divide, factors, aside)
        aside.extend(_leaves(node.exponent))
    elif isinstance(node, Power):
        factors.append((divide, ("^", _key(node.base, aside), _key(node.exponent, aside))))
    else:
        _join(factors, divide, _key(node, aside), "p")


def _join(parts: list[tuple[bool, Hashable]], inverted: bool, key: Hashable, kind: str) -> None:
    """Add a part's key to a sum's terms (``kind`` ``"s"``) or a product's factors (``"p"``),
    the parts of a sum in a sum (a product in a product) joining it: a bracket left round
    once a part that changes nothing is gone."""
    if isinstance(key, tuple) and key[0] == kind:
        parts.extend((flag != inverted, part) for flag, part in key[1])
    else:
        parts.append((inverted, key))


def simplicity(node: Node, text: str) -> tuple[int, int, int, int, int, str]:
    """How hard an answer is to read, smaller first (the order of the module text).

    ``text`` is the answer as printed.
    """
    counts = _Counts()
    counts.walk(node, 0)
    return (
        counts.level3,
        counts.nested_roots,
        counts.odd_exponents,
        counts.largest,
        len(text),
        text,
    )


class _Counts:
    """What :func:`simplicity` counts, gathered in one walk over the tree."""

    def __init__(self) -> None:
        self.level3 = 0
        self.nested_roots = 0
        self.odd_exponents = 0
        self.largest = 0

    def see(self, node: Node) -> None:
        found = _value(node)
        if found is not None:
            self.largest = max(self.largest, abs(found.numerator), found.denominator)

    def walk(self, node: Node, roots: int) -> None:
        """Count ``node``'s parts; ``roots`` is how many roots stand around it."""
        self.see(node)
        if isinstance(node, Num):
            self.level3 += len(node.unary)
            inside = roots
            for mark in node.unary:
                if mark == "√":
                    self.nested_roots += inside > 0
                    inside += 1
            return
        if isinstance(node, Wrap):
            self.level3 += 1
            if node.op == "√":
                self.nested_roots += roots > 0
                roots += 1
            self.walk(node.inner, roots)
        elif isinstance(node, Power):
            self.level3 += 1
            exponent = _value(node.exponent)
            self.odd_exponents += exponent is not None and (
                exponent < 0 or exponent.denominator > 1
            )
            self.walk(node.base, roots)
            self.walk(node.exponent, roots)
        elif isinstance(node, Sum):
            for child, _ in node.terms:
                self.walk(child, roots)
        elif isinstance(node, Product):
            for child, _ in node.factors:
                self.walk(child, roots)
        elif isinstance(node, Binary):
            self.walk(node.left, roots)
            self.walk(node.right, roots)
        else:  # Neg
            self.walk(node.inner, roots)
