"""The table of operations: each operation of the game declared once.

Every part that treats operations differently reads this table: the parser
(spellings, precedence, associativity), the printer (symbol, precedence), the
colour rule (what it asks of the card after the operation), the exact
evaluator (:attr:`Operation.rule`), the solver (:attr:`Operation.search`) and
the puzzle codes (:attr:`Operation.code_bit`). Each of them dispatches with a
``match`` whose last case raises, so an operation a part does not know is an
error, never a silent default; the table itself is checked when it is built.
The views read it too: a sign button of the answer builder shows and writes
the operation's symbol, is called by :attr:`Operation.spoken_name`, and
joins its neighbours by :attr:`Operation.fixity`.

>>> OPERATIONS[Op.DIV].colour, OPERATIONS[Op.DIV].precedence, OPERATIONS[Op.DIV].code_bit
(<Colour.NEGATIVE: 'negative'>, 2, 3)
>>> [op.symbol for op in OPERATIONS][:7]
['+', '−', '×', '÷', '^', '√', '!']

A house rule may add an operation of its own: :meth:`OperationTable.extended`
gives a new table (the default one never changes), and a
:class:`~dekbovinoj_edu.rules.levels.Level` made with ``table=`` uses it.

>>> import operator
>>> MOD = ExtraOp("modulo", "mod")
>>> table = OPERATIONS.extended(
...     Operation(MOD, Fixity.INFIX, 2, Colour.POSITIVE, Rule.ARITHMETIC, Search.TREES,
...               code_bit=len(OPERATIONS), spellings=("MOD",), apply=operator.mod,
...               needs_nonzero_right=True)
... )
>>> table[MOD].symbol, MOD in table, MOD in OPERATIONS
('mod', True, False)
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeAlias

__all__ = [
    "OPERATIONS",
    "SIGN_PRECEDENCE",
    "Assoc",
    "Colour",
    "ExtraOp",
    "Fixity",
    "Op",
    "OpKey",
    "Operation",
    "OperationTable",
    "Rule",
    "Search",
]


class Op(Enum):
    """An operation of the rules, valued by its standard symbol."""

    ADD = "+"
    """Addition; stands before a positive (black) card."""
    SUB = "−"
    """Subtraction; stands before a negative (red) card."""
    MUL = "×"
    """Multiplication; stands before a positive card or a bracket."""
    DIV = "÷"
    """Division; stands before a negative card."""
    POW = "^"
    """Power (level 3); stands before a positive card or a bracket, like ``×``."""
    SQRT = "√"
    """Square root (level 3); takes no card, wraps a card or a bracket (and its factorials:
    ``√9!`` is ``√(9!)``)."""
    FACT = "!"
    """Factorial (level 3); takes no card, follows a card or a bracket."""

    @property
    def symbol(self) -> str:
        """The standard symbol, as the checker prints it."""
        return self.value


@dataclass(frozen=True)
class ExtraOp:
    """An operation that is not one of the rules' (a house rule's own), named and spelled.

    >>> ExtraOp("modulo", "mod").symbol
    'mod'
    """

    name: str
    """A name for people (``"modulo"``)."""
    value: str
    """The standard symbol, as for :class:`Op`."""

    @property
    def symbol(self) -> str:
        """The standard symbol, as the checker prints it."""
        return self.value


OpKey: TypeAlias = Op | ExtraOp
"""What names an operation: one of the rules' (:class:`Op`) or a house rule's own."""


class Fixity(Enum):
    """Where an operation is written."""

    INFIX = "infix"
    """Between two parts: ``a + b``."""
    PREFIX = "prefix"
    """Before the card or bracket it takes: ``√9``."""
    POSTFIX = "postfix"
    """After the card or bracket it takes: ``3!``."""


class Assoc(Enum):
    """How a chain of infix operations of one precedence groups."""

    LEFT = "left"
    """``8 − 3 − 2`` is ``(8 − 3) − 2``."""
    RIGHT = "right"
    """``2 ^ 3 ^ 2`` is ``2 ^ (3 ^ 2)``."""


class Colour(Enum):
    """What the colour rule asks of the card (or bracket) written right after an operation."""

    POSITIVE = "positive"
    """A positive card or a bracket (``+ × ^``)."""
    NEGATIVE = "negative"
    """A negative card (``− ÷``)."""
    TRANSPARENT = "transparent"
    """Takes no card: the operation in front of it counts for what it wraps (``√ !``)."""


class Rule(Enum):
    """How the exact evaluator (:func:`dekbovinoj_edu.checking.evaluate.apply`) computes it."""

    ARITHMETIC = "arithmetic"
    """:attr:`Operation.apply` on exact numbers, as it is (``+ − × ÷``)."""
    POWER = "power"
    """A power, its size bounded first; rational exponents are roots."""
    ROOT = "root"
    """A square root, bounded first; exact (a fraction or a surd)."""
    FACTORIAL = "factorial"
    """A factorial of a whole number, bounded first."""


class Search(Enum):
    """Which part of the solver searches the operation."""

    SUM = "sum"
    """Terms of a sum (``+ −``), in every grammar."""
    PRODUCT = "product"
    """Factors of a product (``× ÷``), in every grammar."""
    POWER = "power"
    """Powers, in the general grammar (:mod:`dekbovinoj_edu.solving.search_general`)."""
    ROOT = "root"
    """Square roots, in the general grammar."""
    FACTORIAL = "factorial"
    """Factorials, in the general grammar."""
    TREES = "trees"
    """Every binary tree of the cards (:mod:`dekbovinoj_edu.solving.search_trees`): any
    infix operation, slowly; levels without the colour rule only."""


SIGN_PRECEDENCE = 3
"""How tightly a sign (``−9``) holds: between a product's (2) and a power's (4)."""
ROOT_PRECEDENCE = 5
"""How tightly a prefix operation (``√9``) holds: tighter than ``^`` (``√9 ^ 2`` is
``(√9) ^ 2``), looser than a postfix one (``√9!`` is ``√(9!)``, as in ordinary notation)."""
POSTFIX_PRECEDENCE = 6
"""How tightly a postfix operation (``3!``) holds."""
PRIMARY_PRECEDENCE = 7
"""How tightly a card or a bracket holds."""


@dataclass(frozen=True)
class Operation:
    """One operation, declared once: how it is written, read, evaluated, searched and coded."""

    op: OpKey
    """The operation this record declares."""
    fixity: Fixity
    """Infix (two parts), prefix or postfix (one part)."""
    precedence: int
    """How tightly it binds when printed and read (higher binds tighter): ``+ −`` 1,
    ``× ÷`` 2, a sign :data:`SIGN_PRECEDENCE`, ``^`` 4, ``√`` :data:`ROOT_PRECEDENCE`,
    ``!`` :data:`POSTFIX_PRECEDENCE`."""
    colour: Colour
    """What the colour rule asks of the card after it."""
    rule: Rule
    """How the exact evaluator computes it."""
    search: Search
    """Which part of the solver searches it."""
    code_bit: int
    """Its bit in a house rule's puzzle code (:mod:`dekbovinoj_edu.rules.codes`)."""
    assoc: Assoc = Assoc.LEFT
    """How a chain of it groups (infix operations)."""
    spellings: tuple[str, ...] = ()
    """What the parser reads as it, after :func:`~dekbovinoj_edu.checking.expression.normalise`
    (upper case); the symbol is always read too."""
    sign: bool = False
    """Whether it may also stand as a sign in front of a part (``−9``, a harmless ``+``)."""
    apply: Callable[[Any, Any], Any] | None = field(default=None, compare=False)
    """For :attr:`Rule.ARITHMETIC`: the operation on exact numbers (fractions, surds, sympy)."""
    needs_nonzero_right: bool = False
    """Whether a right part worth 0 makes it undefined (``÷ 0``)."""
    spoken: str = ""
    """What its sign button is called (its tooltip), in English: a ``ui`` msgid, translated
    in the ``ui`` catalogs for the rules' operations. A house rule's own may leave it empty:
    :attr:`spoken_name` is then its :attr:`ExtraOp.name`."""

    @property
    def symbol(self) -> str:
        """The standard symbol, as the checker prints it; also its sign button's label and
        what a tap on it writes (the parser always reads it, so the echo reads it back)."""
        return self.op.symbol

    @property
    def spoken_name(self) -> str:
        """What its sign button is called, in English: :attr:`spoken`, else the house rule's
        name for its operation (else the symbol).

        >>> OPERATIONS[Op.MUL].spoken_name
        'times'
        >>> modulo = Operation(ExtraOp("modulo", "mod"), Fixity.INFIX, 2, Colour.POSITIVE,
        ...                    Rule.ARITHMETIC, Search.TREES, code_bit=7, apply=operator.mod)
        >>> modulo.spoken_name
        'modulo'
        """
        if self.spoken:
            return self.spoken
        return self.op.name if isinstance(self.op, ExtraOp) else self.symbol

    @property
    def arity(self) -> int:
        """How many parts it takes: 2 written between them, 1 before or after it.

        >>> OPERATIONS[Op.POW].arity, OPERATIONS[Op.FACT].arity
        (2, 1)
        """
        return 2 if self.fixity is Fixity.INFIX else 1


class OperationTable:
    """The operations a level may name, in the order they are listed, each declared once.

    Built tables are checked: symbols, spellings and code bits are each
    distinct, the rules' operations are all there, an arithmetic operation has
    its function, and every fixity, precedence and associativity is one the
    parser reads (left-associative infix below a sign, right-associative infix
    between a sign and a root). A mistake is a ``ValueError`` when
    the table is made, at import for the default table.
    """

    def __init__(self, operations: tuple[Operation, ...]) -> None:
        self._entries = {entry.op: entry for entry in operations}
        self._order = tuple(entry.op for entry in operations)
        _check_table(operations)

    def __getitem__(self, op: OpKey) -> Operation:
        try:
            return self._entries[op]
        except KeyError:
            raise ValueError(f"{op.symbol} is not an operation of this table") from None

    def __contains__(self, op: object) -> bool:
        return op in self._entries

    def __iter__(self) -> Iterator[OpKey]:
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)

    def __repr__(self) -> str:
        return f"OperationTable({' '.join(op.symbol for op in self._order)})"

    def entries(self) -> tuple[Operation, ...]:
        """Every record, in table order."""
        return tuple(self._entries[op] for op in self._order)

    def extended(self, *extra: Operation) -> OperationTable:
        """A new table with more operations after these (this one does not change).

        >>> OPERATIONS.extended(OPERATIONS[Op.ADD])
        Traceback (most recent call last):
        ...
        ValueError: the table already declares +
        """
        for entry in extra:
            if entry.op in self._entries:
                raise ValueError(f"the table already declares {entry.symbol}")
        return OperationTable(self.entries() + extra)

    def infix(self) -> tuple[Operation, ...]:
        """The infix records, in table order."""
        return tuple(e for e in self.entries() if e.fixity is Fixity.INFIX)

    def signs(self) -> tuple[Operation, ...]:
        """The records of operations that may stand as a sign."""
        return tuple(e for e in self.entries() if e.sign)


def _check_table(entries: tuple[Operation, ...]) -> None:
    seen: dict[str, str] = {}
    for entry in entries:
        for spelling in (entry.symbol, *entry.spellings):
            if spelling in seen and seen[spelling] != entry.symbol:
                raise ValueError(f"{spelling} spells both {seen[spelling]} and {entry.symbol}")
            seen[spelling] = entry.symbol
        if entry.rule is Rule.ARITHMETIC and entry.apply is None:
            raise ValueError(f"{entry.symbol} is arithmetic but has no function to apply")
        if entry.sign and entry.fixity is not Fixity.INFIX:
            raise ValueError(f"{entry.symbol} stands as a sign but is not infix")
        match entry.fixity:
            case Fixity.INFIX:
                below_sign = entry.precedence < SIGN_PRECEDENCE
                if below_sign != (entry.assoc is Assoc.LEFT) or not (
                    0 < entry.precedence < ROOT_PRECEDENCE
                ):
                    raise ValueError(
                        f"the parser reads left-associative operations below a sign and "
                        f"right-associative ones between a sign and a root, "
                        f"not {entry.symbol} ({entry.assoc.value}, {entry.precedence})"
                    )
            case Fixity.PREFIX | Fixity.POSTFIX:
                if entry.op not in (Op.SQRT, Op.FACT):
                    raise ValueError(
                        f"the expression tree has a node for √ and ! only, not {entry.symbol}"
                    )
            case _:  # pragma: no cover - every fixity is handled above
                raise ValueError(f"unknown fixity {entry.fixity}")
    bits = [entry.code_bit for entry in entries]
    if len(set(bits)) != len(bits) or min(bits, default=0) < 0:
        raise ValueError(f"code bits must be distinct and not negative: {bits}")
    missing = [op.symbol for op in Op if op not in {entry.op for entry in entries}]
    if missing:
        raise ValueError(f"the table must declare every operation of the rules: {missing}")


OPERATIONS = OperationTable(
    (
        Operation(
            op=Op.ADD,
            fixity=Fixity.INFIX,
            precedence=1,
            colour=Colour.POSITIVE,
            rule=Rule.ARITHMETIC,
            search=Search.SUM,
            code_bit=0,
            sign=True,
            apply=operator.add,
            spoken="plus",
        ),
        Operation(
            op=Op.SUB,
            fixity=Fixity.INFIX,
            precedence=1,
            colour=Colour.NEGATIVE,
            rule=Rule.ARITHMETIC,
            search=Search.SUM,
            code_bit=1,
            spellings=("-",),
            sign=True,
            apply=operator.sub,
            spoken="minus (before a red card, or its sign)",
        ),
        Operation(
            op=Op.MUL,
            fixity=Fixity.INFIX,
            precedence=2,
            colour=Colour.POSITIVE,
            rule=Rule.ARITHMETIC,
            search=Search.PRODUCT,
            code_bit=2,
            spellings=("*", "X"),
            apply=operator.mul,
            spoken="times",
        ),
        Operation(
            op=Op.DIV,
            fixity=Fixity.INFIX,
            precedence=2,
            colour=Colour.NEGATIVE,
            rule=Rule.ARITHMETIC,
            search=Search.PRODUCT,
            code_bit=3,
            spellings=("/",),
            apply=operator.truediv,
            needs_nonzero_right=True,
            spoken="divided by",
        ),
        Operation(
            op=Op.POW,
            fixity=Fixity.INFIX,
            precedence=4,
            colour=Colour.POSITIVE,
            rule=Rule.POWER,
            search=Search.POWER,
            code_bit=4,
            assoc=Assoc.RIGHT,
            spellings=("**",),
            spoken="to the power of",
        ),
        Operation(
            op=Op.SQRT,
            fixity=Fixity.PREFIX,
            precedence=ROOT_PRECEDENCE,
            colour=Colour.TRANSPARENT,
            rule=Rule.ROOT,
            search=Search.ROOT,
            code_bit=5,
            spellings=("SQRT",),
            spoken="square root",
        ),
        Operation(
            op=Op.FACT,
            fixity=Fixity.POSTFIX,
            precedence=POSTFIX_PRECEDENCE,
            colour=Colour.TRANSPARENT,
            rule=Rule.FACTORIAL,
            search=Search.FACTORIAL,
            code_bit=6,
            spoken="factorial",
        ),
    )
)
"""The operations of the rules, in the order levels list them."""
