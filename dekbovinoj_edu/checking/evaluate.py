"""Exact values of expression trees, with every power, root and factorial bounded first.

Whole numbers and fractions are computed with :class:`fractions.Fraction`
(fast and exact). A square root that is not rational makes a
:class:`~dekbovinoj_edu.checking.surds.Surd` (``1 + √2``, ``√2 + √3``: exact
too, and as quick); only a value outside them (``2^(1/3)``, a root of a surd
that does not denest) switches to sympy numbers, built from the tree (never
from text). Before a power, root or factorial is computed its size is
estimated against the level's :class:`~dekbovinoj_edu.rules.limits.Limits`,
and refused if too big.

>>> from dekbovinoj_edu.checking.expression import parse_expression
>>> evaluate(parse_expression("13*2+3-9-3-7").tree)
Fraction(10, 1)
>>> evaluate(parse_expression("√2 × √2 × 5").tree)
Fraction(10, 1)
>>> evaluate(parse_expression("√2 + 1").tree)
Surd({1: Fraction(1, 1), 2: Fraction(1, 1)})
>>> evaluate(parse_expression("2 ^ (1 ÷ 3)").tree)
2**(1/3)
>>> evaluate(parse_expression("13^13^12").tree)
Traceback (most recent call last):
...
dekbovinoj_edu.checking.errors.PowerTooBigError: This power is too big for this program: ...
>>> evaluate(parse_expression("√(3 + √8) − √2").tree)
Fraction(1, 1)
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Union

from ..rules.limits import (
    DEFAULT_LIMITS,
    Limits,
    factorial_fits,
    largest_factorial,
    log10_size,
    power_fits,
    root_fits,
)
from ..rules.operations import OPERATIONS, OperationTable, OpKey, Rule
from .errors import (
    DivisionByZeroError,
    FactorialOfNonWholeError,
    FactorialTooBigError,
    PowerTooBigError,
    RootOfNegativeError,
    RootTooBigError,
    UndefinedPowerError,
)
from .expression import CardNode, FactorialNode, GroupNode, Node, SignNode, SqrtNode
from .roots import whole_root
from .surds import Surd

if TYPE_CHECKING:
    import sympy

__all__ = ["Value", "apply", "equals", "evaluate", "format_value", "root_size", "to_sympy"]

Value = Union[Fraction, Surd, "sympy.Expr"]
"""An exact value: a fraction; a :class:`~.surds.Surd` when it is irrational but a sum of
rational multiples of square roots (never a rational one); else a sympy number."""

_NEAR_ZERO = 1e-40


def evaluate(
    tree: Node, limits: Limits = DEFAULT_LIMITS, text: str = "", table: OperationTable = OPERATIONS
) -> Value:
    """The exact value of a tree (numbers are their ranks as written).

    Raises :class:`~.errors.CheckError` subclasses for values that are
    too big to compute or do not exist (division by zero, √ of a negative).
    ``text`` is the typed input, carried by those errors. Each operation is
    computed by :func:`apply`.
    """
    return _Evaluator(limits, text, table).value(tree)


_ZERO = Fraction(0)


class _Evaluator:
    def __init__(self, limits: Limits, text: str, table: OperationTable) -> None:
        self.limits = limits
        self.text = text
        self.table = table

    def value(self, node: Node) -> Value:
        if isinstance(node, CardNode):
            return Fraction(node.rank)
        if isinstance(node, GroupNode):
            return self.value(node.inner)
        if isinstance(node, SignNode):  # a sign is its operation after a 0: −9 is 0 − 9
            operands: tuple[Value, ...] = (_ZERO, self.value(node.operand))
        elif isinstance(node, (SqrtNode, FactorialNode)):
            operands = (self.value(node.operand),)
        else:
            operands = (self.value(node.left), self.value(node.right))
        return apply(node.op, operands, self.limits, self.text, node.position, self.table)


def apply(
    op: OpKey,
    operands: tuple[Value, ...],
    limits: Limits = DEFAULT_LIMITS,
    text: str = "",
    position: int | None = None,
    table: OperationTable = OPERATIONS,
) -> Value:
    """The exact value of one operation on exact values: the one evaluator of the package.

    The checker, the steps of an answer and the solver's normal form
    (:mod:`dekbovinoj_edu.solving.normal_form`) all compute with it, by the
    operation's :attr:`~dekbovinoj_edu.rules.operations.Operation.rule`. Powers,
    roots and factorials are bounded by ``limits`` first; a value that is not
    defined or too big raises a :class:`~.errors.CheckError` at ``position`` in ``text``.

    >>> from dekbovinoj_edu.rules.operations import Op
    >>> apply(Op.DIV, (Fraction(3), Fraction(4))), apply(Op.SQRT, (Fraction(8),))
    (Fraction(3, 4), Surd({2: Fraction(2, 1)}))
    >>> apply(Op.POW, (Fraction(4), Fraction(1, 2))), apply(Op.FACT, (Fraction(4),))
    (Fraction(2, 1), Fraction(24, 1))
    >>> apply(Op.DIV, (Fraction(1), Fraction(0)))
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.checking.errors.DivisionByZeroError: You can't divide by zero.
    """
    entry = table[op]
    match entry.rule:
        case Rule.ARITHMETIC:
            left, right = operands
            return _arithmetic(entry.apply, entry.needs_nonzero_right, left, right, text, position)
        case Rule.POWER:
            base, exponent = operands
            return _power(base, exponent, limits, text, position)
        case Rule.ROOT:
            (operand,) = operands
            return _sqrt(operand, limits, text, position)
        case Rule.FACTORIAL:
            (operand,) = operands
            return _factorial(operand, limits, text, position)
        case unknown:
            raise ValueError(f"the evaluator has no rule {unknown}")


def _arithmetic(
    function: Callable[[Any, Any], Any] | None,
    nonzero_right: bool,
    left: Value,
    right: Value,
    text: str,
    position: int | None,
) -> Value:
    """An arithmetic operation: on fractions and surds when they have it, else on sympy's."""
    assert function is not None  # the table is checked: an arithmetic operation has one
    if nonzero_right and _is_zero(right):
        raise DivisionByZeroError(text, position)
    if isinstance(left, (Fraction, Surd)) and isinstance(right, (Fraction, Surd)):
        try:
            result = function(left, right)
        except TypeError:  # an operation surds do not have (a house rule's own): sympy's
            pass
        else:
            return _settled(result)
    return _simplest(function(to_sympy(left), to_sympy(right)))


def _power(base: Value, exponent: Value, limits: Limits, text: str, position: int | None) -> Value:
    if not isinstance(exponent, Fraction):
        raise UndefinedPowerError(text, position)
    if not power_fits(0.0, exponent, limits):  # the exponent alone is too big
        raise PowerTooBigError(text, position, limit=limits.max_magnitude)
    p, q = exponent.numerator, exponent.denominator
    if _is_zero(base):
        if p <= 0:  # 0 ^ 0 is undefined (RULES.md), 0 ^ −n divides by zero
            raise (UndefinedPowerError if p == 0 else DivisionByZeroError)(text, position)
        return Fraction(0)
    if p == 0:
        return Fraction(1)
    if q > 1 and _is_negative(base):
        raise UndefinedPowerError(text, position)
    if not power_fits(_log10_size(base), exponent, limits):
        raise PowerTooBigError(text, position, limit=limits.max_magnitude)
    if q == 1 and isinstance(base, Fraction):
        return base**p
    if q == 1 and isinstance(base, Surd):
        return _settled(base**p)
    if isinstance(base, (Fraction, Surd)):  # 8 ^ (2/3), 4 ^ (1/4) = √2, (1 + √2) ^ (3/2)
        root = _root(base, q)
        if root is not None:
            return _settled(root**p)
    import sympy

    return _simplest(sympy.Pow(to_sympy(base), sympy.Rational(p, q)))


def _sqrt(operand: Value, limits: Limits, text: str, position: int | None) -> Value:
    if _is_zero(operand):
        return Fraction(0)
    if _is_negative(operand):
        raise RootOfNegativeError(text, position)
    if not root_fits(_log10_size(operand), limits):
        raise RootTooBigError(text, position)
    if isinstance(operand, (Fraction, Surd)):
        root = _root(operand, 2)
        if root is not None:
            return _settled(root)
    import sympy

    return _simplest(sympy.sqrt(to_sympy(operand)))


def _factorial(operand: Value, limits: Limits, text: str, position: int | None) -> Value:
    if not isinstance(operand, Fraction) or operand.denominator != 1 or operand < 0:
        raise FactorialOfNonWholeError(text, position)
    if not factorial_fits(int(operand), limits):
        raise FactorialTooBigError(text, position, limit=largest_factorial(limits))
    return Fraction(math.factorial(int(operand)))


def _root(value: Fraction | Surd, n: int) -> Fraction | Surd | None:
    """The ``n``-th root of ``value > 0`` when it is a fraction or a surd, else ``None``
    (sympy's, then).

    >>> _root(Fraction(9, 4), 2), _root(3 + Surd.root(Fraction(8)), 2)
    (Fraction(3, 2), Surd({1: Fraction(1, 1), 2: Fraction(1, 1)}))
    >>> _root(Surd.root(Fraction(2)), 4) is None
    True
    """
    if isinstance(value, Fraction):
        return _fraction_root(value, n)
    return value.sqrt() if n == 2 else None


def _fraction_root(value: Fraction, n: int) -> Fraction | Surd | None:
    """The ``n``-th root of ``value > 0`` when it is a fraction, or the square root of one,
    else ``None``.

    >>> _fraction_root(Fraction(8, 27), 3), _fraction_root(Fraction(4), 4)
    (Fraction(2, 3), Surd({2: Fraction(1, 1)}))
    >>> _fraction_root(Fraction(2), 3) is None
    True
    """
    top, bottom = whole_root(value.numerator, n), whole_root(value.denominator, n)
    if top is not None and bottom is not None:
        return Fraction(top, bottom)
    if n % 2 == 0:
        half = _fraction_root(value, n // 2)
        if isinstance(half, Fraction):
            return Surd.root(half)
    return None


def _settled(value: Fraction | Surd) -> Fraction | Surd:
    """A surd that is rational, as a fraction (the fast path)."""
    if isinstance(value, Surd):
        rational = value.as_fraction()
        if rational is not None:
            return rational
    return value


def to_sympy(value: Value) -> sympy.Expr:
    """The value as a sympy number (fractions become ``sympy.Rational``; a surd the sum of
    its terms, exactly).

    >>> to_sympy(Fraction(3, 4)), to_sympy(Surd({1: -1, 3: 2}))
    (3/4, -1 + 2*sqrt(3))
    """
    import sympy

    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    if isinstance(value, Surd):
        return sympy.Add(
            *(
                sympy.Rational(c.numerator, c.denominator) * sympy.sqrt(root)
                for root, c in value.terms.items()
            )
        )
    return value


def _simplest(value: sympy.Expr) -> Value:
    """Back to a fraction whenever sympy found the value rational, to a surd when it is a
    sum of rational multiples of square roots of integers."""
    if value.is_Rational:
        return Fraction(int(value.p), int(value.q))
    return _from_sympy(value) or value


def _from_sympy(value: sympy.Expr) -> Surd | None:
    """The surd of a sympy sum of terms ``q``, ``q·√n`` (``None`` for anything else)."""
    total = Surd()
    for term in value.args if value.is_Add else (value,):
        coefficient, rest = term.as_coeff_Mul()
        if not coefficient.is_Rational:
            return None
        if rest == 1:
            root: Surd | None = Surd.of(1)
        elif rest.is_Pow and rest.base.is_Integer and rest.exp.is_Rational and rest.exp.q == 2:
            root = Surd.root(int(rest.base)) if rest.exp.p == 1 else None
        else:
            return None
        if root is None:
            return None
        total += Fraction(int(coefficient.p), int(coefficient.q)) * root
    return total if total.as_fraction() is None else None


def _approx(value: Value) -> float:
    if isinstance(value, (Fraction, Surd)):
        return float(value)
    return float(value.evalf(30))


def _log10_size(value: Value) -> float:
    """How far the value is from 1 in orders of magnitude (of its numerator or denominator).

    Bounding this bounds both huge results and huge denominators.
    """
    if isinstance(value, Fraction):
        return log10_size(value.numerator, value.denominator)
    size = abs(_approx(value))
    if size == 0.0 or math.isinf(size):
        return math.inf
    return abs(math.log10(size))


def root_size(x: Fraction, k: int) -> float:
    """The size (orders of magnitude from 1) the checker sees of ``√…√x``, ``k`` roots of
    ``x > 0``, worked out without sympy: the solver's bounds on a power of a card's nested
    root (:mod:`dekbovinoj_edu.solving.powers`) are the checker's without loading sympy, which
    the static site fetches only when a student writes such a root.

    While the roots are fractions or surds they are computed; beyond, the checker's number is
    sympy's, whose float is ``x ^ (1/2^k)`` rounded to the nearest float: so is this one.

    >>> import sympy
    >>> root_size(Fraction(10), 1) == _log10_size(_sqrt(Fraction(10), DEFAULT_LIMITS, "", None))
    True
    >>> root_size(Fraction(10), 2) == _log10_size(sympy.sqrt(sympy.sqrt(10)))
    True
    >>> root_size(Fraction(81, 16), 3) == _log10_size(sympy.root(Fraction(81, 16), 8))
    True
    """
    value: Fraction | Surd = x
    for _ in range(k):
        root = _root(value, 2)
        if root is None:  # sympy's from here on: x ^ (1/2^k), nearest float
            return abs(math.log10(_nearest_root(x, k)))
        value = _settled(root)
    return _log10_size(value)


def _nearest_root(x: Fraction, k: int) -> float:
    """``x ^ (1/2^k)`` for ``x > 0``, rounded to the nearest float (from 128 bits more).

    >>> _nearest_root(Fraction(16), 2), _nearest_root(Fraction(1, 4), 1)
    (2.0, 0.5)
    """
    n, d, bits = x.numerator, x.denominator, 128
    top = n * d ** ((1 << k) - 1) << (bits << k)  # x ^ (1/2^k) = top ^ (1/2^k) / (d · 2^bits)
    for _ in range(k):
        top = math.isqrt(top)
    return float(Fraction(top, d << bits))


def _is_zero(value: Value) -> bool:
    """Exactly zero? Fractions and surds are zero only when written so; for a sympy number
    numerically when clearly not, else exactly.

    Every value here is an algebraic number (roots and rational powers of
    rationals; irrational exponents are refused), so its minimal polynomial
    decides exactly; quicker expansions and denesting are tried first.
    """
    if isinstance(value, (Fraction, Surd)):
        return not value
    if value.is_Rational:
        return bool(value == 0)
    import sympy

    approx = value.evalf(60)  # accurate to 60 digits when not zero
    if bool(abs(approx) > _NEAR_ZERO):
        return False
    expanded = sympy.expand(value)
    if expanded == 0 or sympy.expand(sympy.sqrtdenest(expanded)) == 0:
        return True
    x = sympy.Dummy("x")
    try:
        return bool(sympy.minimal_polynomial(value, x) == x)
    except (NotImplementedError, ValueError):  # pragma: no cover - not algebraic after all
        return bool(value.equals(0))


def _is_negative(value: Value) -> bool:
    if isinstance(value, Fraction):
        return value < 0
    if isinstance(value, Surd):
        return value.sign() < 0
    return not _is_zero(value) and _approx(value) < 0


def equals(value: Value, target: int) -> bool:
    """Whether an exact value equals the target, decided without rounding errors.

    >>> equals(Fraction(20, 2), 10), equals(Fraction(19, 2), 10), equals(Surd.root(2), 10)
    (True, False, False)
    """
    if isinstance(value, (Fraction, Surd)):
        return value == target
    return _is_zero(to_sympy(value) - target)


def format_value(value: Value) -> str:
    """A value as a child reads it: ``10``, ``−3``, ``7/2``, ``1 + √2``.

    A surd reads as sympy prints the same number: its terms smallest first (a positive
    rational and one negative term: the rational first, ``1 − √2``).

    >>> format_value(Fraction(-7, 2)), format_value(Fraction(10))
    ('−7/2', '10')
    >>> format_value(Surd({1: -1, 3: 2})), format_value(Surd({2: Fraction(3, 2)}))
    ('−1 + 2×√3', '3×√2/2')
    >>> import sympy
    >>> format_value(2 * sympy.sqrt(3) - 1), format_value(sympy.root(2, 3))
    ('−1 + 2×√3', '2^(1/3)')
    """
    if isinstance(value, Fraction):
        text = str(value)
    else:
        text = re.sub(r"sqrt\((\d+)\)", r"√\1", str(value))
        text = text.replace("**", "^").replace("*", "×").replace("sqrt", "√")
    return text.replace("-", "−")
