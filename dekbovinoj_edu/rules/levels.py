"""Levels: which operations may be used, the colour rule, the target.

A level is data (RULES.md, "Levels" and "House rules"):

>>> LEVELS[1].operations == {Op.ADD, Op.SUB}
True
>>> LEVELS[2].brackets, LEVELS[2].colour_rule, LEVELS[2].target
(True, True, 10)

A house rule is a changed copy; the classic 24 game is level 2 without the
colour rule, with target 24, using every card:

>>> import dataclasses
>>> game24 = dataclasses.replace(
...     LEVELS[2], name="24", colour_rule=False, target=24, all_cards=True
... )
>>> game24.target, game24.allows(Op.DIV), game24.all_cards
(24, True, True)
>>> str(game24)
'Level 24: + − × ÷ ( ), no colour rule, target 24, every card'

"""

from __future__ import annotations

from dataclasses import dataclass, field

from .limits import DEFAULT_LIMITS, MAX_DEAL_CARDS, Limits
from .operations import OPERATIONS, Colour, Op, OperationTable, OpKey

__all__ = [
    "LEVELS",
    "NEGATIVE_OPS",
    "POSITIVE_OPS",
    "Level",
    "Op",
    "level_of",
    "op_fits",
]


POSITIVE_OPS = frozenset(e.op for e in OPERATIONS.entries() if e.colour is Colour.POSITIVE)
"""Operations that may stand before a positive card (or an opening bracket)."""
NEGATIVE_OPS = frozenset(e.op for e in OPERATIONS.entries() if e.colour is Colour.NEGATIVE)
"""Operations that may stand before a negative card."""


def op_fits(op: OpKey | None, positive: bool, table: OperationTable = OPERATIONS) -> bool:
    """Whether the colour rule lets ``op`` stand before a card of that sign (its
    :attr:`~.operations.Operation.colour` in ``table``).

    ``None`` is "nothing in front" (the first card of the expression or of a
    bracket): a positive card needs nothing there, a negative card writes its
    sign, which the caller passes as ``Op.SUB``.

    >>> op_fits(Op.MUL, positive=True), op_fits(Op.DIV, positive=True)
    (True, False)
    >>> op_fits(Op.SUB, positive=False), op_fits(None, positive=False)
    (True, False)
    """
    if op is None:
        return positive
    match table[op].colour:
        case Colour.POSITIVE:
            return positive
        case Colour.NEGATIVE:
            return not positive
        case Colour.TRANSPARENT:
            raise ValueError(f"{op.symbol} takes no card: the operation in front of it counts")
        case unknown:
            raise ValueError(f"the colour rule does not know {unknown}")


@dataclass(frozen=True)
class Level:
    """The operations a player may use, whether the colour rule applies, the target.

    Frozen and hashable; ``dataclasses.replace`` makes house-rule levels.
    """

    name: str
    """A short name: ``"1"``, ``"2"``, ``"3"`` for the levels of the rules."""
    operations: frozenset[OpKey]
    """The operations allowed (``+`` and ``−`` at least), each one of ``table``'s."""
    brackets: bool = False
    """Whether brackets may be used."""
    colour_rule: bool = True
    """Whether black cards need ``+ × ^`` and red cards ``− ÷`` in front of them."""
    target: int = 10
    """The value a dek bovinoj must reach exactly."""
    limits: Limits = field(default=DEFAULT_LIMITS)
    """The bounds on input size and on powers, roots and factorials."""
    all_cards: bool = False
    """Whether the answer must use every card of the puzzle (the 24 game): pasture and barn,
    jokers aside."""
    table: OperationTable = field(default=OPERATIONS, compare=False, repr=False)
    """The table the operations come from: :data:`~.operations.OPERATIONS` unless a house
    rule adds an operation of its own (:meth:`~.operations.OperationTable.extended`). A table
    only adds to the default one, so two levels with the same operations are equal."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "operations", frozenset(self.operations))
        unknown = [op.symbol for op in self.operations if op not in self.table]
        if unknown:
            raise ValueError(f"level {self.name}: {' '.join(unknown)} not in its table")

    def allows(self, op: OpKey) -> bool:
        """Whether this level allows the operation."""
        return op in self.operations

    @property
    def most_cards(self) -> int:
        """The most cards (jokers included) a puzzle of this level may hold from a code:
        ``limits.max_cards`` for sums (``+ −`` only), at most
        :data:`~.limits.MAX_DEAL_CARDS` otherwise.

        >>> LEVELS[1].most_cards, LEVELS[3].most_cards
        (40, 24)
        """
        if self.operations <= {Op.ADD, Op.SUB} and not self.all_cards:
            return self.limits.max_cards
        return min(MAX_DEAL_CARDS, self.limits.max_cards)

    @property
    def number(self) -> int | None:
        """1, 2 or 3 when this is one of the levels of the rules, else ``None``.

        >>> LEVELS[3].number, LEVELS[2].__class__("mine", frozenset({Op.ADD})).number
        (3, None)
        """
        for number, level in LEVELS.items():
            if level == self:
                return number
        return None

    def __str__(self) -> str:
        """The level in words, in English (:func:`~.level_words.describe_level`)."""
        from .level_words import describe_level

        return describe_level(self)


LEVELS: dict[int, Level] = {
    1: Level("1", frozenset({Op.ADD, Op.SUB})),
    2: Level("2", frozenset({Op.ADD, Op.SUB, Op.MUL, Op.DIV}), brackets=True),
    3: Level(
        "3",
        frozenset({Op.ADD, Op.SUB, Op.MUL, Op.DIV, Op.POW, Op.SQRT, Op.FACT}),
        brackets=True,
    ),
}
"""The three levels of the rules: 1 is ``+ −``, 2 adds ``× ÷`` and brackets,
3 adds ``^ √ !`` ("all mathematical formulas")."""


def level_of(level: int | str | Level) -> Level:
    """A :class:`Level` from a level or its number.

    >>> level_of(2) is LEVELS[2], level_of("3") is LEVELS[3]
    (True, True)
    """
    if isinstance(level, Level):
        return level
    try:
        return LEVELS[int(level)]
    except (KeyError, ValueError):
        raise ValueError(f"there is no level {level!r}: use 1, 2, 3 or a Level") from None
