"""The checker's exact values against sympy, the reference (RULES.md: "sympy decides exactness").

Random expression trees over small ranks with + − × ÷ ^ √ and ! (whole, half and a few third
exponents) are evaluated twice: by the checker (fractions, then surds, then sympy for what is
left) and by a reference here that works on sympy numbers alone, straight from the tree, with
the rules' bounds and refusals. They must agree exactly: the same value, the same refusal, the
same answer to "is it 10?", the same sign and the same reading.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy
from hypothesis import event, given, settings
from hypothesis import strategies as st

from dekbovinoj_edu.checking import errors
from dekbovinoj_edu.checking.evaluate import Value, equals, evaluate, format_value, to_sympy
from dekbovinoj_edu.checking.expression import (
    BinaryNode,
    CardNode,
    FactorialNode,
    GroupNode,
    Node,
    SignNode,
    SqrtNode,
)
from dekbovinoj_edu.checking.surds import Surd
from dekbovinoj_edu.rules.levels import Op
from dekbovinoj_edu.rules.limits import (
    DEFAULT_LIMITS,
    factorial_fits,
    largest_factorial,
    log10_size,
    power_fits,
    root_fits,
)

X = sympy.Symbol("x")


# --- the reference: sympy numbers only, rational ones always as sympy.Rational -------------------


def rational(value: sympy.Expr) -> sympy.Expr:
    """The value, as a ``Rational`` whenever it is rational (its minimal polynomial decides)."""
    if value.is_Rational:
        return value
    polynomial = sympy.Poly(sympy.minimal_polynomial(value, X), X)
    if polynomial.degree() == 1:
        low, high = polynomial.all_coeffs()[::-1]
        return sympy.Rational(-low, high)
    return value


def sign(value: sympy.Expr) -> int:
    if value.is_Rational:
        return int(value.p > 0) - int(value.p < 0)
    return 1 if value.evalf(50) > 0 else -1  # irrational: never 0


def size(value: sympy.Expr) -> float:
    if value.is_Rational:
        return log10_size(int(value.p), int(value.q))
    magnitude = abs(float(value.evalf(30)))
    return math.inf if magnitude == 0.0 else abs(math.log10(magnitude))


def reference(node: Node) -> sympy.Expr:
    """The value of ``node`` by sympy alone, refused as the rules refuse it."""
    if isinstance(node, CardNode):
        return sympy.Integer(node.rank)
    if isinstance(node, GroupNode):
        return reference(node.inner)
    if isinstance(node, SignNode):
        return -reference(node.operand)
    if isinstance(node, SqrtNode):
        operand = reference(node.operand)
        if operand == 0:
            return sympy.Integer(0)
        if sign(operand) < 0:
            raise errors.RootOfNegativeError("")
        if not root_fits(size(operand), DEFAULT_LIMITS):
            raise errors.RootTooBigError("")
        return rational(sympy.sqrt(operand))
    if isinstance(node, FactorialNode):
        operand = reference(node.operand)
        if not operand.is_Integer or operand < 0:
            raise errors.FactorialOfNonWholeError("")
        if not factorial_fits(int(operand), DEFAULT_LIMITS):
            raise errors.FactorialTooBigError("", limit=largest_factorial(DEFAULT_LIMITS))
        return sympy.factorial(operand)
    assert isinstance(node, BinaryNode)
    left, right = reference(node.left), reference(node.right)
    if node.op is Op.POW:
        return power(left, right)
    if node.op is Op.DIV and right == 0:
        raise errors.DivisionByZeroError("")
    operation = {
        Op.ADD: lambda a, b: a + b,
        Op.SUB: lambda a, b: a - b,
        Op.MUL: lambda a, b: a * b,
        Op.DIV: lambda a, b: a / b,
    }[node.op]
    return rational(operation(left, right))


def power(base: sympy.Expr, exponent: sympy.Expr) -> sympy.Expr:
    if not exponent.is_Rational:
        raise errors.UndefinedPowerError("")
    fraction = Fraction(int(exponent.p), int(exponent.q))
    too_big = errors.PowerTooBigError("", limit=DEFAULT_LIMITS.max_magnitude)
    if not power_fits(0.0, fraction, DEFAULT_LIMITS):
        raise too_big
    if base == 0:
        if exponent == 0:
            raise errors.UndefinedPowerError("")
        if exponent < 0:
            raise errors.DivisionByZeroError("")
        return sympy.Integer(0)
    if exponent == 0:
        return sympy.Integer(1)
    if exponent.q > 1 and sign(base) < 0:
        raise errors.UndefinedPowerError("")
    if not power_fits(size(base), fraction, DEFAULT_LIMITS):
        raise too_big
    return rational(sympy.Pow(base, exponent))


# --- random trees ---------------------------------------------------------------------------------

cards = st.integers(1, 9).map(CardNode)
exponents = st.one_of(
    st.integers(1, 4).map(CardNode),
    st.integers(1, 3).map(lambda n: SignNode(Op.SUB, CardNode(n))),
    st.integers(1, 5).map(lambda n: GroupNode(BinaryNode(Op.DIV, CardNode(n), CardNode(2)))),
    st.integers(1, 2).map(lambda n: GroupNode(BinaryNode(Op.DIV, CardNode(n), CardNode(3)))),
)


def bigger(parts: st.SearchStrategy[Node]) -> st.SearchStrategy[Node]:
    operations = st.sampled_from([Op.ADD, Op.SUB, Op.MUL, Op.DIV])
    binary = st.builds(lambda op, a, b: BinaryNode(op, a, GroupNode(b)), operations, parts, parts)
    root = parts.map(lambda a: SqrtNode(GroupNode(a)))
    return st.one_of(  # the more common parts listed more often
        binary,
        binary,
        binary,
        root,
        root,
        st.builds(lambda a, b: BinaryNode(Op.POW, GroupNode(a), b), parts, exponents | parts),
        parts.map(lambda a: SignNode(Op.SUB, a)),
    )


leaves = st.one_of(
    cards,
    cards.map(SqrtNode),
    cards.map(SqrtNode),
    cards.map(FactorialNode),  # a factorial of a part: see tests/test_surds.py
)
trees = st.recursive(leaves, bigger, max_leaves=6)


# --- the comparison -------------------------------------------------------------------------------


def outcome(work: object) -> tuple[object, type[Exception] | None]:
    try:
        return work(), None  # type: ignore[operator]
    except errors.CheckError as error:
        return None, type(error)


def canonical(value: sympy.Expr) -> sympy.Expr | None:
    """The value as a sum of rational multiples of square roots of integers, if sympy
    brings it there (``None`` when it does not)."""
    flat = sympy.expand(sympy.radsimp(sympy.sqrtdenest(value)))
    for term in sympy.Add.make_args(flat):
        coefficient, rest = term.as_coeff_Mul()
        root = rest == 1 or (rest.is_Pow and rest.base.is_Integer and rest.exp == sympy.S.Half)
        if not coefficient.is_Rational or not root:
            return None
    return flat


def my_sign(value: Value) -> int:
    if isinstance(value, Surd):
        return value.sign()
    if isinstance(value, Fraction):
        return (value > 0) - (value < 0)
    return sign(value)


@pytest.mark.slow  # 500 expressions, each also computed by sympy
@settings(max_examples=500, deadline=None)
@given(trees)
def test_the_checkers_values_are_sympys(tree: Node) -> None:
    mine, my_error = outcome(lambda: evaluate(tree))
    expected, error = outcome(lambda: reference(tree))
    assert my_error is error, (mine, expected)
    event(type(mine).__name__ if error is None else error.__name__)
    if error is not None:
        return
    assert isinstance(mine, (Fraction, Surd, sympy.Expr)) and isinstance(expected, sympy.Expr)
    if isinstance(mine, Fraction) or expected.is_Rational:  # rational: both know it
        assert isinstance(mine, Fraction) and expected.is_Rational
        assert mine == Fraction(int(expected.p), int(expected.q))
        assert format_value(mine) == format_value(expected)
    else:
        assert rational(to_sympy(mine) - expected) == 0
        in_roots = canonical(expected)
        if isinstance(mine, Surd):
            assert in_roots is not None, expected  # sympy finds it a sum of roots too
            assert format_value(mine) == format_value(in_roots)
        else:  # outside the roots: sympy's own number
            assert in_roots is None, (mine, in_roots)  # nor does sympy see a sum of roots
    assert equals(mine, 10) is (expected == 10)
    assert my_sign(mine) == sign(expected)
