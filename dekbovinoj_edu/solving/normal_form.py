"""Expression trees of solutions, their normal form, their exact value and their text.

The solver builds answers as small trees of four kinds of node:

- :class:`Num`, one card: its rank, with the card's sign when it is written
  with one (``−9♦``), optionally under a square root or a factorial (level 3);
- :class:`Sum`, terms joined by ``+`` and ``−``;
- :class:`Product`, factors joined by ``×`` and ``÷``;
- :class:`Wrap`, a root or a factorial of a bracket, and :class:`Power`;
- :class:`Neg`, a sign in front of a part (only without the colour rule);
- :class:`Binary`, any infix operation of a house rule's table, its parts in order.

:func:`normalize` flattens sums of sums and products of products and sorts
the terms and factors, so two answers that differ only by reordering terms or
factors (or by bracketing a sum inside a sum) have the same normal form.
:func:`to_text` prints the checker's notation, cards named with suits:

>>> from dekbovinoj_edu.rules.cards import Card
>>> k, two, nine = Card.parse("K♣"), Card.parse("2♣"), Card.parse("9♦")
>>> term = Product(((Num(13, card=k), False), (Num(2, card=two), False)))
>>> tree = Sum(((Num(9, negative=True, card=nine), False), (term, False)))
>>> to_text(tree)
'K♣ × 2♣ − 9♦'
>>> value(tree)
Fraction(17, 1)
>>> normalize(tree) == normalize(Sum(((term, False), (Num(9, True, nine), False))))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..checking import expression as expr
from ..checking.errors import CheckError
from ..checking.evaluate import Value, apply
from ..rules.cards import Card
from ..rules.limits import DEFAULT_LIMITS, Limits
from ..rules.operations import OPERATIONS, Op, OperationTable, OpKey

__all__ = [
    "Binary",
    "Neg",
    "Node",
    "Num",
    "Power",
    "Product",
    "Sum",
    "Wrap",
    "cards_of",
    "normalize",
    "nums_of",
    "to_expression",
    "to_text",
    "value",
]


@dataclass(frozen=True)
class Num:
    """One card in an expression.

    ``negative`` is the sign written with a negative card (``−9♦`` is worth
    −9); a negative card after ``÷`` is written without it (``÷ 3♥`` divides
    by 3) and so has ``negative=False``. ``unary`` is a chain of roots and
    factorials applied to the rank in order (``""``, ``"√"``, ``"!"``, ``"√!"``
    is ``(√9)!``, ``"!!"`` is ``(3!)!``, ``"!√"`` is ``√(3!)``); the sign stays
    outside, as in ``−√9♥``.
    """

    rank: int
    """The card's rank, 1 to 13."""
    negative: bool = False
    """Whether the card is written with its minus sign (its value is negated)."""
    card: Card | None = None
    """The card itself, for printing with its suit (``None``: print the rank only)."""
    unary: str = ""
    """Roots and factorials (``""``, ``"√"``, ``"!"``, ``"√!"``…), applied to the rank in
    order, before the sign."""


@dataclass(frozen=True)
class Sum:
    """Terms joined by ``+`` and ``−``: each term is ``(node, minus)``."""

    terms: tuple[tuple[Node, bool], ...]


@dataclass(frozen=True)
class Product:
    """Factors joined by ``×`` and ``÷``: each factor is ``(node, divide)``."""

    factors: tuple[tuple[Node, bool], ...]


@dataclass(frozen=True)
class Power:
    """``base ^ exponent`` (level 3). A base that is a negative card keeps its sign
    outside: ``−2♦ ^ 3♣`` is ``−(2 ^ 3)``, as the checker reads it."""

    base: Node
    exponent: Node


@dataclass(frozen=True)
class Wrap:
    """A square root (``"√"``) or factorial (``"!"``) of a bracket (level 3)."""

    op: str
    inner: Node


@dataclass(frozen=True)
class Neg:
    """``−x``: a sign in front of a part, without the colour rule (``3 × −2``)."""

    inner: Node


@dataclass(frozen=True)
class Binary:
    """``left op right`` for any infix operation, written as it is (the tree search's answers,
    :mod:`.search_trees`): its parts are not reordered."""

    op: OpKey
    left: Node
    right: Node


Node = Num | Sum | Product | Power | Wrap | Neg | Binary
"""Any expression tree node."""

UNARY: dict[str, Op] = {OPERATIONS[Op.SQRT].symbol: Op.SQRT, OPERATIONS[Op.FACT].symbol: Op.FACT}
"""The marks of :attr:`Num.unary` and :attr:`Wrap.op`, and their operations."""


def unary_op(mark: str) -> Op:
    """The operation of a root or factorial mark (``"√"``, ``"!"``); any other is an error.

    >>> unary_op("√"), unary_op("?")
    Traceback (most recent call last):
    ...
    ValueError: ? is not a root or a factorial
    """
    try:
        return UNARY[mark]
    except KeyError:
        raise ValueError(f"{mark} is not a root or a factorial") from None


def value(
    node: Node, limits: Limits = DEFAULT_LIMITS, table: OperationTable = OPERATIONS
) -> Fraction:
    """The exact value of a tree (rational trees only: every step must come out rational).

    Each step is computed by the checker's evaluator
    (:func:`~dekbovinoj_edu.checking.evaluate.apply`), within ``limits``.

    >>> value(Sum(((Num(8), False), (Num(5, unary="√"), True))))
    Traceback (most recent call last):
    ...
    ValueError: √ of 5 is not rational
    >>> value(Power(Num(2, negative=True), Num(3)))
    Fraction(-8, 1)
    """
    return _Values(limits, table).of(node)


class _Values:
    def __init__(self, limits: Limits, table: OperationTable) -> None:
        self.limits = limits
        self.table = table

    def step(self, op: OpKey, *operands: Value) -> Fraction:
        try:
            result = apply(op, operands, self.limits, table=self.table)
        except CheckError as error:
            raise ValueError(f"{op.symbol} of {_shown(operands)}: {error}") from None
        if not isinstance(result, Fraction):
            raise ValueError(f"{op.symbol} of {_shown(operands)} is not rational")
        return result

    def of(self, node: Node) -> Fraction:
        if isinstance(node, Num):
            result = Fraction(node.rank)
            for mark in node.unary:
                result = self.step(unary_op(mark), result)
            return -result if node.negative else result
        if isinstance(node, Neg):
            return -self.of(node.inner)
        if isinstance(node, Sum):
            total = Fraction(0)
            for n, minus in node.terms:
                total = self.step(Op.SUB if minus else Op.ADD, total, self.of(n))
            return total
        if isinstance(node, Product):
            result = Fraction(1)
            for n, divide in node.factors:
                result = self.step(Op.DIV if divide else Op.MUL, result, self.of(n))
            return result
        if isinstance(node, Power):
            base = node.base
            if isinstance(base, Num) and base.negative:  # −2♦ ^ 3♣ is −(2 ^ 3)
                return -self.of(Power(Num(base.rank, False, base.card, base.unary), node.exponent))
            return self.step(Op.POW, self.of(base), self.of(node.exponent))
        if isinstance(node, Wrap):
            return self.step(unary_op(node.op), self.of(node.inner))
        if isinstance(node, Binary):
            return self.step(node.op, self.of(node.left), self.of(node.right))
        raise ValueError(f"not a tree of normal_form: {node!r}")


def _shown(operands: tuple[Value, ...]) -> str:
    return ", ".join(str(x) for x in operands)


def cards_of(node: Node) -> list[Card]:
    """The cards of a tree, left to right.

    >>> cards_of(Sum(((Num(3, card=Card.parse("3♠")), False), (Num(7), False))))
    [Card.parse('3♠')]
    """
    return [num.card for num in nums_of(node) if num.card is not None]


def nums_of(node: Node) -> list[Num]:
    """The card leaves of a tree, left to right.

    >>> [num.rank for num in nums_of(Power(Num(2), Wrap("√", Num(9))))]
    [2, 9]
    """
    if isinstance(node, Num):
        return [node]
    if isinstance(node, Sum):
        return [leaf for n, _ in node.terms for leaf in nums_of(n)]
    if isinstance(node, Product):
        return [leaf for n, _ in node.factors for leaf in nums_of(n)]
    if isinstance(node, Power):
        return nums_of(node.base) + nums_of(node.exponent)
    if isinstance(node, Binary):
        return nums_of(node.left) + nums_of(node.right)
    return nums_of(node.inner)  # Wrap and Neg


def _key(node: Node) -> tuple:
    """A total order on normalised trees (used to sort terms and factors)."""
    if isinstance(node, Num):
        card = node.card
        suit = card.suit.value if card is not None and card.suit is not None else ""
        return (0, -node.rank, node.negative, node.unary, suit)
    if isinstance(node, Sum):
        return (2, tuple((minus, _key(n)) for n, minus in node.terms))
    if isinstance(node, Product):
        return (1, tuple((divide, _key(n)) for n, divide in node.factors))
    if isinstance(node, Power):
        return (3, _key(node.base), _key(node.exponent))
    if isinstance(node, Neg):
        return (5, _key(node.inner))
    if isinstance(node, Binary):
        return (6, node.op.symbol, _key(node.left), _key(node.right))
    return (4, node.op, _key(node.inner))


def normalize(node: Node, ops: frozenset[OpKey] | None = None) -> Node:
    """The normal form: nested sums and products flattened, children sorted.

    >>> a, b, c = Num(1), Num(2), Num(3)
    >>> left = Sum(((a, False), (Sum(((b, False), (c, True))), True)))  # 1 − (2 − 3)
    >>> to_text(normalize(left))
    '3 + 1 − 2'

    Given the level's operations, a bracket is kept where flattening it would
    write an operation the level does not have (``1 − (2 − 3)`` without ``+``):

    >>> to_text(normalize(left, frozenset({Op.SUB})))
    '1 − (2 − 3)'

    A root or factorial of a bracket holding one card is that card's mark:

    >>> normalize(Wrap("!", Num(3))) == Num(3, unary="!")
    True
    """
    if isinstance(node, Num):
        return node
    if isinstance(node, Power):
        return Power(normalize(node.base, ops), normalize(node.exponent, ops))
    if isinstance(node, Wrap):
        inner = normalize(node.inner, ops)
        if isinstance(inner, Num) and not inner.negative:  # √(9) and √9 are one card's marks
            return Num(inner.rank, False, inner.card, inner.unary + node.op)
        return Wrap(node.op, inner)
    if isinstance(node, Neg):
        return Neg(normalize(node.inner, ops))
    if isinstance(node, Binary):
        return Binary(node.op, normalize(node.left, ops), normalize(node.right, ops))
    if isinstance(node, Sum):
        terms: list[tuple[Node, bool]] = []
        for child, minus in node.terms:
            child = normalize(child, ops)
            if isinstance(child, Sum) and _may_flatten(child.terms, minus, Op.ADD, ops):
                terms.extend((n, m != minus) for n, m in child.terms)
            else:
                terms.append((child, minus))
        if len(terms) == 1 and not terms[0][1]:
            return terms[0][0]
        return Sum(tuple(sorted(terms, key=lambda item: (item[1], _key(item[0])))))
    factors: list[tuple[Node, bool]] = []
    for child, divide in node.factors:
        child = normalize(child, ops)
        if isinstance(child, Product) and _may_flatten(child.factors, divide, Op.MUL, ops):
            factors.extend((n, d != divide) for n, d in child.factors)
        else:
            factors.append((child, divide))
    if len(factors) == 1 and not factors[0][1]:
        return factors[0][0]
    return Product(tuple(sorted(factors, key=lambda item: (item[1], _key(item[0])))))


def _may_flatten(
    parts: tuple[tuple[Node, bool], ...],
    inverted: bool,
    plain: Op,
    ops: frozenset[OpKey] | None,
) -> bool:
    """Whether a bracket's parts may join the parts around it: inverting them (after ``−``
    or ``÷``) turns an inverted part into a ``plain`` one (``+``, ``×``), which the level
    must have."""
    return ops is None or not inverted or plain in ops or not any(flag for _, flag in parts)


def _card(node: Num) -> expr.Node:
    """A card as the checker's tree: its rank (and suit), root or factorial, and sign."""
    leaf: expr.Node = expr.CardNode(node.rank, node.card.suit if node.card else None)
    for mark in node.unary:
        leaf = _wrapped(unary_op(mark), leaf)
    return expr.SignNode(Op.SUB, leaf) if node.negative else leaf


def _wrapped(op: Op, leaf: expr.Node) -> expr.Node:
    """A root or a factorial of a part, as the checker's node."""
    match op:
        case Op.SQRT:
            return expr.SqrtNode(leaf)
        case Op.FACT:
            return expr.FactorialNode(leaf)
        case _:
            raise ValueError(f"{op.symbol} is not a root or a factorial")


def _bracket(node: Node) -> expr.Node:
    """A node used as a factor, base, exponent or under ``√``/``!``: bracketed unless atomic."""
    if isinstance(node, Num):
        leaf = _card(node)
        return expr.GroupNode(leaf) if node.negative else leaf
    if isinstance(node, Wrap):
        return to_expression(node)
    return expr.GroupNode(to_expression(node))


def _negative_power(node: Node) -> bool:
    """A power led by a negative card: ``−2♦ ^ 3♣``."""
    return isinstance(node, Power) and isinstance(node.base, Num) and node.base.negative


def _starts_negative(node: Node) -> bool:
    """Whether a term prints with a leading sign (it has a negative card to lead with)."""
    if isinstance(node, Num):
        return node.negative
    if isinstance(node, Neg) or _negative_power(node):
        return True
    if isinstance(node, Product):
        return any(_leads_negative(n) and not d for n, d in node.factors)
    return False


def _leads_negative(node: Node) -> bool:
    return (
        (isinstance(node, Num) and node.negative) or _negative_power(node) or isinstance(node, Neg)
    )


def _product(node: Product, unsigned: bool) -> expr.Node:
    factors = list(node.factors)
    # Lead with a negative card when there is one (``−3♥ × 4♣``, no bracket needed);
    # otherwise with the first factor that is multiplied, never with a divisor.
    lead = next((i for i, (n, d) in enumerate(factors) if not d and _leads_negative(n)), None)
    if lead is None:
        lead = next(i for i, (_, d) in enumerate(factors) if not d)
    first, _ = factors.pop(lead)
    tree = _term(first, unsigned) if isinstance(first, Num | Power | Neg) else _bracket(first)
    for child, divide in factors:
        if (isinstance(child, Power) and not _negative_power(child)) or isinstance(child, Neg):
            operand = to_expression(child)  # a Neg only without the colour rule: × −3
        else:
            operand = _bracket(child)
        tree = expr.BinaryNode(Op.DIV if divide else Op.MUL, tree, operand)
    return tree


def _term(node: Node, unsigned: bool = False) -> expr.Node:
    """A term of a sum; ``unsigned`` drops its leading sign (the sum writes ``−`` instead)."""
    if isinstance(node, Num):
        return _card(Num(node.rank, False, node.card, node.unary) if unsigned else node)
    if isinstance(node, Product):
        return _product(node, unsigned)
    if isinstance(node, Sum):
        return expr.GroupNode(to_expression(node))
    if unsigned and isinstance(node, Neg):
        return _term(node.inner) if isinstance(node.inner, Num | Product) else _bracket(node.inner)
    if unsigned and _negative_power(node):
        assert isinstance(node, Power) and isinstance(node.base, Num)
        base = Num(node.base.rank, False, node.base.card, node.base.unary)
        return to_expression(Power(base, node.exponent))
    return to_expression(node)


def to_expression(node: Node) -> expr.Node:
    """The tree in the checker's node classes (:mod:`dekbovinoj_edu.checking.expression`).

    Terms that start with a plus come first, so an expression starts with a
    positive card when it has one; a negative card leads its term with its
    sign (``− 9♦``); another negative card in the same term is bracketed
    (``−5♦ × (−2♥)``).
    """
    if isinstance(node, Num):
        return _card(node)
    if isinstance(node, Wrap):
        return _wrapped(unary_op(node.op), _bracket(node.inner))
    if isinstance(node, Binary):
        return expr.BinaryNode(node.op, _bracket(node.left), _bracket(node.right))
    if isinstance(node, Neg):
        negated = to_expression(node.inner)
        if isinstance(node.inner, Num | Power | Wrap):  # the sign takes a whole power (−2 ^ 3)
            return expr.SignNode(Op.SUB, negated)
        return expr.SignNode(Op.SUB, expr.GroupNode(negated))
    if isinstance(node, Power):
        base = node.base
        if isinstance(base, Num) and base.negative:
            unsigned = Power(Num(base.rank, False, base.card, base.unary), node.exponent)
            return expr.SignNode(Op.SUB, to_expression(unsigned))
        exponent = node.exponent
        power = to_expression(exponent) if isinstance(exponent, Neg) else _bracket(exponent)
        return expr.BinaryNode(Op.POW, _bracket(base), power)
    if isinstance(node, Product):
        return _product(node, False)
    ordered = sorted(node.terms, key=lambda item: item[1] or _starts_negative(item[0]))
    tree: expr.Node | None = None
    for child, minus in ordered:
        if tree is None:
            tree = _term(child)
            if minus:
                tree = expr.SignNode(Op.SUB, tree)
        elif minus or _starts_negative(child):
            tree = expr.BinaryNode(Op.SUB, tree, _term(child, unsigned=not minus))
        else:
            tree = expr.BinaryNode(Op.ADD, tree, _term(child))
    assert tree is not None
    return tree


def to_text(node: Node, table: OperationTable = OPERATIONS) -> str:
    """The expression in the checker's notation, printed by the checker's own printer.

    >>> to_text(Product(((Num(5, True), False), (Num(2, True), False))))
    '−5 × (−2)'
    >>> to_text(Product(((Sum(((Num(8), False), (Num(7), False))), False), (Num(3), True))))
    '(8 + 7) ÷ 3'
    >>> to_text(Power(Num(2), Sum(((Num(1), False), (Num(2), False)))))
    '2 ^ (1 + 2)'
    >>> to_text(Sum(((Num(9, unary="√"), False), (Num(3, True, unary="!"), False))))
    '√9 − 3!'
    """
    return expr.render(to_expression(node), table=table)
